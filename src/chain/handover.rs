//! The tail's root hands over (issue 13): across a band at the root of the
//! tail, as wide as the tail is thick there, the tail's skin goes from the
//! body's bone it hangs from (the pelvis, the chain's parent) to the
//! chain's weights.
//!
//! Why: whatever the rigger did with the tail (put it on a leg, the pelvis
//! or the spine), the chain's first ring of skin meets rump skin. If the
//! chain's weights started at that ring, one ring of edges would carry the
//! whole turn of the tail's first bone against the rump, and tear. Starting
//! the tail on the pelvis, as a tail bound rigidly to it would be, keeps
//! the seam as it is on the rigid tail; the chain takes over within the
//! root's thickness, so a thick tail's wide root and a thin tail's narrow
//! one bend over the same share of their thickness. Only the tail's own skin
//! changes: the body keeps the rigger's weights exactly. Decided from the
//! mesh (the part, where it meets the body, geodesic distance), never from
//! a truth file; the same for any rigger. (Starting from the weights of the
//! body skin next to the root instead was measured and rejected: on the
//! four Quaternius animals and the rat it tore 30 to 110 edges that the
//! rigid tail keeps, because a template rigger's rump skin follows a leg.)

use crate::geometry::{geodesic_within, MeshGraph, Weld};

/// Width of the hand-over band in radii of the tail's root ring (the
/// median distance of the tail's boundary vertices from their centre),
/// at most the first bone's length. 2.0 is the root's thickness: when the
/// first bone turns by `theta` against the pelvis, skin at the root's
/// radius `r` moves `theta r` relative to the rump, spread over a band of
/// width `W`, so its edges stretch by about `theta r / W` = `theta / 2`:
/// a turn of a whole radian stretches them by half, the torn line. (One
/// radius tore 264 edges the rigid tail keeps over the twelve degraded
/// fixtures' first two clips, two radii 218, none 309.) 0 turns the
/// hand-over off (the chain's weights start at the first ring).
pub const HANDOVER_RADII: f32 = 2.0;

/// The widest hand-over band, in root radii: wider would leave a tail's
/// first bone on the pelvis, which is not repairing it.
pub const MAX_HANDOVER_RADII: f32 = 8.0;

/// Where a part meets the rest of the mesh: its welded vertices with a
/// neighbour outside it, and the ring's radius.
pub struct RootRing {
    pub boundary: Vec<u32>,
    pub radius: f32,
}

/// The ring where `part` (sorted welded vertices) meets the body; `None`
/// for a separate shell (no edge to the body: no seam to hand over).
pub fn root_ring(weld: &Weld, graph: &MeshGraph, part: &[u32]) -> Option<RootRing> {
    let positions = &weld.positions;
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

/// The chain's share of a tail vertex at geodesic distance `d` from the
/// root ring, in a band of width `width`: 0 at the ring, 1 at the band's
/// end, smooth at both ends (no crease where the band starts or stops).
pub fn chain_share(d: f32, width: f32) -> f32 {
    if width <= 0.0 {
        return 1.0;
    }
    let x = (d / width).clamp(0.0, 1.0);
    x * x * (3.0 - 2.0 * x)
}

/// Each welded vertex of `part` within `width` of the ring (walking inside
/// the part), with the chain's share of it.
pub fn band(weld: &Weld, graph: &MeshGraph, part: &[u32], ring: &RootRing, width: f32) -> Vec<(u32, f32)> {
    if width <= 0.0 {
        return Vec::new();
    }
    geodesic_within(graph, &weld.positions, &ring.boundary, width, |w| part.binary_search(&w).is_ok())
        .into_iter()
        .map(|(v, d, _)| (v, chain_share(d, width)))
        .collect()
}

/// `share` of the chain's row and the rest on `parent`, merged.
pub fn blend(parent: u32, chain: &[(u32, f32)], share: f32) -> Vec<(u32, f32)> {
    let mut row: Vec<(u32, f32)> = chain.iter().map(|&(j, w)| (j, w * share)).collect();
    match row.iter_mut().find(|(j, _)| *j == parent) {
        Some(e) => e.1 += 1.0 - share,
        None => row.push((parent, 1.0 - share)),
    }
    row.retain(|&(_, w)| w > 0.0);
    row.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    row
}
