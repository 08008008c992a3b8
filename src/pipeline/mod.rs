//! The whole pipeline on a file, for measuring it: detect and grow the
//! tail, bake its spring motion into the file's clips, then measure the
//! repaired rig against the rigger's and the rigid baseline (SPEC M1, T7).
//! Every stage is imported here, so no stage needs to import another above
//! it to be measured.
//!
//! | file | job |
//! |---|---|
//! | `stretch` | original weights, rigid, chain, body and collar rows on a file's clip; the crouch check |

mod stretch;

pub use stretch::{
    compare_stretch, rigid_rig, tail_vertices_of, CrouchCheck, StretchComparison, StretchHarness,
    StretchRow, CROUCH_DEPTH_SHARE, CROUCH_SECONDS,
};
