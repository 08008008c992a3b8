//! Many chains or characters stepped together. Chains that agree on link
//! count, substeps this call and optional parts are grouped, up to eight
//! to a group (two SIMD registers of four lanes, one chain per lane), in
//! the order they come: the grouping depends on the input only, never on
//! the thread count. Groups run in parallel on the rayon pool. A chain in a
//! lane runs the same operations as alone (see `lane`), so the result is
//! the same bit for bit as stepping the chains one by one, on any number of
//! threads.

use std::borrow::BorrowMut;

use glam::Quat;
use rayon::prelude::*;

use super::anchor::AnchorPose;
use super::body::BodyPose;
use super::clock::Substeps;
use super::group::{LaneCache, Slot, MOST_LANES};
use super::solver::Switches;
use super::tail_spring::{check_dt, TailSpring};
use crate::error::{CaudalError, Result};

/// Offsets of each chain's rotations in the flat output of [`step_many`].
pub fn output_offsets<S: std::borrow::Borrow<TailSpring>>(springs: &[S]) -> Vec<usize> {
    let mut out = Vec::with_capacity(springs.len() + 1);
    let mut o = 0;
    out.push(0);
    for s in springs {
        o += s.borrow().len();
        out.push(o);
    }
    out
}

/// Steps `springs[i]` to the body pose `bodies[i]` (a [`BodyPose`], or a
/// pelvis `Mat4`) by `dt`; chain `i`'s local rotations land in
/// `out[offsets[i]..offsets[i+1]]` (see [`output_offsets`]). Everything is
/// validated before any spring moves: on error none has. `springs` may
/// hold the springs or `&mut` references to them. Errors about the poses
/// name `parent_worlds`, the binding's name for them.
pub fn step_many<S: BorrowMut<TailSpring> + Send, B: Into<BodyPose> + Copy>(
    springs: &mut [S],
    bodies: &[B],
    dt: f32,
    out: &mut [Quat],
) -> Result<()> {
    check_dt(dt)?;
    if bodies.len() != springs.len() {
        return Err(CaudalError::shape(
            "parent_worlds",
            format!("{} parent transforms for {} springs", bodies.len(), springs.len()),
        ));
    }
    let total: usize = springs.iter().map(|s| s.borrow().len()).sum();
    if out.len() != total {
        return Err(CaudalError::shape(
            "out",
            format!("{} rotations for {total} tail bones", out.len()),
        ));
    }
    let mut anchors = Vec::with_capacity(springs.len());
    for (i, &b) in bodies.iter().enumerate() {
        anchors.push(b.into().anchor("parent_worlds").map_err(|e| match e {
            CaudalError::NonFinite { field, .. } => CaudalError::NonFinite { field, index: i },
            CaudalError::Parameter { field, message } => {
                CaudalError::Parameter { field, message: format!("{message} (spring {i})") }
            }
            other => other,
        })?);
    }

    // Group in input order by what each chain will do this call (cheap to
    // decide, nothing moves yet); then one parallel pass in which each
    // group plans, steps, finishes and writes its chains' output.
    let mut open: Vec<(GroupKey, usize)> = Vec::new();
    let mut groups: Vec<Members> = Vec::new();
    let mut rest = out;
    for (s, a) in springs.iter_mut().zip(anchors) {
        let spring = s.borrow_mut();
        let (o, tail) = rest.split_at_mut(spring.len());
        rest = tail;
        let key = spring.group_key(spring.substeps_for(&a, dt));
        let g = match open.iter().position(|(k, _)| *k == key) {
            Some(at) => open[at].1,
            None => {
                groups.push(Members::default());
                open.push((key, groups.len() - 1));
                groups.len() - 1
            }
        };
        groups[g].springs.push(spring);
        groups[g].outs.push(o);
        groups[g].anchors.push(a);
        if groups[g].springs.len() == MOST_LANES {
            open.retain(|(k, _)| *k != key);
        }
    }
    groups.into_par_iter().for_each(|mut g| {
        let plans: Vec<Substeps> =
            g.springs.iter_mut().zip(&g.anchors).filter_map(|(s, a)| s.plan(*a, dt)).collect();
        // A group's members agree on restarting (no plans) or not.
        if plans.len() == g.springs.len() && plans[0].count > 0 {
            if plans.len() == 1 {
                // One chain left over: its own one-lane group, the same
                // numbers either way, fewer operations.
                g.springs[0].advance_planned(&plans[0]);
            } else {
                step_in_lanes(&mut g.springs, &plans);
            }
        }
        for (s, p) in g.springs.iter_mut().zip(&plans) {
            s.finish(p);
        }
        for (s, o) in g.springs.iter().zip(g.outs.iter_mut()) {
            o.copy_from_slice(s.output());
        }
    });
    Ok(())
}

/// Link count, substeps this call (`None`: restarts at rest) and optional
/// parts: chains that agree share a group.
type GroupKey = (usize, Option<u64>, Switches);

/// One group's chains, their output slices and anchor poses.
#[derive(Default)]
struct Members<'a> {
    springs: Vec<&'a mut TailSpring>,
    outs: Vec<&'a mut [Quat]>,
    anchors: Vec<AnchorPose>,
}

/// Steps a group of two to eight springs in SIMD lanes, the lanes' constants
/// kept by the first spring while the group's members stay the same.
fn step_in_lanes(springs: &mut [&mut TailSpring], plans: &[Substeps]) {
    let mut members = [0; MOST_LANES];
    for (m, s) in members.iter_mut().zip(springs.iter()) {
        *m = s.id();
    }
    let cached = springs[0].lanes.take().filter(|c| c.members == members);
    let mut slots: Vec<Slot> = springs.iter_mut().zip(plans).map(|(s, p)| s.slot(p)).collect();
    let mut cache = cached.unwrap_or_else(|| Box::new(LaneCache::new(members, &slots)));
    cache.step(&mut slots);
    drop(slots);
    springs[0].lanes = Some(cache);
}
