//! Rest-pose alignment of a source (artist) mesh onto a target (rigger's)
//! mesh, before correspondence (SPEC X3: "nearest neighbour in aligned rest
//! poses").
//!
//! `x_target = scale * R * x_source + translation`, found by
//! [`AlignMode`]:
//! * `None`: the identity (both meshes already share their bind space);
//! * `Bounds`: bounding-box centres matched, scaled by the ratio of the
//!   diagonals, no rotation (a rough placement; the fit's starting point);
//! * `Similarity`: a similarity fitted to the surfaces: from the `Bounds`
//!   start, iterated closest points (target vertices against the source
//!   surface) with Umeyama's closed-form similarity (rotation by Horn's
//!   method), the farthest pairs trimmed so a part one mesh lacks cannot
//!   pull the fit;
//! * `Auto` (default): the identity when the meshes already lie on each
//!   other, else the similarity. A rigger hands its mesh back where it got
//!   it, and a re-mesh moves the surface a little everywhere: a fitted
//!   similarity would then absorb that shrinking or swelling as a scale,
//!   and scale every carried motion with it. The identity is kept when its
//!   median closest-point distance is within [`KEEP_IDENTITY_WITHIN`] of
//!   the fit's (plus [`KEEP_IDENTITY_SLACK`] of the diagonal).
//!
//! Both rigs are in the core's Y-up frame already; the fit corrects small
//! turns, not a mesh facing the other way.

use glam::{DMat3, DVec3, Vec3};
use nalgebra::Matrix3;

use super::closest::TriangleTree;
use super::horn::fit_rotation;

/// How the rest poses are aligned; see the module docs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AlignMode {
    /// The identity when the meshes already lie on each other, else the
    /// similarity fit (the default).
    Auto,
    /// A similarity (scale, rotation, translation) fitted to the surfaces.
    Similarity,
    /// Bounding-box centres matched, scaled by the ratio of the diagonals.
    Bounds,
    /// The identity: both meshes share one bind space.
    None,
}

impl AlignMode {
    /// The name a caller gives (serde's name for the mode).
    pub fn name(&self) -> &'static str {
        match self {
            AlignMode::Auto => "auto",
            AlignMode::Similarity => "similarity",
            AlignMode::Bounds => "bounds",
            AlignMode::None => "none",
        }
    }
}

/// Target vertices used by the fit (an even stride through the mesh): a
/// similarity has seven unknowns, a thousand points pin it far below the
/// gap a re-mesh leaves.
pub const FIT_SAMPLES: usize = 1_000;
/// Closest-point iterations at most.
pub const FIT_ITERATIONS: usize = 60;
/// The fit stops when no sample moves by more than this fraction of the
/// target diagonal in one iteration.
pub const FIT_TOLERANCE: f64 = 1e-6;
/// Pairs farther apart than this multiple of the median pair distance are
/// left out of each fit (parts one mesh has and the other lacks).
pub const FIT_TRIM: f64 = 3.0;
/// `Auto` keeps the identity when its median gap is at most this multiple
/// of the fitted similarity's ...
pub const KEEP_IDENTITY_WITHIN: f64 = 1.5;
/// ... plus this fraction of the target diagonal.
pub const KEEP_IDENTITY_SLACK: f64 = 1e-3;

/// A similarity taking source rest positions to target space:
/// `x_target = scale * rotation * x_source + translation`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Alignment {
    /// The mode that produced it (`Auto` resolves to `None` or `Similarity`).
    pub mode: AlignMode,
    /// Uniform scale, target units per source unit.
    pub scale: f64,
    /// Rotation of the source into the target's axes.
    pub rotation: DMat3,
    /// Offset added after scaling and turning (target units).
    pub translation: DVec3,
}

impl Alignment {
    /// No change: the mode `None`.
    pub const IDENTITY: Alignment = Alignment {
        mode: AlignMode::None,
        scale: 1.0,
        rotation: DMat3::IDENTITY,
        translation: DVec3::ZERO,
    };

    /// Source point to target space.
    #[inline]
    pub fn apply(&self, p: DVec3) -> DVec3 {
        self.rotation * p * self.scale + self.translation
    }
    /// Target point to source space.
    #[inline]
    pub fn invert(&self, p: DVec3) -> DVec3 {
        self.rotation.transpose() * (p - self.translation) / self.scale
    }
    /// A source-space direction (or offset) to target space.
    #[inline]
    pub fn apply_vector(&self, v: DVec3) -> DVec3 {
        self.rotation * v * self.scale
    }
}

/// Lowest and highest corner of the bounding box of `p` (f64).
pub fn bounds(p: &[Vec3]) -> (DVec3, DVec3) {
    p.iter().fold((DVec3::splat(f64::INFINITY), DVec3::splat(f64::NEG_INFINITY)), |(lo, hi), q| {
        let q = q.as_dvec3();
        (lo.min(q), hi.max(q))
    })
}

fn by_bounds(source: &[Vec3], target: &[Vec3]) -> Alignment {
    let (slo, shi) = bounds(source);
    let (tlo, thi) = bounds(target);
    let sd = (shi - slo).length();
    let td = (thi - tlo).length();
    let scale = if sd > 0.0 { td / sd } else { 1.0 };
    let sc = (slo + shi) * 0.5;
    let tc = (tlo + thi) * 0.5;
    Alignment {
        mode: AlignMode::Bounds,
        scale,
        rotation: DMat3::IDENTITY,
        translation: tc - sc * scale,
    }
}

