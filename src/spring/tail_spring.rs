//! `TailSpring`: one chain with its clock. The caller steps it at any frame
//! rate; inside, fixed substeps run from an accumulator with the anchor pose
//! interpolated between calls, and the output is interpolated between the
//! last two substeps (a constant lag of one substep, 1/120 s by default), so
//! the motion does not depend on the caller's frame rate. A pelvis jump
//! beyond the teleport distance restarts the chain at rest. The clock is
//! `clock`; the substeps run in a one-lane `group` over this chain's slot.

use glam::{Quat, Vec3};

use super::anchor::AnchorPose;
use super::body::BodyPose;
use super::chain::TailChain;
use super::clock::{Clock, Pace, Substeps};
use super::coupling::{fast_slerp, ElasticStop};
use super::group::{Group, LaneCache, Slot};
use super::params::SpringParams;
use super::rest::{self, ChainRest};
use super::solver::{StepRules, Switches};
use super::state::{rest_state, units_now, ChainState};
use crate::error::{CaudalError, Result};
use crate::rig::Rig;

/// One tail chain's spring: its rest pose, rules, state and clock; stepped
/// by [`TailSpring::step`] or, with others, by `step_many`.
#[derive(Clone, Debug)]
pub struct TailSpring {
    chain: TailChain,
    params: SpringParams,
    pub(super) rest: ChainRest,
    pub(super) rules: StepRules,
    pub(super) state: ChainState,
    /// Locals after the substep before the last (the output blends them).
    pub(super) previous_locals: Vec<Quat>,
    /// This chain alone in the solver's one-lane form, constants loaded.
    solo: Group<f32>,
    /// Lane constants of the last group this spring led in `step_many`.
    pub(super) lanes: Option<Box<LaneCache>>,
    id: SpringId,
    output: Vec<Quat>,
    clock: Clock,
    /// This chain's bend capacity (see `spring::bend_capacity`).
    capacity: f32,
}

pub(crate) fn check_dt(dt: f32) -> Result<()> {
    if dt.is_finite() && dt >= 0.0 {
        Ok(())
    } else {
        Err(CaudalError::param("dt", format!("time step must be finite and >= 0, got {dt}")))
    }
}

/// `ground`: metres along the character's up it stands on (`ChainRest::ground`).
fn rules_of(p: &SpringParams, ground: f32) -> StepRules {
    StepRules {
        dt: 1.0 / p.substep_rate,
        gravity: p.gravity,
        coupling_rate: p.coupling_rate,
        stop: ElasticStop::new(p.stop_deg.to_radians()),
        forward_plane: p.forward_plane,
        ground: p.ground,
        floor: ground + p.floor_height + p.clearance,
        ground_keep: (-p.contact_damping / p.substep_rate).exp(),
    }
}

impl TailSpring {
    /// A spring for `chain` of `rig` at rest, with its rest pose built from
    /// the binds (SPEC S6-S7) and its bend capacity from its skin.
    pub fn new(rig: &Rig, chain: TailChain, params: SpringParams) -> Result<TailSpring> {
        // The chain's fields are public: check them against *this* rig.
        let chain = TailChain::new(rig, chain.bones, chain.end)?;
        params.validate()?;
        let capacity = super::capacity::bend_capacity(rig, &chain, params.bend_capacity);
        // The capacity scales the stop and the carry's lift (not its target
        // elevation: see `rest::carry_lift`).
        let bent = SpringParams { stop_deg: params.stop_deg * capacity, ..params.clone() };
        let rest = rest::build(rig, &chain, &bent, capacity)?;
        let n = chain.bones.len();
        let rules = rules_of(&bent, rest.ground);
        let mut state = ChainState::new(n);
        for (l, link) in state.locals.iter_mut().zip(&rest.links) {
            *l = link.rest_local;
        }
        let mut solo = Group::new();
        solo.load_rest(1, |_| (&rest, &rules));
        Ok(TailSpring {
            solo,
            lanes: None,
            id: SpringId::fresh(),
            previous_locals: state.locals.clone(),
            output: state.locals.clone(),
            chain,
            params,
            rest,
            rules,
            state,
            clock: Clock::default(),
            capacity,
        })
    }

