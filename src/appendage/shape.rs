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

/// The points' covariance about their centroid, decomposed (at least two
/// points).
fn covariance(points: &[Vec3]) -> SymmetricEigen<f64, nalgebra::U3> {
    let c = centroid(points.iter().copied());
    let mut m = Matrix3::<f64>::zeros();
    for p in points {
        let d = (*p - c).as_dvec3();
        let v = nalgebra::Vector3::new(d.x, d.y, d.z);
        m += v * v.transpose();
    }
    m /= points.len() as f64;
    SymmetricEigen::new(m)
}

/// Eigenvalues of the points' covariance, largest first (at least two
/// points).
fn covariance_eigenvalues(points: &[Vec3]) -> [f64; 3] {
    let mut ev: Vec<f64> = covariance(points).eigenvalues.iter().map(|e| e.max(0.0)).collect();
    ev.sort_by(|a, b| b.total_cmp(a));
    [ev[0], ev[1], ev[2]]
}

/// The direction the points spread most along: their covariance's
/// eigenvector of the largest eigenvalue (the first of equals).
fn major_axis(points: &[Vec3]) -> Vec3 {
    let eigen = covariance(points);
    let mut best = 0;
    for i in 1..3 {
        if eigen.eigenvalues[i] > eigen.eigenvalues[best] {
            best = i;
        }
    }
    let a = eigen.eigenvectors.column(best);
    Vec3::new(a[0] as f32, a[1] as f32, a[2] as f32)
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
    banded_sections(points, geodesic, length, 1)
}

/// `points` cut into the [`TUBE_BANDS`] bands of equal length over
/// `0..=length` of their `coordinate` (the last band takes everything past
/// it), each band with at least `min_vertices` as a section: its centroid
/// and its skin's largest distance from it. Bands with fewer are left out.
fn banded_sections(
    points: &[Vec3],
    coordinate: &[f32],
    length: f32,
    min_vertices: usize,
) -> Vec<(Vec3, f32)> {
    (0..TUBE_BANDS)
        .filter_map(|b| {
            let n = TUBE_BANDS as f32;
            let (lo, hi) = (b as f32 * length / n, (b + 1) as f32 * length / n);
            let band: Vec<Vec3> = points
                .iter()
                .zip(coordinate)
                .filter(|(_, &g)| g >= lo && (g < hi || b + 1 == TUBE_BANDS))
                .map(|(p, _)| *p)
                .collect();
            if band.len() < min_vertices.max(1) {
                return None;
            }
            let c = centroid(band.iter().copied());
            Some((c, band.iter().map(|p| p.distance(c)).fold(0.0f32, f32::max)))
        })
        .collect()
}

/// The fewest vertices a cross-section needs to measure a width: a ring
/// round a tube has at least three; one or two vertices in a band span no
/// section, and their distance from their own centroid reads a tube of
/// any width as a thread.
pub const SECTION_MIN_VERTICES: usize = 3;

/// A part read across its own major axis (the eigenvector of its
/// covariance's largest eigenvalue) instead of along its geodesic
/// coordinate: eight planar bands of equal length along the axis (as
/// many as the geodesic sections take), each with at least
/// [`SECTION_MIN_VERTICES`] and measured as a geodesic section is (its
/// centroid, its skin's largest distance from it); then the axial length
/// over the sections' mean diameter, and that diameter. `None` with fewer
/// than two such sections (no run to measure). Where a part's collar runs
/// along it (a thick tail hanging behind the thighs: the far cut leaves it
/// a collar slanting from its root down its underside), its geodesic
/// bands from the collar run lengthwise and read its length as its width;
/// planar bands across its axis are its cross-sections.
pub fn axial_tube(points: &[Vec3]) -> Option<AxialTube> {
    if points.len() < 2 * SECTION_MIN_VERTICES {
        return None;
    }
    let (axis, c) = (major_axis(points), centroid(points.iter().copied()));
    let along: Vec<f32> = points.iter().map(|p| (*p - c).dot(axis)).collect();
    let start = along.iter().copied().fold(f32::INFINITY, f32::min);
    let along: Vec<f32> = along.iter().map(|a| a - start).collect();
    let length = along.iter().copied().fold(0.0f32, f32::max);
    let sections = banded_sections(points, &along, length, SECTION_MIN_VERTICES);
    if sections.len() < 2 {
        return None;
    }
    let width = 2.0 * sections.iter().map(|s| s.1).sum::<f32>() / sections.len() as f32;
    Some(AxialTube { ratio: tube_ratio(&sections, length), width })
}

/// A part read across its own axis ([`axial_tube`]).
#[derive(Clone, Copy, Debug)]
pub struct AxialTube {
    /// Axial length over the sections' mean diameter.
    pub ratio: f32,
    /// The sections' mean diameter.
    pub width: f32,
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
