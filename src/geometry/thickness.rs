//! How thick a tail is, one rule for chain growth and the spring: twice the
//! 90th-percentile distance of its skin from its centre line. The 90th, not
//! the median: the radius the bushy side of a tail reaches, not its
//! thinnest ring; not the maximum, which one stray vertex sets.

use glam::Vec3;

use super::point_segment_distance;
use crate::stats::percentile;

/// Share of the skin within the half thickness (see the module doc).
pub const THICKNESS_PERCENTILE: f32 = 0.9;

/// Distance from `p` to the polyline through `line` (at least two points;
/// infinite for fewer).
pub fn polyline_distance(p: Vec3, line: &[Vec3]) -> f32 {
    line.windows(2).map(|s| point_segment_distance(p, s[0], s[1])).fold(f32::INFINITY, f32::min)
}

/// Thickness of the skin `points` about the centre line `line`, model
/// units: twice the [`THICKNESS_PERCENTILE`] distance; 0 for no points.
pub fn thickness(points: impl IntoIterator<Item = Vec3>, line: &[Vec3]) -> f32 {
    let d: Vec<f32> = points.into_iter().map(|p| polyline_distance(p, line)).collect();
    2.0 * percentile(&d, THICKNESS_PERCENTILE)
}

/// Radius of a ring of skin: the median distance of the welded vertices
/// `ring` from their centroid (summed in f64); `None` for an empty ring.
/// The median, not the mean: a ring cut where a tail meets the body has a
/// few stray vertices on the body side.
pub fn ring_radius(positions: &[Vec3], ring: &[u32]) -> Option<f32> {
    points_ring_radius(&ring.iter().map(|&v| positions[v as usize]).collect::<Vec<_>>())
}

/// [`ring_radius`] of a ring given by its points (a level-set contour
/// crossing the mesh's edges, not its vertices); `None` for no points.
pub fn points_ring_radius(points: &[Vec3]) -> Option<f32> {
    if points.is_empty() {
        return None;
    }
    let c = points.iter().fold(glam::DVec3::ZERO, |a, p| a + p.as_dvec3()) / points.len() as f64;
    let mut d: Vec<f32> = points.iter().map(|p| p.as_dvec3().distance(c) as f32).collect();
    d.sort_by(f32::total_cmp);
    Some(d[d.len() / 2])
}