    /// Forgets all motion; the next step starts at rest under its anchor.
    pub fn reset(&mut self) {
        self.clock.reset();
        for (l, link) in self.state.locals.iter_mut().zip(&self.rest.links) {
            *l = link.rest_local;
        }
        self.previous_locals.copy_from_slice(&self.state.locals);
        self.output.copy_from_slice(&self.state.locals);
    }

    /// Starts at rest under this body pose now (a pelvis `Mat4` is one).
    pub fn reset_to(&mut self, body: impl Into<BodyPose>) -> Result<&[Quat]> {
        let a = body.into().anchor("parent_world")?;
        self.restart(a);
        Ok(&self.output)
    }

    fn restart(&mut self, a: AnchorPose) {
        rest_state(&self.rest, &a, &mut self.state);
        self.previous_locals.copy_from_slice(&self.state.locals);
        self.output.copy_from_slice(&self.state.locals);
        self.clock.restart(a);
    }

    /// Advances by `dt` seconds to the given body pose (a `Mat4` is the
    /// world transform of the chain's parent, the pelvis) and returns the
    /// local rotation of every tail bone (root first), relative to its
    /// parent, ready to replace the bones' local rotations. Translations and
    /// scales of tail bones are never changed. The first call after
    /// construction or `reset` only places the chain at rest under `body`.
    pub fn step(&mut self, body: impl Into<BodyPose>, dt: f32) -> Result<&[Quat]> {
        check_dt(dt)?;
        let a = body.into().anchor("parent_world")?;
        self.advance(a, dt);
        Ok(&self.output)
    }

    /// `step` writing into a caller buffer of `len()` rotations.
    pub fn step_into(
        &mut self,
        body: impl Into<BodyPose>,
        dt: f32,
        out: &mut [Quat],
    ) -> Result<()> {
        if out.len() != self.len() {
            return Err(CaudalError::shape(
                "out",
                format!("{} rotations for a {}-bone chain", out.len(), self.len()),
            ));
        }
        let r = self.step(body, dt)?;
        out.copy_from_slice(r);
        Ok(())
    }

    /// Validated input; cannot fail.
    pub(crate) fn advance(&mut self, a: AnchorPose, dt: f32) {
        if let Some(plan) = self.plan(a, dt) {
            self.advance_planned(&plan);
            self.finish(&plan);
        }
    }

    /// This chain's part in a group step of `plan`.
    pub(super) fn slot<'a>(&'a mut self, plan: &'a Substeps) -> Slot<'a> {
        Slot {
            rest: &self.rest,
            rules: &self.rules,
            state: &mut self.state,
            previous: &mut self.previous_locals,
            plan,
        }
    }

    /// Runs the planned substeps of this chain alone.
    pub(crate) fn advance_planned(&mut self, plan: &Substeps) {
        if plan.count > 0 {
            let mut solo = std::mem::replace(&mut self.solo, Group::new());
            solo.step(&mut [self.slot(plan)]);
            self.solo = solo;
        }
    }

    /// The clock's pace under anchor `a`: the teleport distance is in
    /// metres, scaled to world units there.
    fn pace(&self, a: &AnchorPose) -> Pace {
        Pace {
            h: self.rules.dt as f64,
            max_substeps: self.params.max_substeps as u64,
            teleport: self.params.teleport_distance * units_now(&self.rest, a),
        }
    }

    /// How many substeps a call to `a` after `dt` seconds runs, or `None`
    /// when it restarts the chain at rest (first call, teleport). Moves
    /// nothing.
    pub(crate) fn substeps_for(&self, a: &AnchorPose, dt: f32) -> Option<u64> {
        self.clock.substeps_for(a, dt, &self.pace(a))
    }

    /// What this call does: `None` when the chain restarted at rest (first
    /// call, teleport), which finishes the call; else the substeps to run
    /// (as many as [`Self::substeps_for`] says).
    pub(crate) fn plan(&mut self, a: AnchorPose, dt: f32) -> Option<Substeps> {
        let pace = self.pace(&a);
        let plan = self.clock.plan(a, dt, &pace);
        if plan.is_none() {
            self.restart(a);
        }
        plan
    }

