//! Warm-up before recording (SPEC B). A cycle baked from a cold start does
//! not close: the tail jumps at the loop point. A looping clip is therefore
//! run silently, pass after pass, until the tail state at the loop start
//! repeats; a one-shot clip holds its first frame's pose until the tail has
//! settled. The tip is the softest link and settles slowest, so one pass is
//! not always enough: the number of passes is measured, not assumed.

use glam::{Mat4, Vec3};

use super::drive::{snapshot, state_distance_deg, TailState};
use super::params::BakeParams;
use crate::error::Result;
use crate::spring::TailSpring;

/// How the warm-up went.
#[derive(Clone, Debug, PartialEq)]
pub struct Warmup {
    /// Passes over the clip (loops) or hold chunks (one-shots) run.
    pub passes: u32,
    /// Simulated seconds before recording started.
    pub seconds: f32,
    /// State change over the last pass, degrees (see
    /// [`super::LOOP_STATE_TOLERANCE_DEG`]).
    pub residual_deg: f32,
    /// Whether the state repeated within the tolerance.
    pub converged: bool,
}

/// The anchor of cycle `c`: frame `f`'s pose carried forward by `c` cycles
/// of root motion.
pub fn cycle_anchor(anchors: &[Mat4], travel: Vec3, cycle: u32, f: usize) -> Mat4 {
    Mat4::from_translation(travel * cycle as f32) * anchors[f]
}

fn distance(spring: &TailSpring, a: &TailState, b: &TailState) -> f32 {
    state_distance_deg(a, b, &spring.lengths(), &spring.frequencies())
}

/// Runs whole passes over frames `1..F` (frame `F-1` is frame 0 of the next
/// pass) until the state at the loop start repeats. Leaves the spring at the
/// loop start of cycle `Warmup::passes`.
pub fn warm_loop(
    spring: &mut TailSpring,
    anchors: &[Mat4],
    travel: Vec3,
    dt: f32,
    params: &BakeParams,
) -> Result<Warmup> {
    spring.step(anchors[0], 0.0)?;
    let mut before = snapshot(spring, &anchors[0]);
    let mut passes = 0u32;
    let mut residual = f32::INFINITY;
    while passes < params.max_warmup_passes {
        for f in 1..anchors.len() {
            spring.step(cycle_anchor(anchors, travel, passes, f), dt)?;
        }
        passes += 1;
        let now = snapshot(spring, &cycle_anchor(anchors, travel, passes, 0));
        residual = distance(spring, &now, &before);
        before = now;
        if residual <= params.state_tolerance_deg {
            break;
        }
    }
    let cycle = (anchors.len() - 1) as f32 * dt;
    Ok(Warmup {
        passes,
        seconds: passes as f32 * cycle,
        residual_deg: residual,
        converged: residual <= params.state_tolerance_deg,
    })
}

/// Holds the first frame's pose, one chunk at a time, until the state stops
/// changing or `max_settle` seconds have passed.
pub fn settle(
    spring: &mut TailSpring,
    first: Mat4,
    dt: f32,
    params: &BakeParams,
) -> Result<Warmup> {
    spring.step(first, 0.0)?;
    let steps_per_chunk = ((params.settle_chunk / dt).round() as u32).max(1);
    let chunk = steps_per_chunk as f32 * dt;
    let max_chunks = (params.max_settle / chunk).floor() as u32;
    let mut before = snapshot(spring, &first);
    let mut passes = 0u32;
    let mut residual = f32::INFINITY;
    while passes < max_chunks {
        for _ in 0..steps_per_chunk {
            spring.step(first, dt)?;
        }
        passes += 1;
        let now = snapshot(spring, &first);
        residual = distance(spring, &now, &before);
        before = now;
        if residual <= params.state_tolerance_deg {
            break;
        }
    }
    Ok(Warmup {
        passes,
        seconds: passes as f32 * chunk,
        residual_deg: residual,
        converged: residual <= params.state_tolerance_deg,
    })
}
