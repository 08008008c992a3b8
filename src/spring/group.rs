//! A group of chains stepped together by the lane solver: their constants
//! and state gathered into lanes (struct of arrays, one lane per chain),
//! the call's substeps run, the state scattered back. One chain alone is a
//! group of one on `f32`; `step_many` fills four `F32x4` lanes.

use super::lane::Lane;
use super::lane_geometry::{Q, V3};
use super::rest::ChainRest;
use super::solver::{substep, FrameLanes, LinkLanes, RuleLanes, StateLanes, StepRules, Switches};
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
    pub fn load_rest<'a>(&mut self, k: usize, chain: impl Fn(usize) -> (&'a ChainRest, &'a StepRules)) {
        debug_assert!(k >= 1 && k <= L::WIDTH);
        let n = chain(0).0.links.len();
        self.links.clear();
        self.links.extend((0..n).map(|j| LinkLanes::gather(k, |i| &chain(i).0.links[j])));
        self.rules = Some(RuleLanes::gather(k, |i| chain(i).1));
    }

    /// Runs one call's substeps for `springs` (at most `L::WIDTH`, all with
    /// the same [`TailSpring::group_key`]); `plans[i]` is spring `i`'s.
    /// `load_rest`: gather the springs' constants first (the one-chain
    /// group keeps them from call to call).
    pub fn step(&mut self, springs: &mut [&mut TailSpring], plans: &[Substeps], load_rest: bool) {
        let k = springs.len();
        debug_assert!(k >= 1 && k <= L::WIDTH && plans.len() == k);
        if load_rest {
            self.load_rest(k, |i| (&springs[i].rest, &springs[i].rules));
        }
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

        for step in 1..=plans[0].count {
            let frame = FrameLanes::gather(k, |i| (&springs[i].rest, &springs[i].rules, plans[i].pose(step)));
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
