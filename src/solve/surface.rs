//! `solve_surface`: per-frame bone transforms of a rig whose own skinning
//! reproduces given surfaces, assembled into a clip (and its skinning
//! matrices) with a report of the quality reached.

use glam::{DMat4, DVec3};

use super::assemble::{clip_from_worlds, place_inactive, uncentre, worlds_from_skin, Keys};
use super::constraints::{subsample, Constraints};
use super::frames::{skin_points, Positions};
use super::params::{
    ReportLevel, SolveMode, SolveParams, DEFAULT_ERROR_FLOOR, DEFAULT_ERROR_FLOOR_F64,
    DEFAULT_STRETCH_SLACK, LOOP_TOLERANCE, LOOP_TOLERANCE_F64, SEED_REFINEMENT_F64,
};
use super::quality::{combine, Quality, Tally};
use super::rigid::{compose, solve_frame, AffineSeed, FrameSettings};
use super::rotation_only::Hierarchy;
use crate::error::{CaudalError, Result};
use crate::rig::{Clip, Rig};

/// What a solve did and how close it came.
#[derive(Clone, Debug, PartialEq)]
pub struct SolveReport {
    /// The mode solved in.
    pub mode: SolveMode,
    /// Vertices that constrained the solve (quality still uses all).
    pub constraint_vertices: usize,
    /// Sweeps spent on each frame (rigid stage, then the rotation-only
    /// stage in that mode; 0 for a loop's last frame, which copies the
    /// first).
    pub sweeps: Vec<usize>,
    /// Frames where the affine seed beat the warm start.
    pub seeded_frames: usize,
    /// RMS constraint error after each frame's solve, fraction of the diagonal.
    pub constraint_rms: Vec<f64>,
    /// Per joint: the largest change of its bone length (the length of its
    /// local translation, the distance to its parent's head) against the
    /// bind pose over all frames, fraction of the diagonal; 0 for roots and
    /// in rotation-only mode.
    pub bone_length_changes: Vec<f64>,
    /// The same change relative to the bone's own bind length.
    pub bone_stretch: Vec<f64>,
    /// The largest of `bone_length_changes`.
    pub bone_length_change: f64,
    /// Bone-length change (fraction of the diagonal) above which a bone
    /// counts as stretched: [`DEFAULT_STRETCH_SLACK`] over the source
    /// clip's own largest change in a transfer, alone otherwise.
    pub stretch_bound: f64,
    /// In a transfer, the source clip's own largest bone-length change on
    /// the source rig (fraction of the source's diagonal).
    pub source_bone_length_change: Option<f64>,
    /// Whether the surfaces' first and last frames were one pose, so the
    /// last frame took the first frame's answer ([`LOOP_TOLERANCE`],
    /// [`LOOP_TOLERANCE_F64`]).
    pub looped: bool,
    /// Full-mesh quality; `None` with [`ReportLevel::None`].
    pub quality: Option<Quality>,
}

impl SolveReport {
    /// The quality measure; panics when the solve was asked for no report.
    pub fn quality(&self) -> &Quality {
        self.quality.as_ref().expect("solved with report = none")
    }
    /// Joints whose bone-length change exceeds the stretch bound, largest
    /// change first.
    pub fn stretched_bones(&self) -> Vec<usize> {
        let mut out: Vec<usize> = (0..self.bone_length_changes.len())
            .filter(|&j| self.bone_length_changes[j] > self.stretch_bound)
            .collect();
        out.sort_by(|&a, &b| {
            self.bone_length_changes[b].total_cmp(&self.bone_length_changes[a]).then(a.cmp(&b))
        });
        out
    }
}

/// The answer of a solve: the rig's clip, its skinning matrices, the report.
#[derive(Clone, Debug)]
pub struct Solved {
    /// The solved clip in the rig's own hierarchy (local transforms).
    pub clip: Clip,
    /// Skinning matrices (bind space to posed) of every joint at every
    /// frame, frame-major (`skinning[f * B + j]`), in f64: the solve's own
    /// answer, which the clip's f32 local transforms reproduce to f32
    /// rounding.
    pub skinning: Vec<DMat4>,
    /// How the solve went.
    pub report: SolveReport,
}

fn check_surfaces<S: Positions + ?Sized>(rig: &Rig, surfaces: &S) -> Result<usize> {
    let n = rig.vertex_count();
    let len = surfaces.count();
    if len == 0 || !len.is_multiple_of(n) {
        return Err(CaudalError::shape(
            "surfaces",
            format!("{len} positions is not a whole number of frames of {n} vertices"),
        ));
    }
    if let Some(i) = surfaces.first_non_finite() {
        return Err(CaudalError::NonFinite { field: "surfaces".into(), index: i });
    }
    Ok(len / n)
}

