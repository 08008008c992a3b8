//! A tail's own rings followed outward from the body: the part's geodesic
//! levels (from its root ring) read ring by ring, each ring's centre and
//! reach following the last, so the walk bends with the tail. Skin of the
//! part's first piece that no ring covers is not the tail's.

use glam::Vec3;

use super::root::TUBE_STEP;
use crate::geometry::MeshGraph;

/// A part's first piece is a sheet cut along a tube, not a tube cut across,
/// when more than this share of its vertices lie on its rim (next to its
/// collar). A tube cut across has its rim on one ring of its rings (a piece
/// of n rings: 1/n; a stub of two rings: a half); a sheet cut along a
/// hanging tail by the far cut, one or two vertices across, is nearly all
/// rim (corpus seeds 300 and 533: collars of 0.6 of their vertex count).
pub const SHEET_RIM_SHARE: f32 = 0.5;

/// Whether `welded` (sorted) with its `collar` (sorted) is a sheet
/// ([`SHEET_RIM_SHARE`]).
pub fn is_sheet(graph: &MeshGraph, welded: &[u32], collar: &[u32]) -> bool {
    let rim = welded
        .iter()
        .filter(|&&v| {
            graph.neighbors_of(v as usize).iter().any(|w| collar.binary_search(w).is_ok())
        })
        .count();
    rim as f32 > SHEET_RIM_SHARE * welded.len() as f32
}

/// One ring of the walk: its centre, median radius, reach (farthest kept
/// skin from the centre) and the level it reaches up to.
#[derive(Clone, Copy)]
struct Ring {
    centre: Vec3,
    radius: f32,
    reach: f32,
    level: f32,
}

/// The vertices of `first` (sorted welded vertices, the part's first piece)
/// that the rings of the part (`welded`, sorted, with its `geodesic`
/// coordinate from its root ring `root`, welded vertices round the part)
/// do not cover. The first ring is the root ring; each next ring is the
/// part's skin one geodesic step further ([`TUBE_STEP`] of the last ring's
/// radius), read with the skin kept over the last radius of levels (a
/// step of a coarse mesh holds a few vertices of a ring, a radius of tube
/// a whole round of them, as [`super::root::TUBE_FLARE_WINDOW`] reads
/// rings in radii). A ring takes the skin grown onto the part (not in `first`)
/// whole, and skin of `first` only where it lies within the last ring's
/// reach (its farthest kept skin from its centre) plus the geodesic
/// distance walked since that ring: a tube's next ring lies within its
/// last ring's reach moved along however the tail bends, and cannot widen
/// faster than it is walked (the front spreading over the body grows one
/// radius per radius walked, see [`super::root::TUBE_JOIN_FLARE`]). Skin
/// beside the tube (body skin that a sheet cut along a hanging tail holds)
/// lies past that reach. Each ring's centre and radius are its kept skin's.
pub fn off_the_rings(
    positions: &[Vec3],
    welded: &[u32],
    geodesic: &[f32],
    first: &[u32],
    root: &[u32],
) -> Vec<u32> {
    let mut order: Vec<usize> = (0..welded.len()).filter(|&i| geodesic[i].is_finite()).collect();
    if order.is_empty() || root.is_empty() {
        return Vec::new();
    }
    order.sort_by(|&a, &b| geodesic[a].total_cmp(&geodesic[b]).then(a.cmp(&b)));
    let is_first = |i: usize| first.binary_search(&welded[i]).is_ok();
    let at = |i: usize| positions[welded[i] as usize];
    let root: Vec<Vec3> = root.iter().map(|&v| positions[v as usize]).collect();
    let mut ring = ring_of(&root, 0.0);
    // The kept skin with its level, oldest first: a ring is read over the
    // last radius of levels walked.
    let mut kept: Vec<(f32, Vec3)> = Vec::new();
    let mut off = Vec::new();
    let mut next = 0usize;
    while next < order.len() {
        let hi = ring.level.max(geodesic[order[next]]) + TUBE_STEP * ring.radius;
        let mut end = next;
        while end < order.len() && geodesic[order[end]] <= hi {
            end += 1;
        }
        for &i in &order[next..end] {
            let walked = (geodesic[i] - ring.level).max(0.0);
            if !is_first(i) || at(i).distance(ring.centre) <= ring.reach + walked {
                kept.push((geodesic[i], at(i)));
            } else {
                off.push(welded[i]);
            }
        }
        let from = hi - ring.radius;
        let window: Vec<Vec3> = kept.iter().rev().take_while(|k| k.0 > from).map(|k| k.1).collect();
        if !window.is_empty() {
            // A ring narrows no faster than it is walked (the mirror of
            // the widening bound): read from the kept skin just past a
            // flared root ring, it would leave the first piece's own root
            // skin outside (corpus seeds 300, 533, 560: 6, 13 and 7 tail
            // vertices at `u` 0-0.12).
            let narrowed = ring.reach - (hi - ring.level);
            ring = ring_of(&window, hi);
            ring.reach = ring.reach.max(narrowed);
        }
        next = end;
    }
    off.sort_unstable();
    off
}

/// The ring of `points` (its centre their mean) up to `level`.
fn ring_of(points: &[Vec3], level: f32) -> Ring {
    let c = points.iter().fold(glam::DVec3::ZERO, |a, p| a + p.as_dvec3()) / points.len() as f64;
    let centre = c.as_vec3();
    let mut d: Vec<f32> = points.iter().map(|p| p.distance(centre)).collect();
    d.sort_by(f32::total_cmp);
    Ring { centre, radius: d[d.len() / 2], reach: d[d.len() - 1], level }
}
