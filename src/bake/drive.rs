//! What drives a tail spring: the world transform of its anchor (the
//! pelvis) at every clip frame, from forward kinematics over the anchor's
//! ancestors only, on private copies of the clip's locals (SPEC R: nothing
//! reads or writes a live pose).

use glam::{Mat4, Vec3};

use crate::rig::{Clip, Rig};
use crate::spring::TailSpring;

/// Root first: the anchor's ancestors and the anchor.
pub fn anchor_path(rig: &Rig, anchor: usize) -> Vec<usize> {
    let mut path = vec![anchor];
    while let Some(p) = rig.parents()[*path.last().unwrap()] {
        path.push(p);
    }
    path.reverse();
    path
}

/// The anchor's world matrix at every frame of `clip`.
pub fn anchor_worlds(rig: &Rig, clip: &Clip, anchor: usize) -> Vec<Mat4> {
    let path = anchor_path(rig, anchor);
    (0..clip.frame_count())
        .map(|f| {
            let locals = clip.frame(f);
            path.iter().fold(Mat4::IDENTITY, |m, &j| m * locals[j].matrix())
        })
        .collect()
}

/// The spring's particles and velocities in the anchor's frame: what must
/// repeat for a loop to close (world positions do not repeat under root
/// motion; positions relative to the pelvis do).
#[derive(Clone, Debug, PartialEq)]
pub struct TailState {
    /// Each link's tip, anchor frame.
    pub tips: Vec<Vec3>,
    /// Each tip's velocity, anchor frame.
    pub velocities: Vec<Vec3>,
}

/// The spring's state carried into the frame of the anchor at `anchor_world`.
pub fn snapshot(spring: &TailSpring, anchor_world: &Mat4) -> TailState {
    let inv = anchor_world.inverse();
    TailState {
        tips: spring.particles().iter().map(|p| inv.transform_point3(*p)).collect(),
        velocities: spring.velocities().iter().map(|v| inv.transform_vector3(*v)).collect(),
    }
}

/// How far apart two states are, degrees: per link the larger of the tip's
/// angular offset about its head (`|Δp| / ℓ`) and the swing the velocity
/// difference would cause (`|Δv| / (ℓ ω)`); the largest over links.
pub fn state_distance_deg(
    a: &TailState,
    b: &TailState,
    lengths: &[f32],
    frequencies_hz: &[f32],
) -> f32 {
    let mut worst = 0.0f32;
    for i in 0..a.tips.len() {
        let l = lengths[i].max(f32::MIN_POSITIVE);
        let omega = std::f32::consts::TAU * frequencies_hz[i];
        let pos = (a.tips[i] - b.tips[i]).length() / l;
        let vel = (a.velocities[i] - b.velocities[i]).length() / (l * omega);
        worst = worst.max(pos).max(vel);
    }
    worst.to_degrees()
}
