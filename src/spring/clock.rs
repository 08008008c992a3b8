//! The spring's clock, in one place: fixed substeps from an accumulator,
//! where the anchor is at the end of each substep, and the teleport that
//! restarts a chain at rest when its parent jumps.

use super::anchor::{AnchorPath, AnchorPose};

/// A chain's clock between calls.
#[derive(Clone, Debug, Default)]
pub(crate) struct Clock {
    /// The anchor pose of the last call (`None`: the next call starts at rest).
    pub anchor: Option<AnchorPose>,
    /// Simulated time not yet covered by a substep, seconds (f64: long
    /// sessions must not drift).
    pub accumulator: f64,
    /// How many times a jump of the parent restarted the chain.
    pub teleports: u64,
}

/// How the clock steps: substep length, the most substeps a call runs, and
/// the jump that counts as a teleport (world units, under the new anchor).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pace {
    pub h: f64,
    pub max_substeps: u64,
    pub teleport: f32,
}

impl Clock {
    /// Forgets the last anchor and the accumulated time.
    pub fn reset(&mut self) {
        self.anchor = None;
        self.accumulator = 0.0;
    }

    /// Starts again at `a` with no accumulated time.
    pub fn restart(&mut self, a: AnchorPose) {
        self.accumulator = 0.0;
        self.anchor = Some(a);
    }

    /// Whether the parent jumped from the last anchor to `a` beyond `limit`.
    fn jumped(prev: &AnchorPose, a: &AnchorPose, limit: f32) -> bool {
        (a.translation - prev.translation).length() > limit
    }

    /// How many substeps a call to `a` after `dt` seconds runs, or `None`
    /// when it restarts the chain at rest (first call, teleport). Moves
    /// nothing.
    pub fn substeps_for(&self, a: &AnchorPose, dt: f32, pace: &Pace) -> Option<u64> {
        let prev = self.anchor?;
        if Self::jumped(&prev, a, pace.teleport) {
            return None;
        }
        let count = ((self.accumulator + dt as f64) / pace.h).floor() as u64;
        Some(count.min(pace.max_substeps))
    }

    /// The substeps a call to `a` after `dt` seconds runs (as many as
    /// [`Self::substeps_for`] says), or `None` when the caller must place
    /// the chain at rest under `a` (first call, teleport; a teleport is
    /// counted).
    pub fn plan(&mut self, a: AnchorPose, dt: f32, pace: &Pace) -> Option<Substeps> {
        let prev = self.anchor?;
        if Self::jumped(&prev, &a, pace.teleport) {
            self.teleports += 1;
            return None;
        }
        let h = pace.h;
        let before = self.accumulator;
        let total = before + dt as f64;
        let count = (total / h).floor() as u64;
        let max = pace.max_substeps;
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

    /// Ends a call after its substeps ran; returns how far the output lies
    /// from the substep before the last towards the last (0..=1).
    pub fn finish(&mut self, plan: &Substeps) -> f32 {
        self.accumulator = plan.accumulator;
        self.anchor = Some(plan.anchor);
        (self.accumulator / plan.h).clamp(0.0, 1.0) as f32
    }
}

/// The substeps of one call and where the anchor is at the end of each.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Substeps {
    /// The anchor from the previous call's pose to this one's.
    pub path: AnchorPath,
    /// Substeps to run.
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
