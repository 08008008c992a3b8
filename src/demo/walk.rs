//! A looping in-place walk for the demo creature: thighs and arms swing,
//! knees bend, the hips bob, sway and turn. The first and last frames are
//! equal, so the clip loops.

use glam::{Quat, Vec3};

use super::skeleton::{head, BONES};

/// Length of the demo walk clip, seconds (one stride cycle).
pub const WALK_DURATION: f32 = 1.0;
/// Keys per second of the demo walk clip.
pub const WALK_RATE: f32 = 30.0;
const THIGH_SWING_DEG: f32 = 28.0;
const KNEE_BEND_DEG: f32 = 35.0;
const ARM_SWING_DEG: f32 = 18.0;
const HIP_YAW_DEG: f32 = 6.0;
const HIP_BOB: f32 = 0.03;
const HIP_SWAY: f32 = 0.025;

/// (joint index, times, rotations) and the hips' translations.
pub struct Walk {
    pub times: Vec<f32>,
    pub rotations: Vec<(usize, Vec<Quat>)>,
    pub hips_translation: Vec<Vec3>,
}

fn idx(name: &str) -> usize {
    BONES.iter().position(|b| b.name == name).expect("demo bone exists")
}

pub fn walk() -> Walk {
    let frames = (WALK_DURATION * WALK_RATE).round() as usize + 1;
    let times: Vec<f32> =
        (0..frames).map(|f| f as f32 * WALK_DURATION / (frames - 1) as f32).collect();
    let phase = |t: f32| t / WALK_DURATION * std::f32::consts::TAU;
    let rx = |deg: f32| Quat::from_rotation_x(deg.to_radians());
    let mut rotations = Vec::new();
    for (name, sign) in [("mixamorig:LeftUpLeg", 1.0f32), ("mixamorig:RightUpLeg", -1.0)] {
        rotations.push((
            idx(name),
            times.iter().map(|&t| rx(-THIGH_SWING_DEG * sign * phase(t).sin())).collect(),
        ));
    }
    for (name, offset) in
        [("mixamorig:LeftLeg", 0.0f32), ("mixamorig:RightLeg", std::f32::consts::PI)]
    {
        // The knee bends while its leg swings forward.
        rotations.push((
            idx(name),
            times
                .iter()
                .map(|&t| rx(KNEE_BEND_DEG * 0.5 * (1.0 + (phase(t) + offset + 0.6).cos())))
                .collect(),
        ));
    }
    for (name, sign) in [("mixamorig:LeftArm", -1.0f32), ("mixamorig:RightArm", 1.0)] {
        rotations.push((
            idx(name),
            times.iter().map(|&t| rx(-ARM_SWING_DEG * sign * phase(t).sin())).collect(),
        ));
    }
    rotations.push((
        idx("mixamorig:Hips"),
        times
            .iter()
            .map(|&t| Quat::from_rotation_y(HIP_YAW_DEG.to_radians() * phase(t).sin()))
            .collect(),
    ));
    let hips_translation = times
        .iter()
        .map(|&t| {
            head(0) + Vec3::new(HIP_SWAY * phase(t).sin(), HIP_BOB * (2.0 * phase(t)).cos(), 0.0)
        })
        .collect();
    Walk { times, rotations, hips_translation }
}
