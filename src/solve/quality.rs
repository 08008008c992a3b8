//! Transfer quality and per-vertex error (SPEC X5, X6).
//!
//! Transfer quality is the share of the surface-motion displacement that the
//! rig reproduces, over a set of poses `f` and all vertices `v` of the full
//! mesh:
//!
//! ```text
//! quality = 1 - sum_{f,v} |skinned_{f,v} - target_{f,v}| / sum_{f,v} |target_{f,v} - rest_v|
//! ```
//!
//! `skinned` is the rig's own linear blend skinning of the solve's answer,
//! `rest` the rig's bind-space vertices, `target` the surface the solve was
//! given (in a transfer, the source's motion carried onto the target mesh:
//! the *projected target*, whose rest pose is the target's own, so the
//! figure measures motion, not the distance between the meshes). 1 is
//! perfect; 0 is no better than standing still; it is negative when the rig
//! moves the surface the wrong way. A target that does not move (its mean
//! displacement from rest at most [`STILL_RATIO`] of the diagonal) has no
//! motion to reproduce: its quality is undefined, NaN (the Python layer
//! warns). Errors are Euclidean distances in model units, reported as
//! fractions of the bind-pose bounding-box diagonal.
//!
//! The poses: the solve's own frames (its keys) and, in a transfer, the
//! times halfway between them, where the solved clip plays interpolated
//! keys and the source its own motion. `quality` counts both sets;
//! `quality_keys` and `quality_halfway` each alone.

use glam::{DVec3, Vec3};

use crate::rig::{skin_matrices, skin_vertices, world_matrices, Clip, Rig};

use super::frames::Positions;
use super::params::HEAT_RED_AT;

/// A target whose mean displacement from rest is at most this fraction of
/// the diagonal does not move: f32 skinning of a rest pose leaves about
/// 1e-7 of the diagonal of rounding, so 1e-6 is still, and any motion an
/// eye could see is far above it. Its quality is NaN, not 1 (reproducing
/// nothing is not a perfect transfer) nor 0.
pub const STILL_RATIO: f64 = 1e-6;

/// How well a rig's own skinning reproduces target surfaces, over the
/// full mesh; see the module doc for the formula.
#[derive(Clone, Debug, PartialEq)]
pub struct Quality {
    /// Over the keys and (in a transfer) halfway between them; see the
    /// module docs for the formula.
    pub quality: f64,
    /// Over the solve's own frames only.
    pub quality_keys: f64,
    /// Halfway between keys only (a transfer from a clip; `None` when the
    /// surfaces between keys are unknown).
    pub quality_halfway: Option<f64>,
    /// Bind-pose bounding-box diagonal of the rig (model units).
    pub diagonal: f64,
    /// Mean vertex error over all measured poses and vertices, fraction of
    /// the diagonal.
    pub mean_error: f64,
    /// Largest single-vertex error over all measured poses, fraction of the
    /// diagonal; where and when.
    pub worst_error: f64,
    /// The vertex of the largest error.
    pub worst_vertex: usize,
    /// The clip time of the largest error (seconds).
    pub worst_time: f32,
    /// The key frame holding the largest error at a key (the frame a heat
    /// map shows).
    pub worst_frame: usize,
    /// Mean error of each key frame, fraction of the diagonal.
    pub frame_mean_error: Vec<f64>,
    /// Per joint: the mean error of the skin it carries (vertex errors
    /// weighted by the joint's skin weight), fraction of the diagonal;
    /// 0 for joints without skin. Names the bones a poor transfer fails on.
    pub bone_errors: Vec<f64>,
    /// Error of every vertex at every key frame, model units, frame-major
    /// (`errors[f * N + v]`); empty unless the full report was asked for.
    pub errors: Vec<f32>,
}

/// Running sums of one set of poses.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    error_sum: f64,
    motion_sum: f64,
    count: usize,
    worst: (f64, usize, f32, usize),
    frame_means: Vec<f64>,
    bone_error: Vec<f64>,
    bone_weight: Vec<f64>,
    errors: Option<Vec<f32>>,
}

impl Tally {
    /// Empty sums for a rig of `joints` joints; `keep_errors` keeps every
    /// vertex's error (the full report).
    pub fn new(joints: usize, keep_errors: bool) -> Tally {
        Tally {
            bone_error: vec![0.0; joints],
            bone_weight: vec![0.0; joints],
            errors: keep_errors.then(Vec::new),
            ..Tally::default()
        }
    }

    /// One pose: `skinned` and `targets(v)` for every vertex, at `time`
    /// (`frame` = its key index, or usize::MAX between keys).
    pub fn pose(
        &mut self,
        rig: &Rig,
        skinned: &[DVec3],
        target: impl Fn(usize) -> DVec3,
        time: f32,
        frame: usize,
    ) {
        let rest = rig.vertices();
        let inf = rig.influences();
        let mut sum = 0.0;
        for (v, s) in skinned.iter().enumerate() {
            let t = target(v);
            let e = (*s - t).length();
            sum += e;
            self.motion_sum += (t - rest[v].as_dvec3()).length();
            if e > self.worst.0 {
                self.worst = (e, v, time, frame);
            }
            let (js, ws) = inf.of(v);
            for (&j, &w) in js.iter().zip(ws) {
                self.bone_error[j as usize] += e * w as f64;
                self.bone_weight[j as usize] += w as f64;
            }
            if let Some(errs) = &mut self.errors {
                errs.push(e as f32);
            }
        }
        self.error_sum += sum;
        self.count += skinned.len();
        self.frame_means.push(sum / skinned.len().max(1) as f64);
    }