/// Median distance from the sampled target points to the aligned source
/// surface (measured in target units).
fn median_gap(tree: &TriangleTree, samples: &[DVec3], a: &Alignment) -> f64 {
    let mut d: Vec<f64> = samples
        .iter()
        .filter_map(|t| tree.closest(a.invert(*t)).map(|h| h.distance * a.scale))
        .collect();
    median(&mut d)
}

fn median(d: &mut [f64]) -> f64 {
    if d.is_empty() {
        return 0.0;
    }
    d.sort_by(f64::total_cmp);
    d[d.len() / 2]
}

/// Umeyama's similarity taking `from[i]` to `to[i]` (least squares).
fn umeyama(from: &[DVec3], to: &[DVec3]) -> Option<Alignment> {
    let n = from.len() as f64;
    if from.len() < 3 {
        return None;
    }
    let cf = from.iter().copied().sum::<DVec3>() / n;
    let ct = to.iter().copied().sum::<DVec3>() / n;
    let mut h = Matrix3::<f64>::zeros();
    let mut var = 0.0;
    for (f, t) in from.iter().zip(to) {
        let (p, q) = (*f - cf, *t - ct);
        var += p.length_squared();
        for r in 0..3 {
            for c in 0..3 {
                h[(r, c)] += q[r] * p[c];
            }
        }
    }
    if var.is_nan() || var <= 0.0 {
        return None;
    }
    let rot = fit_rotation(&h).to_rotation_matrix().into_inner();
    // scale = tr(R^T H) / sum |p|^2
    let scale = rot.component_mul(&h).sum() / var;
    if !(scale.is_finite() && scale > 0.0) {
        return None;
    }
    let r = DMat3::from_cols_array(&[
        rot[(0, 0)],
        rot[(1, 0)],
        rot[(2, 0)],
        rot[(0, 1)],
        rot[(1, 1)],
        rot[(2, 1)],
        rot[(0, 2)],
        rot[(1, 2)],
        rot[(2, 2)],
    ]);
    Some(Alignment {
        mode: AlignMode::Similarity,
        scale,
        rotation: r,
        translation: ct - r * cf * scale,
    })
}

fn fit_similarity(
    tree: &TriangleTree,
    samples: &[DVec3],
    start: Alignment,
    diagonal: f64,
) -> Alignment {
    let mut a = start;
    let mut prev: Vec<DVec3> = samples.iter().map(|t| a.invert(*t)).collect();
    for _ in 0..FIT_ITERATIONS {
        let hits: Vec<(DVec3, DVec3, f64)> = samples
            .iter()
            .filter_map(|t| tree.closest(a.invert(*t)).map(|h| (h.point, *t, h.distance)))
            .collect();
        let mut d: Vec<f64> = hits.iter().map(|h| h.2).collect();
        let cut = FIT_TRIM * median(&mut d);
        let (from, to): (Vec<DVec3>, Vec<DVec3>) =
            hits.iter().filter(|h| h.2 <= cut || cut == 0.0).map(|h| (h.0, h.1)).unzip();
        let Some(next) = umeyama(&from, &to) else { break };
        a = next;
        let now: Vec<DVec3> = samples.iter().map(|t| a.invert(*t)).collect();
        let moved =
            now.iter().zip(&prev).map(|(p, q)| p.distance(*q)).fold(0.0, f64::max) * a.scale;
        prev = now;
        if moved <= FIT_TOLERANCE * diagonal {
            break;
        }
    }
    a
}

/// What the alignment found, with the median gap it leaves (target units).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Aligned {
    /// The similarity found.
    pub alignment: Alignment,
    /// Median distance of the fit's sample of target vertices to the aligned
    /// source surface (target units).
    pub median_gap: f64,
}

/// Aligns `source` (vertices, and the tree of its triangles in its own
/// bind space) onto `target`.
pub fn align(mode: AlignMode, source: &[Vec3], tree: &TriangleTree, target: &[Vec3]) -> Aligned {
    let (tlo, thi) = bounds(target);
    let diagonal = (thi - tlo).length().max(f64::MIN_POSITIVE);
    let stride = target.len().div_ceil(FIT_SAMPLES).max(1);
    let samples: Vec<DVec3> = target.iter().step_by(stride).map(|p| p.as_dvec3()).collect();
    let identity = Alignment::IDENTITY;
    let alignment = match mode {
        AlignMode::None => identity,
        AlignMode::Bounds => by_bounds(source, target),
        AlignMode::Similarity => {
            fit_similarity(tree, &samples, by_bounds(source, target), diagonal)
        }
        AlignMode::Auto => {
            // Within the slack the identity wins whatever the fit finds.
            let gi = median_gap(tree, &samples, &identity);
            if gi <= KEEP_IDENTITY_SLACK * diagonal {
                identity
            } else {
                let fitted = fit_similarity(tree, &samples, by_bounds(source, target), diagonal);
                if gi
                    <= KEEP_IDENTITY_WITHIN * median_gap(tree, &samples, &fitted)
                        + KEEP_IDENTITY_SLACK * diagonal
                {
                    identity
                } else {
                    fitted
                }
            }
        }
    };
    Aligned { alignment, median_gap: median_gap(tree, &samples, &alignment) }
}
