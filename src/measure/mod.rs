//! Measurement: edge stretch, weighted bone distance, body floor and pelvis lift (SPEC M, T10, G).

pub mod ground;
pub mod stretch;

// Weighted bone distance (SPEC M2) is computed in geometry, where detection
// and chain growth (below measure) score parts with it too.
pub use crate::geometry::{weighted_bone_distance, weighted_bone_distances, BoneDistance};
pub use ground::{body_floor, pelvis_lift, placement_offset, GroundParams, Grounding};
pub use stretch::{stretch_report, StretchReport, StretchStats, TailMotion};
