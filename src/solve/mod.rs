//! Solve the surface, not the skeleton (SPEC X, article 001): play an
//! artist clip once, record the deformed mesh, then solve a rig's per-frame
//! bone transforms so that its own skinning reproduces that surface. The
//! result is a clip in the rig's own hierarchy, whatever its bones are named.
//!
//! Pieces, one job each:
//! * [`eigen4`]: exact symmetric 4x4 eigen-solver (cyclic Jacobi);
//! * [`horn`]: Horn's quaternion rotation fit;
//! * [`constraints`]: constraint subsample and per-bone-pair moment sums;
//! * [`rigid`]: block coordinate descent over bones (rigid mode) and the
//!   affine seed;
//! * [`rotation_only`]: the bone-length-preserving variant;
//! * [`assemble`]: skinning matrices to world matrices to a clip;
//! * [`quality`]: transfer quality, per-vertex error, heat-map colours;
//! * [`surface`]: `solve_surface`, the whole per-frame loop;
//! * [`correspondence`]: aligned rest-pose nearest neighbours;
//! * [`transfer`]: `transfer_clip`, source clip to target rig, parallel over clips;
//! * [`tracks`]: a solved clip as glTF animation tracks for the target file;
//! * [`synthetic`]: a generated creature with known answers (tests, benches).

pub mod assemble;
pub mod constraints;
pub mod correspondence;
pub mod eigen4;
pub mod horn;
pub mod params;
pub mod quality;
pub mod rigid;
pub mod rotation_only;
pub mod surface;
pub mod synthetic;
pub mod tracks;
pub mod transfer;

pub use params::{SolveMode, SolveParams};
pub use quality::{heat_colour, heat_colours, measure, quality_over, skin_clip, Quality};
pub use correspondence::Correspondence;
pub use surface::{solve_surface, SolveReport, Solved};
pub use tracks::clip_tracks;
pub use transfer::{carried_surfaces, solve_surfaces, transfer_clip, transfer_clips, Transfer};
