//! A group of chains stepped together by the lane solver: their constants
//! and state gathered into lanes (struct of arrays, one lane per chain),
//! the call's substeps run, the state scattered back. One chain alone is a
//! group of one on `f32`; `step_many` fills up to eight lanes (two SSE
//! registers).

use super::anchor::PathLanes;
use super::lane::{F32x4, F32x8, Lane};
use super::lane_geometry::{Q, V3};
use super::rest::ChainRest;
use super::solver::{substep, LinkLanes, RuleLanes, StateLanes, StepRules, Switches};
use super::tail_spring::{Substeps, TailSpring};

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

    /// A group for these springs with their constants loaded.
    pub fn of(springs: &[&mut TailSpring]) -> Self {
        let mut g = Group::new();
        g.load_rest(springs.len(), |i| (&springs[i].rest, &springs[i].rules));
        g
    }

    /// Runs one call's substeps for `springs` (at most `L::WIDTH`, all with
    /// the same [`TailSpring::group_key`], constants loaded in this order);
    /// `plans[i]` is spring `i`'s.
    pub fn step(&mut self, springs: &mut [&mut TailSpring], plans: &[Substeps]) {
        let k = springs.len();
        debug_assert!(k >= 1 && k <= L::WIDTH && plans.len() == k);
        let n = springs[0].len();
        let on = Switches::of(&springs[0].rest, &springs[0].rules);
        let rules = self.rules.expect("constants loaded");
        let s = &mut self.state;
        let chain = |i: usize| &springs[i.min(k - 1)].state;
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

        let path = PathLanes::gather(k, |i| (&springs[i].rest, &springs[i].rules, &plans[i].path));
        for step in 1..=plans[0].count {
            let mut along = [0.0; MOST_LANES];
            let mut sin = [0.0; MOST_LANES];
            let mut cos = [1.0; MOST_LANES];
            for i in 0..k {
                along[i] = plans[i].fraction(step);
                (sin[i], cos[i]) = plans[i].path.half_turn(along[i]);
            }
            let lane = |a: &[f32; MOST_LANES]| L::from_fn(|i| a[i.min(k - 1)]);
            let frame = path.frame(lane(&along), lane(&sin), lane(&cos));
            // The substep overwrites every local, so the buffers can trade
            // places instead of copying.
            std::mem::swap(&mut self.previous, &mut s.locals);
            substep(&self.links, &rules, on, &frame, s);
        }

        for (i, spring) in springs.iter_mut().enumerate() {
            let c = &mut spring.state;
            for j in 0..n {
                c.particles[j] = s.particles[j].lane(i);
                c.velocities[j] = s.velocities[j].lane(i);
                c.bends[j] = s.bends[j].lane(i);
                c.locals[j] = s.locals[j].lane(i);
                c.grounded[j] = L::mask_lane(s.grounded[j], i);
                spring.previous_locals[j] = self.previous[j].lane(i);
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
    members: [u64; MOST_LANES],
    group: Lanes,
}

/// Up to four chains in one register, up to eight in two.
#[derive(Clone, Debug)]
enum Lanes {
    Four(Group<F32x4>),
    Eight(Group<F32x8>),
}

/// Steps a group of two to eight springs in SIMD lanes.
pub(crate) fn step_in_lanes(springs: &mut [&mut TailSpring], plans: &[Substeps]) {
    let mut members = [0; MOST_LANES];
    for (m, s) in members.iter_mut().zip(springs.iter()) {
        *m = s.id();
    }
    let mut cache = match springs[0].lanes.take() {
        Some(c) if c.members == members => c,
        _ => {
            let group = if springs.len() <= F32x4::WIDTH {
                Lanes::Four(Group::of(springs))
            } else {
                Lanes::Eight(Group::of(springs))
            };
            Box::new(LaneCache { members, group })
        }
    };
    match &mut cache.group {
        Lanes::Four(g) => g.step(springs, plans),
        Lanes::Eight(g) => g.step(springs, plans),
    }
    springs[0].lanes = Some(cache);
}
