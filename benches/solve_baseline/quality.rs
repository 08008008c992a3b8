//! Transfer quality and per-vertex error (SPEC X5, X6).
//!
//! Transfer quality is the share of the surface-motion displacement that the
//! rig reproduces, over all frames `f` and all vertices `v` of the full mesh:
//!
//! ```text
//! quality = 1 - sum_{f,v} |skinned_{f,v} - target_{f,v}| / sum_{f,v} |target_{f,v} - rest_v|
//! ```
//!
//! `skinned` is the rig's own linear blend skinning of the solved clip
//! (forward kinematics of the clip's local transforms, then
//! [`caudal::rig::skin_vertices`]: the very function a viewer renders with),
//! `rest` the rig's bind-space vertices. 1 is perfect; 0 is no better than
//! standing still; it is negative when the rig moves the surface the wrong
//! way. A target that does not move at all scores 1 if reproduced exactly
//! and 0 otherwise. Errors are Euclidean distances in model units and also
//! reported as fractions of the bind-pose bounding-box diagonal.

use glam::Vec3;

use caudal::rig::{skin_matrices, skin_vertices, world_matrices, Clip, Rig};

use super::params::HEAT_RED_AT;

#[derive(Clone, Debug, PartialEq)]
pub struct Quality {
    /// See the module docs for the formula.
    pub quality: f64,
    /// Bind-pose bounding-box diagonal of the rig (model units).
    pub diagonal: f64,
    /// Mean vertex error over all frames and vertices, fraction of the diagonal.
    pub mean_error: f64,
    /// Largest single-vertex error, fraction of the diagonal.
    pub worst_error: f64,
    pub worst_vertex: usize,
    pub worst_frame: usize,
    /// Mean error of each frame, fraction of the diagonal.
    pub frame_mean_error: Vec<f64>,
    /// Error of every vertex at every frame, model units, frame-major
    /// (`errors[f * N + v]`).
    pub errors: Vec<f32>,
}

/// Full-mesh skinned positions of every frame of `clip` on `rig`,
/// frame-major.
pub fn skin_clip(rig: &Rig, clip: &Clip) -> Vec<Vec3> {
    let n = rig.vertex_count();
    let mut out = Vec::with_capacity(clip.frame_count() * n);
    for f in 0..clip.frame_count() {
        let worlds = world_matrices(rig.parents(), rig.topological_order(), clip.frame(f));
        out.extend(skin_vertices(rig, &skin_matrices(rig, &worlds)));
    }
    out
}

/// Quality of `skinned` against `targets` (both frame-major, full mesh).
pub fn measure(rig: &Rig, skinned: &[Vec3], targets: &[Vec3]) -> Quality {
    let n = rig.vertex_count();
    let frames = targets.len() / n.max(1);
    let diagonal = rig.diagonal() as f64;
    let rest = rig.vertices();
    let mut errors = Vec::with_capacity(targets.len());
    let (mut num, mut den) = (0.0f64, 0.0f64);
    let mut worst = (0.0f64, 0usize, 0usize);
    let mut frame_mean_error = Vec::with_capacity(frames);
    for f in 0..frames {
        let mut fsum = 0.0f64;
        for v in 0..n {
            let s = skinned[f * n + v].as_dvec3();
            let t = targets[f * n + v].as_dvec3();
            let e = (s - t).length();
            errors.push(e as f32);
            fsum += e;
            den += (t - rest[v].as_dvec3()).length();
            if e > worst.0 {
                worst = (e, v, f);
            }
        }
        num += fsum;
        frame_mean_error.push(fsum / n as f64 / diagonal);
    }
    let quality = if den > 0.0 {
        1.0 - num / den
    } else if num == 0.0 {
        1.0
    } else {
        0.0
    };
    let count = (frames * n).max(1) as f64;
    Quality {
        quality,
        diagonal,
        mean_error: num / count / diagonal,
        worst_error: worst.0 / diagonal,
        worst_vertex: worst.1,
        worst_frame: worst.2,
        frame_mean_error,
        errors,
    }
}

/// Transfer quality restricted to a vertex subset (a tail region, say).
pub fn quality_over(rig: &Rig, skinned: &[Vec3], targets: &[Vec3], subset: &[usize]) -> f64 {
    let n = rig.vertex_count();
    let frames = targets.len() / n.max(1);
    let rest = rig.vertices();
    let (mut num, mut den) = (0.0f64, 0.0f64);
    for f in 0..frames {
        for &v in subset {
            let t = targets[f * n + v].as_dvec3();
            num += (skinned[f * n + v].as_dvec3() - t).length();
            den += (t - rest[v].as_dvec3()).length();
        }
    }
    if den > 0.0 {
        1.0 - num / den
    } else if num == 0.0 {
        1.0
    } else {
        0.0
    }
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
