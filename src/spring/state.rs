//! A chain's simulation state between calls (world-space tips, velocities,
//! bends, locals), and the state at rest under an anchor pose.

use glam::{Quat, Vec3};

use super::anchor::AnchorPose;
use super::rest::{uniform_scale, ChainRest};

/// Per-chain simulation state. Bends are the coupling snapshots.
#[derive(Clone, Debug)]
pub(crate) struct ChainState {
    pub particles: Vec<Vec3>,
    pub velocities: Vec<Vec3>,
    pub bends: Vec<Quat>,
    pub locals: Vec<Quat>,
    /// Which links touched the floor in the last substep.
    pub grounded: Vec<bool>,
}

impl ChainState {
    pub fn new(n: usize) -> Self {
        ChainState {
            particles: vec![Vec3::ZERO; n],
            velocities: vec![Vec3::ZERO; n],
            bends: vec![Quat::IDENTITY; n],
            locals: vec![Quat::IDENTITY; n],
            grounded: vec![false; n],
        }
    }
}

/// World units per metre for this anchor pose.
#[inline]
pub(crate) fn units_now(rest: &ChainRest, anchor: &AnchorPose) -> f32 {
    if rest.units_follow_scale {
        rest.units_per_metre * uniform_scale(anchor.scale) / rest.anchor_bind_scale
    } else {
        rest.units_per_metre
    }
}

/// Puts the chain at its (corrected) rest pose under `anchor`, at rest.
pub(crate) fn rest_state(rest: &ChainRest, anchor: &AnchorPose, state: &mut ChainState) {
    let sigma = uniform_scale(anchor.scale);
    let mut frame = anchor.rotation;
    let mut head = anchor.translation + anchor.rotation * (anchor.scale * rest.root_offset);
    for (i, link) in rest.links.iter().enumerate() {
        let tip = head + Vec3::from(frame * link.r) * (link.length * sigma);
        state.particles[i] = tip;
        state.velocities[i] = Vec3::ZERO;
        state.bends[i] = Quat::IDENTITY;
        state.locals[i] = link.rest_local;
        state.grounded[i] = false;
        frame = (frame * link.rest_local).normalize();
        head = tip;
    }
}
