//! Play a clip through forward kinematics and record what the spring does
//! with the tail: the input of baking (SPEC B), and a headless check.

use glam::{Mat4, Quat};

use super::chain::TailChain;
use super::params::SpringParams;
use super::tail_spring::TailSpring;
use crate::error::Result;
use crate::rig::{Clip, Rig, Trs};

/// Tail rotations of every clip frame.
#[derive(Clone, Debug, PartialEq)]
pub struct TailTrack {
    /// The simulated bones (rig joint indices), root first.
    pub joints: Vec<usize>,
    /// Frames per second (the clip's rate).
    pub rate: f32,
    /// Frame-major: `rotations[f * joints.len() + b]` is the local rotation
    /// of `joints[b]` at frame `f`.
    pub rotations: Vec<Quat>,
}

impl TailTrack {
    /// Frames recorded (0 for no joints).
    pub fn frame_count(&self) -> usize {
        if self.joints.is_empty() {
            0
        } else {
            self.rotations.len() / self.joints.len()
        }
    }
    /// The bones' local rotations at frame `f`, root first.
    pub fn frame(&self, f: usize) -> &[Quat] {
        let k = self.joints.len();
        &self.rotations[f * k..(f + 1) * k]
    }
}

/// Runs the spring from rest at frame 0 over every frame of `clip` (one step
/// of `1/rate` per frame) and returns the tail bones' local rotations. Only
/// the anchor's ancestors are evaluated; the clip's own values for tail
/// bones (clips never animate them) are ignored.
pub fn simulate(
    rig: &Rig,
    clip: &Clip,
    chain: &TailChain,
    params: &SpringParams,
) -> Result<TailTrack> {
    clip.check_joints(rig)?;
    clip.require_uniform("clip")?;
    let mut spring = TailSpring::new(rig, chain.clone(), params.clone())?;
    let mut path = vec![chain.anchor];
    while let Some(p) = rig.parents()[*path.last().unwrap()] {
        path.push(p);
    }
    path.reverse();
    let dt = 1.0 / clip.rate;
    let k = chain.bones.len();
    let frames = clip.frame_count();
    let mut rotations = Vec::with_capacity(frames * k);
    for f in 0..frames {
        let locals = clip.frame(f);
        let world = path.iter().fold(Mat4::IDENTITY, |m, &j| m * locals[j].matrix());
        let out = spring.step(world, if f == 0 { 0.0 } else { dt })?;
        rotations.extend_from_slice(out);
    }
    Ok(TailTrack { joints: chain.bones.clone(), rate: clip.rate, rotations })
}

/// The rigid carry pose: every joint at its bind local, the chain's bones at
/// the spring's rest rotation (carry and rest arc applied, no motion).
pub fn carry_reference(rig: &Rig, chain: &TailChain, params: &SpringParams) -> Result<Vec<Trs>> {
    let spring = TailSpring::new(rig, chain.clone(), params.clone())?;
    let mut locals = rig.bind_locals();
    for (&j, q) in chain.bones.iter().zip(spring.rest_locals()) {
        locals[j].rotation = q;
    }
    Ok(locals)
}
