//! Many chains or characters stepped together. Chains that agree on link
//! count, substeps this call and optional parts are grouped, up to eight
//! to a group (two SIMD registers of four lanes, one chain per lane), in
//! the order they come: the grouping depends on the input only, never on
//! the thread count. Groups run in parallel on the rayon pool. A chain in a
//! lane runs the same operations as alone (see `lane`), so the result is
//! the same bit for bit as stepping the chains one by one, on any number of
//! threads.

use std::borrow::BorrowMut;

use glam::{Mat4, Quat};
use rayon::prelude::*;

use super::group::{step_in_lanes, MOST_LANES};
use super::solver::Switches;
use super::tail_spring::{anchor_pose, check_dt, Substeps, TailSpring};
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

/// Steps `springs[i]` to `parent_worlds[i]` by `dt`; chain `i`'s local
/// rotations land in `out[offsets[i]..offsets[i+1]]` (see [`output_offsets`]).
/// Everything is validated before any spring moves: on error none has.
/// `springs` may hold the springs or `&mut` references to them.
pub fn step_many<S: BorrowMut<TailSpring> + Send>(springs: &mut [S], parent_worlds: &[Mat4], dt: f32, out: &mut [Quat]) -> Result<()> {
    check_dt(dt)?;
    if parent_worlds.len() != springs.len() {
        return Err(CaudalError::shape(
            "parent_worlds",
            format!("{} parent transforms for {} springs", parent_worlds.len(), springs.len()),
        ));
    }
    let total: usize = springs.iter().map(|s| s.borrow().len()).sum();
    if out.len() != total {
        return Err(CaudalError::shape("out", format!("{} rotations for {total} tail bones", out.len())));
    }
    let mut anchors = Vec::with_capacity(springs.len());
    for (i, m) in parent_worlds.iter().enumerate() {
        anchors.push(anchor_pose("parent_worlds", m).map_err(|e| match e {
            CaudalError::NonFinite { field, .. } => CaudalError::NonFinite { field, index: i },
            CaudalError::Parameter { field, message } => CaudalError::Parameter { field, message: format!("{message} (spring {i})") },
            other => other,
        })?);
    }

    // Plan every chain (restarts happen here), then group the ones with
    // substeps to run.
    let mut plans: Vec<Option<Substeps>> =
        springs.par_iter_mut().zip(anchors.par_iter()).map(|(s, a)| s.borrow_mut().plan(*a, dt)).collect();
    let mut slots: Vec<Option<&mut TailSpring>> = springs.iter_mut().map(|s| Some(s.borrow_mut())).collect();
    let mut open: Vec<((usize, u64, Switches), usize)> = Vec::new();
    let mut groups: Vec<(Vec<&mut TailSpring>, Vec<Substeps>)> = Vec::new();
    for (i, plan) in plans.iter_mut().enumerate() {
        let Some(plan) = plan.take() else { continue };
        let spring = slots[i].take().expect("each spring once");
        let key = spring.group_key(&plan);
        let g = match open.iter().position(|(k, _)| *k == key) {
            Some(at) => open[at].1,
            None => {
                groups.push((Vec::with_capacity(MOST_LANES), Vec::with_capacity(MOST_LANES)));
                open.push((key, groups.len() - 1));
                groups.len() - 1
            }
        };
        groups[g].0.push(spring);
        groups[g].1.push(plan);
        if groups[g].0.len() == MOST_LANES {
            open.retain(|(k, _)| *k != key);
        }
    }
    drop(slots);
    groups.into_par_iter().for_each(|(mut springs, plans)| {
        if plans[0].count > 0 {
            if springs.len() == 1 {
                // One chain left over: its own one-lane group, the same
                // numbers either way, fewer operations.
                springs[0].advance_planned(&plans[0]);
            } else {
                step_in_lanes(&mut springs, &plans);
            }
        }
        for (s, p) in springs.iter_mut().zip(&plans) {
            s.finish(p);
        }
    });

    let mut slices: Vec<&mut [Quat]> = Vec::with_capacity(springs.len());
    let mut rest = out;
    for s in springs.iter() {
        let (head, tail) = rest.split_at_mut(s.borrow().len());
        slices.push(head);
        rest = tail;
    }
    springs.par_iter_mut().zip(slices.into_par_iter()).for_each(|(s, o)| o.copy_from_slice(s.borrow().output()));
    Ok(())
}
