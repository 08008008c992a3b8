//! Edge stretch (SPEC M1): for every mesh edge with both ends on the tail,
//! at evenly spaced times over a clip, skinned length / bind length; body
//! edges the same way as the baseline of ordinary skinning. Always reported
//! with how much the tail moves (tip angular RMS about the tail root,
//! relative to the tail carried rigidly by the pelvis in its carry pose), so
//! a tail that does not move cannot score well: an over-damped chain (p99
//! 1.03, tail barely moving) was the article's cautionary tale.
//!
//! | file | job |
//! |---|---|
//! | `stretch/stats` | edges, ratios, percentiles, torn share |
//! | `stretch/motion` | tail tip amplitude against a reference pose |
//! | `stretch/report` | one rig on one clip: tail, body, motion |
//! | `stretch/collar` | the collar band: geodesic distance from the tail's root seam |
//! | `stretch/mesh` | every edge: tail, collar, body, whole; torn by the repair; body drift |

#[path = "stretch/collar.rs"]
mod collar;
#[path = "stretch/mesh.rs"]
mod mesh;
#[path = "stretch/motion.rs"]
mod motion;
#[path = "stretch/report.rs"]
mod report;
#[path = "stretch/stats.rs"]
mod stats;

pub use collar::{collar_band, CollarBand, COLLAR_BAND_DIAMETERS};
pub use mesh::{
    body_drift, lowest_point, mesh_regions, mesh_stretch, rig_rows, BodyDrift, MeshRegions,
    MeshStretch, Played, Region, RegionRow, RigRows, TornByRepair, WorstEdge, BODY_DRIFT_SHARE,
    ROWS, WORST_EDGES,
};
pub use motion::{tail_ends, TailEnds, TailMotion};
pub use report::{check_samples, sample_frames, stretch_report, StretchReport};
pub use stats::{mesh_edges, StretchStats};

/// Times sampled over a clip (SPEC M1).
pub const STRETCH_SAMPLES: usize = 24;
/// Most sampled times a caller may ask for: each is one skinning of the
/// whole mesh; 10^5 is far past any clip's frame count (a sample beyond the
/// frames only repeats one).
pub const MAX_STRETCH_SAMPLES: usize = 100_000;
/// An edge stretched beyond this ratio is torn.
pub const TORN_ABOVE: f32 = 1.5;
/// An edge squashed below this ratio is torn.
pub const TORN_BELOW: f32 = 0.67;
/// A chain "visibly moves" when its tip swings at least this much, degrees
/// RMS about the tail root relative to the carry pose. The over-damped chain
/// the article warns about moves the tail "barely"; a walk's swing is
/// several degrees. Below this, a good stretch score means nothing.
pub const MIN_SWING_DEG: f32 = 2.0;
/// Share of the tail's bind extent (distance from the pelvis) that counts as
/// its root end and as its tip end when measuring the swing.
pub const TAIL_END_SHARE: f32 = 0.1;
