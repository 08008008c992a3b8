//! One clip, one chain: warm up (or settle), then record a key per frame.

use glam::Quat;

use super::drive::anchor_worlds;
use super::looping::{check_loop, LoopCheck};
use super::params::{BakeParams, LoopMode};
use super::seam::{close_loop, measure, Seam};
use super::warmup::{cycle_anchor, settle, warm_loop, Warmup};
use crate::error::Result;
use crate::rig::{Clip, Rig};
use crate::spring::{TailChain, TailSpring, TailTrack};

/// A baked clip: the keys and how they were obtained.
#[derive(Clone, Debug, PartialEq)]
pub struct BakedClip {
    /// The clip's name.
    pub name: String,
    /// Key times, seconds (frame `f` at `f / rate`).
    pub times: Vec<f32>,
    /// Local rotations of the chain's bones at every key.
    pub track: TailTrack,
    /// Baked as a loop (warmed up over passes) or as a one-shot (settled).
    pub looping: bool,
    /// What the first/last frame comparison found (also for forced modes).
    pub loop_check: LoopCheck,
    /// How the spring was brought to the clip's start.
    pub warmup: Warmup,
    /// Loop closure of the keys (loops only).
    pub seam: Option<Seam>,
    /// A loop whose warm-up did not converge is closed by spreading the
    /// difference between its last and first keys over the cycle (see
    /// [`close_loop`]): the closure removed, degrees; 0 when the warm-up
    /// converged (the keys are the simulation's, untouched).
    pub seam_blend_deg: f32,
    /// The chain's bend capacity: its carry and stop were the parameters'
    /// times this (see `spring::bend_capacity`).
    pub bend_capacity: f32,
}

/// Bakes `clip` (sampled for all joints of `rig`, see
/// [`super::extend_clip`]) through a spring on `chain`.
pub fn bake_clip(
    rig: &Rig,
    clip: &Clip,
    chain: &TailChain,
    mode: LoopMode,
    params: &BakeParams,
) -> Result<BakedClip> {
    params.validate()?;
    params.check_names(rig)?;
    // The spring checks the chain against this rig before anything reads it.
    let spring = TailSpring::new(rig, chain.clone(), params.spring.clone())?;
    bake_with(rig, clip, spring, mode, params)
}

/// [`bake_clip`] with the chain's spring already built (at rest, never
/// stepped): a model's clips share one per chain, its rest geometry and
/// bend capacity computed once. `params` are validated by the caller.
pub(crate) fn bake_with(
    rig: &Rig,
    clip: &Clip,
    mut spring: TailSpring,
    mode: LoopMode,
    params: &BakeParams,
) -> Result<BakedClip> {
    let chain = spring.chain().clone();
    clip.check_joints(rig)?;
    clip.require_uniform("clip")?;
    let frames = clip.frame_count();
    let anchors = anchor_worlds(rig, clip, chain.anchor);
    let mut ignore = chain.bones.clone();
    ignore.extend(chain.end);
    let loop_check = check_loop(rig, clip, &anchors, &ignore, params, params.spring.up);
    let looping = frames >= 3
        && match mode {
            LoopMode::Auto => loop_check.loops,
            LoopMode::Loop => true,
            LoopMode::Once => false,
        };
    let dt = 1.0 / clip.rate;
    let k = chain.bones.len();
    let mut rotations: Vec<Quat> = Vec::with_capacity(frames * k);
    let warmup = if looping {
        let w = warm_loop(&mut spring, &anchors, loop_check.travel, dt, params)?;
        rotations.extend_from_slice(spring.output());
        for f in 1..frames {
            rotations.extend_from_slice(
                spring.step(cycle_anchor(&anchors, loop_check.travel, w.passes, f), dt)?,
            );
        }
        w
    } else {
        let w = settle(&mut spring, anchors[0], dt, params)?;
        rotations.extend_from_slice(spring.output());
        for a in &anchors[1..] {
            rotations.extend_from_slice(spring.step(*a, dt)?);
        }
        w
    };
    let seam_blend_deg =
        if looping && !warmup.converged { close_loop(&mut rotations, k, frames) } else { 0.0 };
    hemisphere_continuity(&mut rotations, k);
    let seam = looping.then(|| measure(&rotations, k, frames));
    Ok(BakedClip {
        name: clip.name.clone(),
        times: (0..frames).map(|f| clip.time(f)).collect(),
        track: TailTrack { joints: chain.bones.clone(), rate: clip.rate, rotations },
        looping,
        loop_check,
        warmup,
        seam,
        seam_blend_deg,
        bend_capacity: spring.bend_capacity(),
    })
}

/// Keeps each bone's consecutive keys in one hemisphere, so interpolation in
/// any player (component-wise or slerp) takes the short way.
fn hemisphere_continuity(rotations: &mut [Quat], k: usize) {
    for i in k..rotations.len() {
        if rotations[i].dot(rotations[i - k]) < 0.0 {
            rotations[i] = -rotations[i];
        }
    }
}
