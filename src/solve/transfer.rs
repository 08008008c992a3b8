//! `transfer_clip`: carry an artist clip from its own rig onto any rig by
//! solving the surface (SPEC X): tie the target mesh to the source surface
//! once ([`Correspondence`]), carry the source rig's motion onto the target
//! mesh at every key of the clip, solve the target rig's bone transforms,
//! and measure the result at the keys and halfway between them (where the
//! source plays its own motion and the solved clip its interpolated keys).
//! Several clips solve in parallel, one clip a task (each clip's frames
//! stay sequential: they warm-start each other), so results do not depend
//! on the thread count.

use glam::DVec3;
use rayon::prelude::*;

use super::assemble::Keys;
use super::correspondence::Correspondence;
use super::frames::{halfway, skin_points, skinning64, worlds64, FromF32, Positions};
use super::params::{ReportLevel, DEFAULT_STRETCH_SLACK};
use super::quality::{combine, Tally};
use super::surface::{bone_changes, solve_measured, solve_surface, Solved};
use super::SolveParams;
use crate::error::{CaudalError, Result};
use crate::rig::{Clip, Rig, Trs};

/// A clip carried onto a target rig.
#[derive(Clone, Debug)]
pub struct Transfer {
    /// The target rig's solved clip and its report.
    pub solved: Solved,
    /// The tie of the target's mesh to the source surface, which the clip is
    /// solved through.
    pub correspondence: Correspondence,
}

fn check_clip(source: &Rig, clip: &Clip) -> Result<()> {
    clip.check_joints(source)
}

/// The source's motion in one pose, carried onto the target mesh.
fn carry_pose(source: &Rig, locals: &[Trs], corr: &Correspondence, out: &mut Vec<DVec3>) {
    corr.carry_into(&skinning64(source, &worlds64(source, locals)), out);
}

/// Target surfaces of `clip` played on `source`, carried onto the target
/// of `corr`, at every frame of the clip (frame-major).
pub fn carried_surfaces(source: &Rig, clip: &Clip, corr: &Correspondence) -> Result<Vec<DVec3>> {
    check_clip(source, clip)?;
    let mut out = Vec::with_capacity(clip.frame_count() * corr.vertex_count());
    for f in 0..clip.frame_count() {
        carry_pose(source, clip.frame(f), corr, &mut out);
    }
    Ok(out)
}

/// The tie of `target`'s mesh to `source`'s surface under `params`
/// (alignment, refusal threshold).
pub fn correspond(source: &Rig, target: &Rig, params: &SolveParams) -> Result<Correspondence> {
    params.validate()?;
    Correspondence::new(source, target, params.alignment, params.max_median_gap)
}

/// Solve `target`'s version of `source`'s `clip`. The solved clip keeps the
/// clip's name and its frames' times (keyed times stay keyed).
pub fn transfer_clip(
    source: &Rig,
    clip: &Clip,
    target: &Rig,
    params: &SolveParams,
) -> Result<Transfer> {
    check_clip(source, clip)?;
    let correspondence = correspond(source, target, params)?;
    let solved = transfer_with(source, clip, target, &correspondence, params)?;
    Ok(Transfer { solved, correspondence })
}

/// Several clips at once, tied once, solved in parallel over clips.
pub fn transfer_clips(
    source: &Rig,
    clips: &[Clip],
    target: &Rig,
    params: &SolveParams,
) -> Result<Vec<Transfer>> {
    for c in clips {
        check_clip(source, c)?;
    }
    let correspondence = correspond(source, target, params)?;
    clips
        .par_iter()
        .map(|clip| {
            Ok(Transfer {
                solved: transfer_with(source, clip, target, &correspondence, params)?,
                correspondence: correspondence.clone(),
            })
        })
        .collect()
}

/// One clip through an existing tie.
pub fn transfer_with(
    source: &Rig,
    clip: &Clip,
    target: &Rig,
    corr: &Correspondence,
    params: &SolveParams,
) -> Result<Solved> {
    check_clip(source, clip)?;
    if corr.vertex_count() != target.vertex_count() {
        return Err(CaudalError::shape(
            "correspondence",
            format!(
                "ties {} vertices, the target has {}",
                corr.vertex_count(),
                target.vertex_count()
            ),
        ));
    }
    let surfaces = carried_surfaces(source, clip, corr)?;
    let keys = match clip.key_times() {
        Some(t) => Keys::Times(t),
        None => Keys::Rate(clip.rate),
    };
    let (mut solved, tally) =
        solve_measured(target, &FromF32(&surfaces), &clip.name, keys, params)?;
    let own = bone_changes(source, clip).0.into_iter().fold(0.0, f64::max);
    solved.report.source_bone_length_change = Some(own);
    solved.report.stretch_bound = own + DEFAULT_STRETCH_SLACK;
    if let Some(keys_tally) = tally {
        let between = (clip.frame_count() >= 2)
            .then(|| halfway_tally(source, clip, target, corr, &solved, params.report));
        solved.report.quality = Some(combine(target, keys_tally, between));
    }
    Ok(solved)
}

/// The poses halfway between keys: the source's clip and the solved clip
/// both played between their keys, the source's carried onto the target.
fn halfway_tally(
    source: &Rig,
    clip: &Clip,
    target: &Rig,
    corr: &Correspondence,
    solved: &Solved,
    _level: ReportLevel,
) -> Tally {
    let n = target.vertex_count();
    let mut tally = Tally::new(target.joint_count(), false);
    let (mut carried, mut posed) = (Vec::with_capacity(n), Vec::with_capacity(n));
    for f in 0..clip.frame_count() - 1 {
        carried.clear();
        posed.clear();
        carry_pose(source, &halfway(clip, f), corr, &mut carried);
        skin_points(
            target,
            &skinning64(target, &worlds64(target, &halfway(&solved.clip, f))),
            &mut posed,
        );
        let t = 0.5 * (clip.time(f) + clip.time(f + 1));
        tally.pose(target, &posed, |v| carried.at(v), t, usize::MAX);
    }
    tally
}

/// Several surface sequences on one rig, in parallel over sequences:
/// `(name, rate, surfaces)` each.
pub fn solve_surfaces<S: Positions + ?Sized + Sync>(
    rig: &Rig,
    jobs: &[(String, f32, &S)],
    params: &SolveParams,
) -> Result<Vec<Solved>> {
    jobs.par_iter().map(|(name, rate, s)| solve_surface(rig, *s, name, *rate, params)).collect()
}