fn check_keys(keys: Keys<'_>, frames: usize) -> Result<()> {
    match keys {
        Keys::Rate(rate) if !(rate.is_finite() && rate > 0.0) => {
            Err(CaudalError::param("rate", format!("sample rate must be positive, got {rate}")))
        }
        Keys::Times(t) if t.len() != frames => {
            Err(CaudalError::shape("times", format!("{} key times for {frames} frames", t.len())))
        }
        Keys::Times(t)
            if t.windows(2).any(|w| w[1] <= w[0] || w[1].is_nan())
                || t.iter().any(|x| !(x.is_finite() && *x >= 0.0)) =>
        {
            Err(CaudalError::param("times", "key times must be finite, >= 0 and increasing"))
        }
        _ => Ok(()),
    }
}

/// Solve `rig`'s per-frame bone transforms so that its skinning reproduces
/// `surfaces` (frame-major, `surfaces[f * N + v]`, bind space of `rig`, f32
/// or f64). The clip is named `name` and sampled at `rate` frames per second.
pub fn solve_surface<S: Positions + ?Sized>(
    rig: &Rig,
    surfaces: &S,
    name: &str,
    rate: f32,
    params: &SolveParams,
) -> Result<Solved> {
    solve_keys(rig, surfaces, name, Keys::Rate(rate), params)
}

/// [`solve_surface`] with the solved clip's frames placed by `keys`: a
/// rate, or a key time per frame (seconds, increasing).
pub fn solve_keys<S: Positions + ?Sized>(
    rig: &Rig,
    surfaces: &S,
    name: &str,
    keys: Keys<'_>,
    params: &SolveParams,
) -> Result<Solved> {
    let (mut solved, tally) = solve_measured(rig, surfaces, name, keys, params)?;
    solved.report.quality = tally.map(|t| combine(rig, t, None));
    Ok(solved)
}

