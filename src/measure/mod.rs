//! Measurement: edge stretch, weighted bone distance, body floor and pelvis lift (SPEC M, T10, G).

mod bone_distance;

pub use bone_distance::{weighted_bone_distance, weighted_bone_distances};
