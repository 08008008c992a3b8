//! The tail's root hands over (issue 13): the body skin round where a
//! chain's tail meets the body moves from the rigger's weights to the
//! pelvis' across a band as wide as the tail is thick there.
//!
//! Why: a template rigger weights the rump round a tail to whatever it put
//! the tail on (a leg, the pelvis, the spine). The chain takes the tail
//! itself, so without a hand-over the last ring of the tail follows the
//! pelvis and the first ring of the rump follows a thigh: one ring of edges
//! carries the whole difference and tears when the leg swings. Spreading
//! the change over a band as wide as the root is thick puts a thick tail's
//! wide collar and a thin tail's narrow one on the same footing; the body
//! beyond the band keeps the rigger's weights exactly. Decided from the
//! mesh (the part, its boundary, geodesic distance) and the rigger's
//! weights only.

use glam::Vec3;

use crate::geometry::{geodesic_within, MeshGraph};
use crate::rig::Rig;

/// Width of the hand-over band in radii of the tail's root ring (the
/// median distance of the part's boundary vertices from their centre):
/// 1.0 spreads the change over as much rump as the root is half thick, so
/// an edge of the band turns by at most about what the root ring's edges
/// turn when the tail swings. 0 turns the hand-over off.
pub const HANDOVER_RADII: f32 = 1.0;

/// The band round one part's root: the part's welded vertices that touch
/// the body, and the radius of that ring.
pub struct RootRing {
    pub boundary: Vec<u32>,
    pub radius: f32,
}

/// The ring where `part` (sorted welded vertices) meets the rest of the
/// mesh; `None` for a separate shell (no edge to the body, nothing to hand
/// over).
pub fn root_ring(graph: &MeshGraph, positions: &[Vec3], part: &[u32]) -> Option<RootRing> {
    let boundary: Vec<u32> = part
        .iter()
        .copied()
        .filter(|&v| graph.neighbors_of(v as usize).iter().any(|w| part.binary_search(w).is_err()))
        .collect();
    if boundary.is_empty() {
        return None;
    }
    let centre = boundary.iter().fold(glam::DVec3::ZERO, |a, &v| a + positions[v as usize].as_dvec3()) / boundary.len() as f64;
    let mut d: Vec<f32> = boundary.iter().map(|&v| positions[v as usize].as_dvec3().distance(centre) as f32).collect();
    d.sort_by(f32::total_cmp);
    Some(RootRing { radius: d[d.len() / 2], boundary })
}

/// How much of the pelvis a body vertex at geodesic distance `d` from the
/// root ring takes, in a band of width `width`: 1 at the ring, 0 at the
/// band's edge, smooth at both ends (no crease where the band starts).
pub fn handover_share(d: f32, width: f32) -> f32 {
    if width <= 0.0 {
        return 0.0;
    }
    let x = (1.0 - d / width).clamp(0.0, 1.0);
    x * x * (3.0 - 2.0 * x)
}

/// For each welded body vertex (one `open` accepts) within `width` of the
/// ring, its share of the pelvis (the largest over several rings is kept by
/// the caller).
pub fn band(graph: &MeshGraph, positions: &[Vec3], ring: &RootRing, width: f32, open: impl Fn(u32) -> bool) -> Vec<(u32, f32)> {
    if width <= 0.0 {
        return Vec::new();
    }
    geodesic_within(graph, positions, &ring.boundary, width, open).into_iter().map(|(v, d)| (v, handover_share(d, width))).collect()
}

/// The skin row of original vertex `v` handed `share` of the way from the
/// rigger's weights to the pelvis: at most as many influences as the
/// rigger's row had (and at least 4, what every engine reads), the smallest
/// dropped and the rest renormalised; ties by joint index, so the row is
/// the same on any run.
pub fn handed_over(rig: &Rig, v: usize, pelvis: u32, share: f32) -> Vec<(u32, f32)> {
    let (js, ws) = rig.influences().of(v);
    let mut row: Vec<(u32, f32)> = js.iter().zip(ws).map(|(&j, &w)| (j, w * (1.0 - share))).collect();
    match row.iter_mut().find(|(j, _)| *j == pelvis) {
        Some(p) => p.1 += share,
        None => row.push((pelvis, share)),
    }
    row.retain(|&(_, w)| w > 0.0);
    row.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    row.truncate(js.len().max(4));
    let sum: f32 = row.iter().map(|&(_, w)| w).sum();
    if sum > 0.0 {
        for r in &mut row {
            r.1 /= sum;
        }
    }
    row
}

/// Welded vertices and shares of every band, merged: a vertex in two bands
/// keeps the larger share.
pub fn merge_bands(bands: impl IntoIterator<Item = (u32, f32)>) -> Vec<(u32, f32)> {
    let mut all: Vec<(u32, f32)> = bands.into_iter().collect();
    all.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.total_cmp(&a.1)));
    all.dedup_by_key(|e| e.0);
    all
}