    /// Ends a call after its substeps ran: the clock and the output.
    pub(crate) fn finish(&mut self, plan: &Substeps) {
        let alpha = self.clock.finish(plan);
        for ((o, p), c) in self.output.iter_mut().zip(&self.previous_locals).zip(&self.state.locals)
        {
            *o = fast_slerp(*p, *c, alpha);
        }
    }

    /// Which chains can share the lanes of one group: the same link count,
    /// substeps this call (see [`Self::substeps_for`]) and optional parts.
    pub(crate) fn group_key(&self, substeps: Option<u64>) -> (usize, Option<u64>, Switches) {
        (self.len(), substeps, Switches::of(&self.rest, &self.rules))
    }

    /// Unique per spring instance (clones included).
    pub(super) fn id(&self) -> u64 {
        self.id.0
    }

    /// Number of simulated bones.
    pub fn len(&self) -> usize {
        self.chain.bones.len()
    }
    /// Whether the chain has no bones (never, for a constructed spring).
    pub fn is_empty(&self) -> bool {
        self.chain.bones.is_empty()
    }
    /// The simulated chain.
    pub fn chain(&self) -> &TailChain {
        &self.chain
    }
    /// The parameters as given (before the bend capacity scales the stop).
    pub fn params(&self) -> &SpringParams {
        &self.params
    }
    /// The last output (local rotations, root first).
    pub fn output(&self) -> &[Quat] {
        &self.output
    }
    /// Local rotations at rest (carry and rest arc applied, no motion).
    pub fn rest_locals(&self) -> Vec<Quat> {
        self.rest.links.iter().map(|l| l.rest_local).collect()
    }
    /// World tip of every link at the last substep.
    pub fn particles(&self) -> &[Vec3] {
        &self.state.particles
    }
    /// World velocity of every tip at the last substep.
    pub fn velocities(&self) -> &[Vec3] {
        &self.state.velocities
    }
    /// Each joint's bend relative to its rest direction, in the body (hips)
    /// frame, at the last substep.
    pub fn bends(&self) -> &[Quat] {
        &self.state.bends
    }
    /// Which links touched the floor in the last substep.
    pub fn grounded(&self) -> &[bool] {
        &self.state.grounded
    }
    /// Frequency of every link, Hz: the root-to-tip profile with the link
    /// length scaling of `segment_reference` applied.
    pub fn frequencies(&self) -> Vec<f32> {
        self.rest.links.iter().map(|l| l.frequency).collect()
    }
    /// Link lengths in the parent's local units (world = × parent scale).
    pub fn lengths(&self) -> Vec<f32> {
        self.rest.links.iter().map(|l| l.length).collect()
    }
    /// World head of the root bone under the last anchor pose.
    pub fn root_head(&self) -> Option<Vec3> {
        self.clock.anchor.map(|a| a.translation + a.rotation * (a.scale * self.rest.root_offset))
    }
    /// World units per metre used for the physical parameters (under the
    /// last anchor pose, or the bind pose before the first step).
    pub fn units_per_metre(&self) -> f32 {
        match self.clock.anchor {
            Some(a) => units_now(&self.rest, &a),
            None => self.rest.units_per_metre,
        }
    }
    /// The ground the floor stands on (`floor_height` counts from it),
    /// world units of the bind pose along the character's up
    /// (`spring::body_up`, world Y for an upright bind): 0, or the bind
    /// pose's lowest body skin point when below it (`spring::bind_ground_along`).
    pub fn ground(&self) -> f32 {
        self.rest.ground * self.rest.units_per_metre
    }
    /// How many times a jump of the parent restarted the chain.
    pub fn teleports(&self) -> u64 {
        self.clock.teleports
    }
    /// This chain's bend capacity κ: its carry and stop are the parameters'
    /// times this (1 for a tail slender enough for the article's angles).
    pub fn bend_capacity(&self) -> f32 {
        self.capacity
    }
}

/// Identity of one spring instance, for [`LaneCache`]: a clone is a new
/// instance and gets a new id.
#[derive(Debug)]
struct SpringId(u64);

impl SpringId {
    fn fresh() -> Self {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        SpringId(NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
    }
}

impl Clone for SpringId {
    fn clone(&self) -> Self {
        SpringId::fresh()
    }
}
