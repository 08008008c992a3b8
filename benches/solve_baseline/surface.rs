//! `solve_surface`: per-frame bone transforms of a rig whose own skinning
//! reproduces given surfaces, assembled into a clip with its quality report.

use glam::{DMat4, Mat4, Vec3};

use super::assemble::{clip_from_worlds, place_inactive, uncentre, worlds_from_skin};
use super::constraints::{subsample, Constraints};
use super::params::{SolveMode, SolveParams};
use super::quality::{measure, skin_clip, Quality};
use super::rigid::{compose, solve_frame, AffineSeed, FrameSettings};
use super::rotation_only::Hierarchy;
use caudal::error::{CaudalError, Result};
use caudal::rig::{Clip, Rig};

#[derive(Clone, Debug, PartialEq)]
pub struct SolveReport {
    pub mode: SolveMode,
    /// Full-mesh transfer quality and errors of the solved clip.
    pub quality: Quality,
    /// Vertices that constrained the solve (quality still uses all).
    pub constraint_vertices: usize,
    /// Sweeps spent on each frame (rigid stage, then the rotation-only
    /// stage in that mode).
    pub sweeps: Vec<usize>,
    /// Frames where the affine seed beat the warm start.
    pub seeded_frames: usize,
    /// RMS constraint error after each frame's solve, fraction of the diagonal.
    pub constraint_rms: Vec<f64>,
    /// Largest change of any bone length (length of a non-root joint's local
    /// translation) against the bind pose over all frames, fraction of the
    /// diagonal. 0 in rotation-only mode.
    pub bone_length_change: f64,
}

#[derive(Clone, Debug)]
pub struct Solved {
    pub clip: Clip,
    /// Joint world matrices, frame-major (`worlds[f * B + j]`), bind space.
    pub worlds: Vec<Mat4>,
    pub report: SolveReport,
}

fn check_surfaces(rig: &Rig, surfaces: &[Vec3]) -> Result<usize> {
    let n = rig.vertex_count();
    if surfaces.is_empty() || surfaces.len() % n != 0 {
        return Err(CaudalError::shape(
            "surfaces",
            format!("{} positions is not a whole number of frames of {n} vertices", surfaces.len()),
        ));
    }
    if let Some(i) = surfaces.iter().position(|p| !p.is_finite()) {
        return Err(CaudalError::NonFinite { field: "surfaces".into(), index: i });
    }
    Ok(surfaces.len() / n)
}

/// Solve `rig`'s per-frame bone transforms so that its skinning reproduces
/// `surfaces` (frame-major, `surfaces[f * N + v]`, bind space of `rig`).
/// The clip is named `name` and sampled at `rate` frames per second.
pub fn solve_surface(
    rig: &Rig,
    surfaces: &[Vec3],
    name: &str,
    rate: f32,
    params: &SolveParams,
) -> Result<Solved> {
    params.validate()?;
    let frames = check_surfaces(rig, surfaces)?;
    if !(rate.is_finite() && rate > 0.0) {
        return Err(CaudalError::param(
            "rate",
            format!("sample rate must be positive, got {rate}"),
        ));
    }
    let n = rig.vertex_count();
    let b = rig.joint_count();
    let cons = Constraints::new(rig, subsample(rig, params.constraint_budget));
    let diag = rig.diagonal() as f64;
    let set = FrameSettings {
        max_sweeps: params.max_sweeps,
        progress: params.progress_tolerance * diag,
        floor: params.error_floor * diag,
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

    let identity = compose(&nalgebra::Matrix3::identity(), &nalgebra::Vector3::zeros());
    let mut m = vec![identity; b];
    let mut m_rot = vec![identity; b];
    let mut y = vec![nalgebra::Matrix3x4::zeros(); b];
    let mut worlds64: Vec<DMat4> = Vec::with_capacity(frames * b);
    let mut sweeps = Vec::with_capacity(frames);
    let mut constraint_rms = Vec::with_capacity(frames);
    let mut seeded_frames = 0;
    for f in 0..frames {
        let targets = cons.targets(&surfaces[f * n..(f + 1) * n]);
        cons.target_moments(&targets, &mut y);
        let mut stats = solve_frame(&cons, seed.as_ref(), &order, &targets, &y, &mut m, &set);
        let mut full = m.clone();
        place_inactive(rig, &cons.active, &weight, &mut full);
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
        let skin: Vec<DMat4> = skin.iter().map(|s| uncentre(s, &cons.center)).collect();
        worlds64.extend(worlds_from_skin(rig, &skin));
    }
    let mut clip = clip_from_worlds(rig, name, rate, &worlds64)?;
    if params.mode == SolveMode::RotationOnly {
        clip = pin_bind_offsets(rig, &clip)?;
    }
    let bind = rig.bind_locals();
    let mut bone_length_change = 0.0f64;
    for f in 0..frames {
        for (j, p) in rig.parents().iter().enumerate() {
            if p.is_some() {
                let d = (clip.frame(f)[j].translation.length() as f64
                    - bind[j].translation.length() as f64)
                    .abs();
                bone_length_change = bone_length_change.max(d / diag);
            }
        }
    }
    let skinned = skin_clip(rig, &clip);
    let quality = measure(rig, &skinned, surfaces);
    let worlds = (0..frames)
        .flat_map(|f| {
            caudal::rig::world_matrices(rig.parents(), rig.topological_order(), clip.frame(f))
        })
        .collect();
    Ok(Solved {
        clip,
        worlds,
        report: SolveReport {
            mode: params.mode,
            quality,
            constraint_vertices: cons.len(),
            sweeps,
            seeded_frames,
            constraint_rms,
            bone_length_change,
        },
    })
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
    Clip::new(clip.name.clone(), clip.rate, clip.duration, b, locals)
}
