//! Many chains or characters stepped together on the rayon pool. Each chain
//! is independent and writes only its own slice, so the result is the same
//! bit for bit as stepping them one by one, on any number of threads.

use std::borrow::BorrowMut;

use glam::{Mat4, Quat};
use rayon::prelude::*;

use super::tail_spring::{anchor_pose, check_dt, TailSpring};
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
    let mut slices: Vec<&mut [Quat]> = Vec::with_capacity(springs.len());
    let mut rest = out;
    for s in springs.iter() {
        let (head, tail) = rest.split_at_mut(s.borrow().len());
        slices.push(head);
        rest = tail;
    }
    springs.par_iter_mut().zip(anchors.par_iter()).zip(slices.into_par_iter()).for_each(|((s, a), o)| {
        let s = s.borrow_mut();
        s.advance(*a, dt);
        o.copy_from_slice(s.output());
    });
    Ok(())
}
