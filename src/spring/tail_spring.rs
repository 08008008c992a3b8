//! `TailSpring`: one chain with its clock. The caller steps it at any frame
//! rate; inside, fixed substeps run from an accumulator with the anchor pose
//! interpolated between calls, and the output is interpolated between the
//! last two substeps (a constant lag of one substep, 1/120 s by default), so
//! the motion does not depend on the caller's frame rate. A pelvis jump
//! beyond the teleport distance restarts the chain at rest.

use glam::{Mat4, Quat, Vec3};

use super::anchor::{AnchorPath, AnchorPose};
use super::chain::TailChain;
use super::coupling::{fast_slerp, ElasticStop};
use super::group::{Group, LaneCache};
use super::params::SpringParams;
use super::rest::{self, ChainRest};
use super::solver::{StepRules, Switches};
use super::state::{rest_state, units_now, ChainState};
use crate::error::{CaudalError, Result};
use crate::rig::Rig;

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
    anchor: Option<AnchorPose>,
    /// Simulated time not yet covered by a substep, seconds (f64: long
    /// sessions must not drift).
    accumulator: f64,
    teleports: u64,
    /// This chain's bend capacity (see `spring::bend_capacity`).
    capacity: f32,
}

/// Checks and decomposes a parent world matrix.
pub(crate) fn anchor_pose(field: &str, m: &Mat4) -> Result<AnchorPose> {
    if !m.is_finite() {
        return Err(CaudalError::NonFinite { field: field.into(), index: 0 });
    }
    let det = m.determinant();
    if det.is_nan() || det.abs() <= 1e-12 {
        return Err(CaudalError::param(field, "parent world matrix is singular"));
    }
    let (scale, rotation, translation) = m.to_scale_rotation_translation();
    Ok(AnchorPose { translation, rotation: rotation.normalize(), scale })
}

pub(crate) fn check_dt(dt: f32) -> Result<()> {
    if dt.is_finite() && dt >= 0.0 {
        Ok(())
    } else {
        Err(CaudalError::param("dt", format!("time step must be finite and >= 0, got {dt}")))
    }
}

fn rules_of(p: &SpringParams) -> StepRules {
    StepRules {
        dt: 1.0 / p.substep_rate,
        gravity: p.gravity,
        coupling_rate: p.coupling_rate,
        stop: ElasticStop::new(p.stop_deg.to_radians()),
        forward_plane: p.forward_plane,
        ground: p.ground,
        floor: p.floor_height + p.clearance,
        ground_keep: (-p.contact_damping / p.substep_rate).exp(),
    }
}