    /// `1 - error / motion`, or NaN when the target does not move (`motion`
    /// over `count` samples at most [`STILL_RATIO`] of `diagonal`).
    fn share(error: f64, motion: f64, count: usize, diagonal: f64) -> f64 {
        if motion <= STILL_RATIO * diagonal * count.max(1) as f64 {
            f64::NAN
        } else {
            1.0 - error / motion
        }
    }

    /// Transfer quality of the poses so far: `1 - error / motion`, NaN for a
    /// still target.
    pub fn quality(&self, diagonal: f64) -> f64 {
        Self::share(self.error_sum, self.motion_sum, self.count, diagonal)
    }
}

/// The report of the keys, with the halfway poses if measured.
pub fn combine(rig: &Rig, keys: Tally, halfway: Option<Tally>) -> Quality {
    let diagonal = (rig.diagonal() as f64).max(f64::MIN_POSITIVE);
    let mut error_sum = keys.error_sum;
    let mut motion_sum = keys.motion_sum;
    let mut count = keys.count;
    let mut worst = keys.worst;
    let mut bone_error = keys.bone_error.clone();
    let mut bone_weight = keys.bone_weight.clone();
    if let Some(h) = &halfway {
        error_sum += h.error_sum;
        motion_sum += h.motion_sum;
        count += h.count;
        if h.worst.0 > worst.0 {
            worst = h.worst;
        }
        for j in 0..bone_error.len() {
            bone_error[j] += h.bone_error[j];
            bone_weight[j] += h.bone_weight[j];
        }
    }
    Quality {
        quality: Tally::share(error_sum, motion_sum, count, diagonal),
        quality_keys: keys.quality(diagonal),
        quality_halfway: halfway.as_ref().map(|h| h.quality(diagonal)),
        diagonal,
        mean_error: error_sum / count.max(1) as f64 / diagonal,
        worst_error: worst.0 / diagonal,
        worst_vertex: worst.1,
        worst_time: worst.2,
        worst_frame: keys.worst.3,
        frame_mean_error: keys.frame_means.iter().map(|m| m / diagonal).collect(),
        bone_errors: bone_error
            .iter()
            .zip(&bone_weight)
            .map(|(e, w)| if *w > 0.0 { e / w / diagonal } else { 0.0 })
            .collect(),
        errors: keys.errors.unwrap_or_default(),
    }
}

/// Full-mesh skinned positions of every frame of `clip` on `rig`,
/// frame-major (f32, the rig module's own skinning).
pub fn skin_clip(rig: &Rig, clip: &Clip) -> Vec<Vec3> {
    let n = rig.vertex_count();
    let mut out = Vec::with_capacity(clip.frame_count() * n);
    for f in 0..clip.frame_count() {
        let worlds = world_matrices(rig.parents(), rig.topological_order(), clip.frame(f));
        out.extend(skin_vertices(rig, &skin_matrices(rig, &worlds)));
    }
    out
}

/// Quality of `skinned` against `targets` (both frame-major, full mesh, a
/// frame every 1/`rate` s for the worst time), with the per-vertex errors.
pub fn measure<A: Positions + ?Sized, B: Positions + ?Sized>(
    rig: &Rig,
    skinned: &A,
    targets: &B,
) -> Quality {
    let n = rig.vertex_count();
    let frames = targets.count() / n.max(1);
    let mut tally = Tally::new(rig.joint_count(), true);
    let mut s = Vec::with_capacity(n);
    for f in 0..frames {
        s.clear();
        s.extend((0..n).map(|v| skinned.at(f * n + v)));
        tally.pose(rig, &s, |v| targets.at(f * n + v), f as f32, f);
    }
    combine(rig, tally, None)
}

/// Transfer quality restricted to a vertex subset (a tail region, say).
pub fn quality_over<A: Positions + ?Sized, B: Positions + ?Sized>(
    rig: &Rig,
    skinned: &A,
    targets: &B,
    subset: &[usize],
) -> f64 {
    let n = rig.vertex_count();
    let frames = targets.count() / n.max(1);
    let rest = rig.vertices();
    let (mut num, mut den) = (0.0f64, 0.0f64);
    for f in 0..frames {
        for &v in subset {
            let t = targets.at(f * n + v);
            num += (skinned.at(f * n + v) - t).length();
            den += (t - rest[v].as_dvec3()).length();
        }
    }
    Tally::share(num, den, frames * subset.len(), rig.diagonal() as f64)
}

/// Heat-map colour of one error (SPEC X6): blue at 0, red at
/// `red_at * diagonal` or worse, through cyan, green and yellow (hue 240
/// degrees down to 0, linear in the error). Linear RGB in 0..1.
pub fn heat_colour(error: f32, diagonal: f32, red_at: f32) -> [f32; 3] {
    let x = if diagonal > 0.0 && red_at > 0.0 {
        (error / (red_at * diagonal)).clamp(0.0, 1.0)
    } else {
        1.0
    };
    let x = if x.is_nan() { 1.0 } else { x };
    // Hue 240 (blue) -> 0 (red) in four linear legs.
    let h = (1.0 - x) * 4.0;
    match h {
        h if h >= 3.0 => [0.0, 4.0 - h, 1.0], // blue -> cyan
        h if h >= 2.0 => [0.0, 1.0, h - 2.0], // cyan -> green
        h if h >= 1.0 => [2.0 - h, 1.0, 0.0], // green -> yellow
        h => [1.0, h, 0.0],                   // yellow -> red
    }
}

/// Heat-map colours of every error, [`HEAT_RED_AT`] of the diagonal = red.
pub fn heat_colours(errors: &[f32], diagonal: f32) -> Vec<[f32; 3]> {
    errors.iter().map(|&e| heat_colour(e, diagonal, HEAT_RED_AT)).collect()
}
