//! The two tests of SPEC T4: is the part off to one side of the skeleton
//! (centroid/reach), and is it long (elongation)?

use glam::Vec3;
use nalgebra::{Matrix3, SymmetricEigen};

/// Centroid of points (f64 accumulation: order-independent enough for
/// the 1e-6 relative noise we care about, and deterministic anyway).
pub fn centroid(points: impl Iterator<Item = Vec3>) -> Vec3 {
    let mut acc = [0f64; 3];
    let mut n = 0usize;
    for p in points {
        acc[0] += p.x as f64;
        acc[1] += p.y as f64;
        acc[2] += p.z as f64;
        n += 1;
    }
    if n == 0 {
        return Vec3::ZERO;
    }
    Vec3::new((acc[0] / n as f64) as f32, (acc[1] / n as f64) as f32, (acc[2] / n as f64) as f32)
}

/// Eigenvalues of the points' covariance, largest first (at least two
/// points).
fn covariance_eigenvalues(points: &[Vec3]) -> [f64; 3] {
    let c = centroid(points.iter().copied());
    let mut m = Matrix3::<f64>::zeros();
    for p in points {
        let d = (*p - c).as_dvec3();
        let v = nalgebra::Vector3::new(d.x, d.y, d.z);
        m += v * v.transpose();
    }
    m /= points.len() as f64;
    let mut ev: Vec<f64> = SymmetricEigen::new(m).eigenvalues.iter().map(|e| e.max(0.0)).collect();
    ev.sort_by(|a, b| b.total_cmp(a));
    [ev[0], ev[1], ev[2]]
}

/// Elongation `sqrt(l1 / l2)` with `l1 >= l2` the two largest eigenvalues
/// of the points' covariance. A tail scores about 2.6, a cape near 1.
pub fn elongation(points: &[Vec3]) -> f32 {
    if points.len() < 2 {
        return 1.0;
    }
    let [l1, l2, _] = covariance_eigenvalues(points);
    if l2 <= l1 * 1e-12 {
        // A straight line of points: as elongated as it gets.
        return 1e3;
    }
    (l1 / l2).sqrt() as f32
}

/// How far points depart from their best plane for their width:
/// `sqrt(l3 / l2)` of their covariance (eigenvalues `l1 >= l2 >= l3`). A
/// disc of points in one plane scores 0, a tube's end (round in cross
/// section) about 1; too few points or a line to say count as round.
pub fn flatness(points: &[Vec3]) -> f32 {
    if points.len() < 3 {
        return 1.0;
    }
    let [_, l2, l3] = covariance_eigenvalues(points);
    if l2 <= 0.0 {
        return 1.0;
    }
    (l3 / l2).sqrt() as f32
}

/// Axis-aligned box of points.
pub fn bounds(points: impl Iterator<Item = Vec3>) -> (Vec3, Vec3) {
    points.fold((Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)), |(lo, hi), p| {
        (lo.min(p), hi.max(p))
    })
}

/// Share of the smaller box covered by the intersection of two boxes, each
/// padded by `pad` (a flat sheet has a box of zero volume).
pub fn box_overlap(a: (Vec3, Vec3), b: (Vec3, Vec3), pad: f32) -> f32 {
    let (alo, ahi) = (a.0 - pad, a.1 + pad);
    let (blo, bhi) = (b.0 - pad, b.1 + pad);
    let inter = (ahi.min(bhi) - alo.max(blo)).max(Vec3::ZERO);
    let vol = |lo: Vec3, hi: Vec3| {
        let d = hi - lo;
        d.x as f64 * d.y as f64 * d.z as f64
    };
    let vi = inter.x as f64 * inter.y as f64 * inter.z as f64;
    let smaller = vol(alo, ahi).min(vol(blo, bhi));
    if smaller <= 0.0 {
        return 0.0;
    }
    (vi / smaller) as f32
}

/// Cross-section bands for [`tube_ratio`].
pub const TUBE_BANDS: usize = 8;

/// The part's cross-sections: its skin in [`TUBE_BANDS`] bands of equal
/// length along its geodesic coordinate (the last band takes everything
/// past `length`), each as its centroid and its skin's largest distance
/// from it; empty bands are left out, and all without a length. Both T4
/// figures of a tube read these ([`tube_ratio`], [`length_centroid`]).
pub fn tube_sections(points: &[Vec3], geodesic: &[f32], length: f32) -> Vec<(Vec3, f32)> {
    if length.is_nan() || length <= 0.0 {
        return Vec::new();
    }
    (0..TUBE_BANDS)
        .filter_map(|b| {
            let (lo, hi) = (
                b as f32 * length / TUBE_BANDS as f32,
                (b + 1) as f32 * length / TUBE_BANDS as f32,
            );
            let band: Vec<Vec3> = points
                .iter()
                .zip(geodesic)
                .filter(|(_, &g)| g >= lo && (g < hi || b + 1 == TUBE_BANDS))
                .map(|(p, _)| *p)
                .collect();
            if band.is_empty() {
                return None;
            }
            let c = centroid(band.iter().copied());
            Some((c, band.iter().map(|p| p.distance(c)).fold(0.0f32, f32::max)))
        })
        .collect()
}

/// Geodesic `length` over the mean diameter of the part's cross-sections
/// ([`tube_sections`]), each's diameter twice its largest distance from
/// its centroid.
pub fn tube_ratio(sections: &[(Vec3, f32)], length: f32) -> f32 {
    if length.is_nan() || length <= 0.0 {
        return 0.0;
    }
    let mean = sections.iter().map(|s| s.1).sum::<f32>() / sections.len().max(1) as f32;
    if mean > 0.0 {
        length / (2.0 * mean)
    } else {
        f32::INFINITY.min(1e3)
    }
}

/// The centroid of the part counted by its length, not by its vertices:
/// the mean of its cross-sections' centroids ([`tube_sections`]; on a
/// tube, points of its axis). How densely the modeller meshed each stretch
/// does not move it; a ribbon whose vertices crowd at its root has it
/// halfway out, where the vertex centroid sits near the root. `None`
/// without sections.
pub fn length_centroid(sections: &[(Vec3, f32)]) -> Option<Vec3> {
    (!sections.is_empty()).then(|| centroid(sections.iter().map(|s| s.0)))
}
