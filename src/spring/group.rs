//! A group of chains stepped together by the lane solver: their constants
//! and state gathered into lanes (struct of arrays, one lane per chain),
//! the call's substeps run, the state scattered back. The group steps
//! borrowed [`Slot`]s, one per chain, and knows nothing of the spring that
//! owns them. One chain alone is a group of one on `f32`; `step_many` fills
//! up to eight lanes (two SSE registers).

use glam::Quat;

use super::anchor::PathLanes;
use super::clock::Substeps;
use super::lane::{F32x4, F32x8, Lane};
use super::lane_geometry::{Q, V3};
use super::rest::ChainRest;
use super::solver::{substep, LinkLanes, RuleLanes, StateLanes, StepRules, Switches};
use super::state::ChainState;

/// One chain's part in a group step, borrowed from its spring: constants,
/// state, and this call's substeps.
pub(crate) struct Slot<'a> {
    pub rest: &'a ChainRest,
    pub rules: &'a StepRules,
    pub state: &'a mut ChainState,
    /// Locals after the substep before the last (written by the step).
    pub previous: &'a mut [Quat],
    pub plan: &'a Substeps,
}

#[derive(Clone, Debug)]
pub(crate) struct Group<L: Lane> {
    links: Vec<LinkLanes<L>>,
    rules: Option<RuleLanes<L>>,
    state: StateLanes<L>,
    /// Locals of the substep before the last.
    previous: Vec<Q<L>>,
}

impl<L: Lane> Group<L> {
    pub fn new() -> Self {
        Group { links: Vec::new(), rules: None, state: StateLanes::new(), previous: Vec::new() }
    }

    /// Loads the constants of `k` chains of one link count: chain `i` is
    /// `chain(i)`.
    pub fn load_rest<'a>(
        &mut self,
        k: usize,
        chain: impl Fn(usize) -> (&'a ChainRest, &'a StepRules),
    ) {
        debug_assert!(k >= 1 && k <= L::WIDTH);
        let n = chain(0).0.links.len();
        self.links.clear();
        self.links.extend((0..n).map(|j| LinkLanes::gather(k, |i| &chain(i).0.links[j])));
        self.rules = Some(RuleLanes::gather(k, |i| chain(i).1));
    }

    /// A group for these chains with their constants loaded.
    pub fn of(slots: &[Slot]) -> Self {
        let mut g = Group::new();
        g.load_rest(slots.len(), |i| (slots[i].rest, slots[i].rules));
        g
    }

    /// Runs one call's substeps for `slots` (at most `L::WIDTH`, all with
    /// the same link count, substep count and switches, constants loaded in
    /// this order).
    pub fn step(&mut self, slots: &mut [Slot]) {
        let k = slots.len();
        debug_assert!(k >= 1 && k <= L::WIDTH);
        let n = slots[0].rest.links.len();
        let on = Switches::of(slots[0].rest, slots[0].rules);
        let rules = self.rules.expect("constants loaded");
        let s = &mut self.state;
        let chain = |i: usize| &*slots[i.min(k - 1)].state;
        s.particles.clear();
        s.particles.extend((0..n).map(|j| V3::from_fn(|i| chain(i).particles[j].into())));
        s.velocities.clear();
        s.velocities.extend((0..n).map(|j| V3::from_fn(|i| chain(i).velocities[j].into())));
        s.bends.clear();
        s.bends.extend((0..n).map(|j| Q::from_fn(|i| chain(i).bends[j])));
        s.locals.clear();
        s.locals.extend((0..n).map(|j| Q::from_fn(|i| chain(i).locals[j])));
        s.targets.resize(n, Q::identity());
        s.grounded.resize(n, L::no_lanes());
        self.previous.resize(n, Q::identity());

        let path = PathLanes::gather(k, |i| (slots[i].rest, slots[i].rules, &slots[i].plan.path));
        for step in 1..=slots[0].plan.count {
            let mut along = [0.0; MOST_LANES];
            let mut sin = [0.0; MOST_LANES];
            let mut cos = [1.0; MOST_LANES];
            for (i, slot) in slots.iter().enumerate() {
                along[i] = slot.plan.fraction(step);
                (sin[i], cos[i]) = slot.plan.path.half_turn(along[i]);
            }
            let lane = |a: &[f32; MOST_LANES]| L::from_fn(|i| a[i.min(k - 1)]);
            let frame = path.frame(lane(&along), lane(&sin), lane(&cos));
            // The substep overwrites every local, so the buffers can trade
            // places instead of copying.
            std::mem::swap(&mut self.previous, &mut s.locals);
            substep(&self.links, &rules, on, &frame, s);
        }

        for (i, slot) in slots.iter_mut().enumerate() {
            let c = &mut *slot.state;
            for j in 0..n {
                c.particles[j] = s.particles[j].lane(i);
                c.velocities[j] = s.velocities[j].lane(i);
                c.bends[j] = s.bends[j].lane(i);
                c.locals[j] = s.locals[j].lane(i);
                c.grounded[j] = L::mask_lane(s.grounded[j], i);
                slot.previous[j] = self.previous[j].lane(i);
            }
        }
    }
}

/// Most chains in one group.
pub(crate) const MOST_LANES: usize = F32x8::WIDTH;

/// A group's constants in lanes kept by its first spring from call to call:
/// gathering them costs about as much as a substep. Valid while the group
/// has the same members in the same lanes (a spring's constants never
/// change, and a clone gets a new id).
#[derive(Clone, Debug)]
pub(crate) struct LaneCache {
    /// Ids of the springs in each lane.
    pub members: [u64; MOST_LANES],
    group: Lanes,
}

/// Up to four chains in one register, up to eight in two.
#[derive(Clone, Debug)]
enum Lanes {
    Four(Group<F32x4>),
    Eight(Group<F32x8>),
}

impl LaneCache {
    /// The lanes of these two to eight chains, constants loaded.
    pub fn new(members: [u64; MOST_LANES], slots: &[Slot]) -> Self {
        let group = if slots.len() <= F32x4::WIDTH {
            Lanes::Four(Group::of(slots))
        } else {
            Lanes::Eight(Group::of(slots))
        };
        LaneCache { members, group }
    }

    /// Steps the chains the cache was made for, in the same lanes.
    pub fn step(&mut self, slots: &mut [Slot]) {
        match &mut self.group {
            Lanes::Four(g) => g.step(slots),
            Lanes::Eight(g) => g.step(slots),
        }
    }
}