/// The solve and, unless no report is asked for, the tally of its keys
/// (a transfer adds the poses between keys before the report is made).
pub(crate) fn solve_measured<S: Positions + ?Sized>(
    rig: &Rig,
    surfaces: &S,
    name: &str,
    keys: Keys<'_>,
    params: &SolveParams,
) -> Result<(Solved, Option<Tally>)> {
    params.validate()?;
    let frames = check_surfaces(rig, surfaces)?;
    check_keys(keys, frames)?;
    let n = rig.vertex_count();
    let b = rig.joint_count();
    let cons = Constraints::new(rig, subsample(rig, params.constraint_budget));
    let diag = rig.diagonal() as f64;
    let floor = params.error_floor.unwrap_or(if surfaces.double_precision() {
        DEFAULT_ERROR_FLOOR_F64
    } else {
        DEFAULT_ERROR_FLOOR
    });
    let set = FrameSettings {
        max_sweeps: params.max_sweeps,
        refine: if surfaces.double_precision() { SEED_REFINEMENT_F64 } else { 0 },
        progress: params.progress_tolerance * diag,
        floor: floor * diag,
        proximal: params.proximal_weight,
    };
    let seed = if params.affine_seed {
        AffineSeed::new(&cons, params.seed_ridge, rig.topological_order())
    } else {
        None
    };
    let order: Vec<usize> =
        rig.topological_order().iter().copied().filter(|&j| cons.active[j]).collect();
    let weight: Vec<f64> = cons.own.iter().map(|g| g[(3, 3)]).collect();
    let hier = (params.mode == SolveMode::RotationOnly).then(|| Hierarchy::new(rig, &cons));
    let loop_tolerance =
        if surfaces.double_precision() { LOOP_TOLERANCE_F64 } else { LOOP_TOLERANCE };
    let looped = frames >= 3
        && (0..n).all(|v| {
            (surfaces.at(v) - surfaces.at((frames - 1) * n + v)).length() <= loop_tolerance * diag
        });

    let identity = compose(&nalgebra::Matrix3::identity(), &nalgebra::Vector3::zeros());
    let mut m = vec![identity; b];
    let mut m_rot = vec![identity; b];
    let mut y = vec![nalgebra::Matrix3x4::zeros(); b];
    let mut skinning: Vec<DMat4> = Vec::with_capacity(frames * b);
    let mut sweeps = Vec::with_capacity(frames);
    let mut constraint_rms = Vec::with_capacity(frames);
    let mut seeded_frames = 0;
    for f in 0..frames {
        if looped && f == frames - 1 {
            skinning.extend_from_within(0..b);
            sweeps.push(0);
            constraint_rms.push(constraint_rms[0]);
            continue;
        }
        let targets = cons.targets(surfaces, f * n);
        cons.target_moments(&targets, &mut y);
        let mut stats = solve_frame(&cons, seed.as_ref(), &order, &targets, &y, &mut m, &set);
        let mut full = m.clone();
        place_inactive(rig, &cons.active, &weight, &cons.center, &mut full);
        let skin = match &hier {
            Some(h) => {
                let mut alt = full;
                h.enforce(&mut alt);
                let rigid_sweeps = stats.sweeps;
                stats = h.solve_frame(&cons, &targets, &mut m_rot, Some(alt), &set);
                stats.sweeps += rigid_sweeps;
                m_rot.clone()
            }
            None => full,
        };
        seeded_frames += stats.seeded as usize;
        sweeps.push(stats.sweeps);
        constraint_rms.push(stats.rms / diag);
        skinning.extend(skin.iter().map(|s| uncentre(s, &cons.center)));
    }
    let worlds: Vec<DMat4> = skinning.chunks(b).flat_map(|s| worlds_from_skin(rig, s)).collect();
    let mut clip = clip_from_worlds(rig, name, keys, &worlds)?;
    if params.mode == SolveMode::RotationOnly {
        clip = pin_bind_offsets(rig, &clip)?;
    }
    let (bone_length_changes, bone_stretch) = bone_changes(rig, &clip);
    let bone_length_change = bone_length_changes.iter().copied().fold(0.0, f64::max);

    let tally = (params.report != ReportLevel::None).then(|| {
        let mut tally = Tally::new(b, params.report == ReportLevel::Full);
        let mut posed: Vec<DVec3> = Vec::with_capacity(n);
        for f in 0..frames {
            posed.clear();
            skin_points(rig, &skinning[f * b..(f + 1) * b], &mut posed);
            tally.pose(rig, &posed, |v| surfaces.at(f * n + v), clip.time(f), f);
        }
        tally
    });
    let report = SolveReport {
        mode: params.mode,
        constraint_vertices: cons.len(),
        sweeps,
        seeded_frames,
        constraint_rms,
        bone_length_changes,
        bone_stretch,
        bone_length_change,
        stretch_bound: DEFAULT_STRETCH_SLACK,
        source_bone_length_change: None,
        looped,
        quality: None,
    };
    Ok((Solved { clip, skinning, report }, tally))
}

/// Per joint: largest bone-length change against the bind pose (fraction
/// of the diagonal) and relative to the bind length.
pub(crate) fn bone_changes(rig: &Rig, clip: &Clip) -> (Vec<f64>, Vec<f64>) {
    let bind = rig.bind_locals();
    let diag = (rig.diagonal() as f64).max(f64::MIN_POSITIVE);
    let b = rig.joint_count();
    let (mut abs, mut rel) = (vec![0.0f64; b], vec![0.0f64; b]);
    for f in 0..clip.frame_count() {
        for (j, p) in rig.parents().iter().enumerate() {
            if p.is_none() {
                continue;
            }
            let l0 = bind[j].translation.length() as f64;
            let d = (clip.frame(f)[j].translation.length() as f64 - l0).abs();
            abs[j] = abs[j].max(d / diag);
            if l0 > 1e-9 * diag {
                rel[j] = rel[j].max(d / l0);
            }
        }
    }
    (abs, rel)
}

/// Rotation-only clips carry the bind offsets (and bind scales) of every
/// non-root joint verbatim, so bone lengths are exactly those of the rig
/// rather than equal up to a round trip through world matrices.
fn pin_bind_offsets(rig: &Rig, clip: &Clip) -> Result<Clip> {
    let bind = rig.bind_locals();
    let b = rig.joint_count();
    let mut locals = clip.locals().to_vec();
    for (k, l) in locals.iter_mut().enumerate() {
        let j = k % b;
        if rig.parents()[j].is_some() {
            l.translation = bind[j].translation;
            l.scale = bind[j].scale;
        }
    }
    match clip.key_times() {
        Some(t) => Clip::keyed(clip.name.clone(), t.to_vec(), b, locals),
        None => Clip::new(clip.name.clone(), clip.rate, clip.duration, b, locals),
    }
}
