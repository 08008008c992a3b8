//! `transfer_clip`: carry an artist clip from its own rig onto any rig by
//! solving the surface (SPEC X): skin the source rig with the clip, carry
//! that surface onto the target mesh by rest-pose correspondence, solve the
//! target rig's bone transforms. Several clips solve in parallel, one clip
//! a task (each clip's frames stay sequential: they warm-start each other),
//! so results do not depend on the thread count.

use glam::Vec3;
use rayon::prelude::*;

use super::correspondence::Correspondence;
use super::quality::skin_clip;
use super::surface::{solve_surface, Solved};
use super::SolveParams;
use caudal::error::{CaudalError, Result};
use caudal::rig::{Clip, Rig};

#[derive(Clone, Debug)]
pub struct Transfer {
    pub solved: Solved,
    pub correspondence: Correspondence,
}

fn check_clip(source: &Rig, clip: &Clip) -> Result<()> {
    if clip.joint_count() != source.joint_count() {
        return Err(CaudalError::shape(
            "clip",
            format!(
                "clip {:?} has {} joints, the source rig {}",
                clip.name,
                clip.joint_count(),
                source.joint_count()
            ),
        ));
    }
    Ok(())
}

/// Target surfaces of `clip` played on `source`, carried onto `target`.
pub fn carried_surfaces(source: &Rig, clip: &Clip, corr: &Correspondence) -> Result<Vec<Vec3>> {
    check_clip(source, clip)?;
    Ok(corr.carry(&skin_clip(source, clip), source.vertex_count()))
}

/// Solve `target`'s version of `source`'s `clip`. The solved clip keeps the
/// clip's name and sample rate.
pub fn transfer_clip(
    source: &Rig,
    clip: &Clip,
    target: &Rig,
    params: &SolveParams,
) -> Result<Transfer> {
    check_clip(source, clip)?;
    let correspondence = Correspondence::new(source.vertices(), target.vertices());
    let surfaces = carried_surfaces(source, clip, &correspondence)?;
    let solved = solve_surface(target, &surfaces, &clip.name, clip.rate, params)?;
    Ok(Transfer { solved, correspondence })
}

/// Several clips at once, in parallel over clips.
pub fn transfer_clips(
    source: &Rig,
    clips: &[Clip],
    target: &Rig,
    params: &SolveParams,
) -> Result<Vec<Transfer>> {
    for c in clips {
        check_clip(source, c)?;
    }
    let correspondence = Correspondence::new(source.vertices(), target.vertices());
    clips
        .par_iter()
        .map(|clip| {
            let surfaces = carried_surfaces(source, clip, &correspondence)?;
            let solved = solve_surface(target, &surfaces, &clip.name, clip.rate, params)?;
            Ok(Transfer { solved, correspondence: correspondence.clone() })
        })
        .collect()
}

/// Several surface sequences on one rig, in parallel over sequences:
/// `(name, rate, surfaces)` each.
pub fn solve_surfaces(
    rig: &Rig,
    jobs: &[(String, f32, Vec<Vec3>)],
    params: &SolveParams,
) -> Result<Vec<Solved>> {
    jobs.par_iter().map(|(name, rate, s)| solve_surface(rig, s, name, *rate, params)).collect()
}
