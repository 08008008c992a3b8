//! Measurement: edge stretch, weighted bone distance, body floor and pelvis lift (SPEC M, T10, G).

mod bone_distance;
pub mod ground;
pub mod stretch;

pub use bone_distance::{weighted_bone_distance, weighted_bone_distances, BoneDistance};
pub use ground::{body_floor, pelvis_lift, placement_offset, GroundParams, Grounding};
pub use stretch::{
    compare_stretch, stretch_report, StretchComparison, StretchHarness, StretchReport, StretchRow,
    StretchStats, TailMotion,
};