impl TailSpring {
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
        let rules = rules_of(&bent);
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
            anchor: None,
            accumulator: 0.0,
            teleports: 0,
            capacity,
        })
    }

    /// Forgets all motion; the next step starts at rest under its anchor.
    pub fn reset(&mut self) {
        self.anchor = None;
        self.accumulator = 0.0;
        for (l, link) in self.state.locals.iter_mut().zip(&self.rest.links) {
            *l = link.rest_local;
        }
        self.previous_locals.copy_from_slice(&self.state.locals);
        self.output.copy_from_slice(&self.state.locals);
    }

    /// Starts at rest under this parent pose now.
    pub fn reset_to(&mut self, parent_world: Mat4) -> Result<&[Quat]> {
        let a = anchor_pose("parent_world", &parent_world)?;
        self.restart(a);
        Ok(&self.output)
    }

    fn restart(&mut self, a: AnchorPose) {
        rest_state(&self.rest, &a, &mut self.state);
        self.previous_locals.copy_from_slice(&self.state.locals);
        self.output.copy_from_slice(&self.state.locals);
        self.accumulator = 0.0;
        self.anchor = Some(a);
    }

    /// Advances by `dt` seconds to the given world transform of the chain's
    /// parent (the pelvis) and returns the local rotation of every tail bone
    /// (root first), relative to its parent, ready to replace the bones'
    /// local rotations. Translations and scales of tail bones are never
    /// changed. The first call after construction or `reset` only places
    /// the chain at rest under `parent_world`.
    pub fn step(&mut self, parent_world: Mat4, dt: f32) -> Result<&[Quat]> {
        check_dt(dt)?;
        let a = anchor_pose("parent_world", &parent_world)?;
        self.advance(a, dt);
        Ok(&self.output)
    }

    /// `step` writing into a caller buffer of `len()` rotations.
    pub fn step_into(&mut self, parent_world: Mat4, dt: f32, out: &mut [Quat]) -> Result<()> {
        if out.len() != self.len() {
            return Err(CaudalError::shape(
                "out",
                format!("{} rotations for a {}-bone chain", out.len(), self.len()),
            ));
        }
        let r = self.step(parent_world, dt)?;
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

    /// Runs the planned substeps of this chain alone.
    pub(crate) fn advance_planned(&mut self, plan: &Substeps) {
        if plan.count > 0 {
            let mut solo = std::mem::replace(&mut self.solo, Group::new());
            solo.step(&mut [self], std::slice::from_ref(plan));
            self.solo = solo;
        }
    }

    /// How many substeps a call to `a` after `dt` seconds runs, or `None`
    /// when it restarts the chain at rest (first call, teleport). Moves
    /// nothing.
    pub(crate) fn substeps_for(&self, a: &AnchorPose, dt: f32) -> Option<u64> {
        let prev = self.anchor?;
        let jump = (a.translation - prev.translation).length();
        let limit = self.params.teleport_distance * units_now(&self.rest, a);
        if jump > limit {
            return None;
        }
        let count = ((self.accumulator + dt as f64) / self.rules.dt as f64).floor() as u64;
        Some(count.min(self.params.max_substeps as u64))
    }

    /// What this call does: `None` when the chain restarted at rest (first
    /// call, teleport), which finishes the call; else the substeps to run
    /// (as many as [`Self::substeps_for`] says).
    pub(crate) fn plan(&mut self, a: AnchorPose, dt: f32) -> Option<Substeps> {
        let Some(prev) = self.anchor else {
            self.restart(a);
            return None;
        };
        let jump = (a.translation - prev.translation).length();
        let limit = self.params.teleport_distance * units_now(&self.rest, &a);
        if jump > limit {
            self.teleports += 1;
            self.restart(a);
            return None;
        }
        let h = self.rules.dt as f64;
        let before = self.accumulator;
        let total = before + dt as f64;
        let count = (total / h).floor() as u64;
        let max = self.params.max_substeps as u64;
        let path = AnchorPath::new(&prev, &a);
        Some(if count <= max {
            Substeps {
                path,
                count,
                capped: false,
                h,
                before,
                dt,
                accumulator: total - count as f64 * h,
                anchor: a,
            }
        } else {
            Substeps { path, count: max, capped: true, h, before, dt, accumulator: 0.0, anchor: a }
        })
    }

    /// Ends a call after its substeps ran: the clock and the output.
    pub(crate) fn finish(&mut self, plan: &Substeps) {
        self.accumulator = plan.accumulator;
        self.anchor = Some(plan.anchor);
        let alpha = (self.accumulator / plan.h).clamp(0.0, 1.0) as f32;
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
    pub fn is_empty(&self) -> bool {
        self.chain.bones.is_empty()
    }
    pub fn chain(&self) -> &TailChain {
        &self.chain
    }
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
        self.anchor.map(|a| a.translation + a.rotation * (a.scale * self.rest.root_offset))
    }
    /// World units per metre used for the physical parameters (under the
    /// last anchor pose, or the bind pose before the first step).
    pub fn units_per_metre(&self) -> f32 {
        match self.anchor {
            Some(a) => units_now(&self.rest, &a),
            None => self.rest.units_per_metre,
        }
    }
    /// How many times a jump of the parent restarted the chain.
    pub fn teleports(&self) -> u64 {
        self.teleports
    }
    /// This chain's bend capacity κ: its carry and stop are the parameters'
    /// times this (1 for a tail slender enough for the article's angles).
    pub fn bend_capacity(&self) -> f32 {
        self.capacity
    }
}

/// The substeps of one call and where the anchor is at the end of each.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Substeps {
    pub path: AnchorPath,
    pub count: u64,
    /// A hitch longer than `max_substeps`: the substeps are spread evenly.
    capped: bool,
    /// Substep length, seconds.
    h: f64,
    /// Accumulated time before the call.
    before: f64,
    dt: f32,
    accumulator: f64,
    anchor: AnchorPose,
}

impl Substeps {
    /// How far along the call substep `k` (1-based) ends: the fraction of
    /// the way from the previous call's anchor to this one.
    pub fn fraction(&self, k: u64) -> f32 {
        if self.capped {
            return k as f32 / self.count as f32;
        }
        // The last substep ran `before` seconds behind the previous call;
        // substep k ends k·h after it.
        let lambda = if self.dt > 0.0 {
            ((k as f64 * self.h - self.before) / self.dt as f64).clamp(0.0, 1.0)
        } else {
            1.0
        };
        lambda as f32
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
