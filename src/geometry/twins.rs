//! Twins: one place of a surface modelled twice. A sheet given a back face
//! (a feathered tail, a cape, a fin) is often two layers of triangles a
//! hair apart, joined only along an edge or at the tip. Welding keeps them
//! apart (its tolerance only absorbs float noise), so the mesh graph walks
//! out along one face and back along the other: the phoenix's ribbon
//! (`assets/phoenix_bird`) has faces 0.05 units apart under edges of 6 to
//! 30 units (H 333), and its back face's vertex beside the root read 952
//! of a 956-unit coordinate, its front twin 38. A coordinate along the part
//! lets twins share their place.

use glam::Vec3;

use super::MeshGraph;

/// Two vertices are twins when they lie nearer each other than this share
/// of the shorter of their shortest edges. Why this size: the coordinate
/// is a walk along edges, so it cannot tell apart places closer than a
/// small fraction of an edge anyway; and surfaces a modeller means apart
/// stand much further. The phoenix's two faces come at 0.0016 to 0.0084 of
/// an edge; on the generated corpus (seeds 0..2200 and 40000..46000, every
/// chain part) the nearest vertices of different places of one part (a fur
/// tip by the skin, a curl touching itself: a walk of a tenth of the tail
/// or more between them) are 0.032 of an edge apart at the least, and
/// most a third of an edge or more.
pub const TWIN_EDGE_SHARE: f32 = 0.01;

/// The line the search for twins sorts along: unit, and off every axis and
/// diagonal a model is built on.
const SWEEP: Vec3 = Vec3::new(0.8017837, 0.5345225, 0.2672612);

/// The twin pairs among `subset` (sorted, unique vertex ids): `(a, b, d)`
/// with `a < b` places in `subset` and `d` their distance, sorted. A vertex
/// without an edge has no twin.
pub fn twin_pairs(graph: &MeshGraph, positions: &[Vec3], subset: &[u32]) -> Vec<(u32, u32, f32)> {
    let reach: Vec<f32> = subset
        .iter()
        .map(|&v| {
            let p = positions[v as usize];
            let shortest = graph
                .neighbors_of(v as usize)
                .iter()
                .map(|&w| p.distance_squared(positions[w as usize]))
                .fold(f32::INFINITY, f32::min)
                .sqrt();
            if shortest.is_finite() {
                TWIN_EDGE_SHARE * shortest
            } else {
                0.0
            }
        })
        .collect();
    // Swept along a line no modeller's axis lies across: sorted along x, a
    // ring modelled across x shares one key, and the 200k-vertex bench
    // creature's sweep met hundreds of vertices per step (0.5 s). Each
    // vertex looks ahead only within its own reach: a pair nearer than
    // both reaches is found from whichever comes first.
    let along: Vec<f32> = subset.iter().map(|&v| positions[v as usize].dot(SWEEP)).collect();
    // One integer per vertex, its place along the line made to order as
    // the number does, above the vertex: integers sort at half the cost of
    // pairs compared by `total_cmp`.
    let mut order: Vec<u64> = along
        .iter()
        .enumerate()
        .map(|(v, &t)| (u64::from(ordered_bits(t)) << 32) | v as u64)
        .collect();
    order.sort_unstable();
    let mut out = Vec::new();
    for (k, &ka) in order.iter().enumerate() {
        let a = ka as u32 as usize;
        if reach[a] <= 0.0 {
            continue;
        }
        for &kb in &order[k + 1..] {
            let b = kb as u32 as usize;
            if along[b] - along[a] > reach[a] {
                break;
            }
            let d = positions[subset[a] as usize].distance(positions[subset[b] as usize]);
            if d < reach[a].min(reach[b]) {
                out.push((a.min(b) as u32, a.max(b) as u32, d));
            }
        }
    }
    out.sort_by_key(|p| (p.0, p.1));
    out
}

/// `x`'s bits, made to order as the numbers do (negatives below positives).
fn ordered_bits(x: f32) -> u32 {
    let b = x.to_bits();
    if b >> 31 == 1 {
        !b
    } else {
        b | 0x8000_0000
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A strip of two faces a hair apart, joined at one end: the far ends'
    /// vertices are twins, the joined end's shared vertices are one vertex,
    /// and the strip's own neighbours never are.
    #[test]
    fn a_sheets_two_faces_are_twins_and_its_edges_are_not() {
        // Front: 0..4 along x at y 0; back: 4..8 at y 0.001; joined at x 3
        // by sharing vertex 3 (the back's last is the front's last).
        let mut positions: Vec<Vec3> = (0..4).map(|i| Vec3::new(i as f32, 0.0, 0.0)).collect();
        positions.extend((0..3).map(|i| Vec3::new(i as f32, 0.001, 0.0)));
        // Rows across each face: z 1.
        positions.extend((0..4).map(|i| Vec3::new(i as f32, 0.0, 1.0)));
        let mut tris = Vec::new();
        for i in 0..3u32 {
            tris.push([i, i + 1, 7 + i]);
            tris.push([i + 1, 8 + i, 7 + i]);
            let (b, b1) = (4 + i, if i == 2 { 3 } else { 5 + i });
            tris.push([b, b1, 7 + i]);
        }
        let graph = MeshGraph::from_triangles(positions.len(), &tris);
        let subset: Vec<u32> = (0..positions.len() as u32).collect();
        let pairs = twin_pairs(&graph, &positions, &subset);
        let got: Vec<(u32, u32)> = pairs.iter().map(|p| (p.0, p.1)).collect();
        assert_eq!(got, vec![(0, 4), (1, 5), (2, 6)]);
        assert!(pairs.iter().all(|p| (p.2 - 0.001).abs() < 1e-6));
    }

    /// A strip of two faces a hair apart, joined only at the far end: a
    /// coordinate walked from the front face's root runs round the far end
    /// to the back face (the back's root reads twice the strip's length);
    /// relaxed across twins, each back vertex reads its front twin's value
    /// plus the gap, and a strip without twins is left alone.
    #[test]
    fn a_two_faced_strip_read_across_twins_reads_each_face_where_it_lies() {
        use crate::geometry::{geodesic_from, relax_across_twins};
        let n = 6u32;
        // Front: columns 0..=n at y 0, rows z 0 and z 1 (vertex 2i + row).
        let mut positions: Vec<Vec3> = Vec::new();
        for i in 0..=n {
            positions.push(Vec3::new(i as f32, 0.0, 0.0));
            positions.push(Vec3::new(i as f32, 0.0, 1.0));
        }
        // Back: columns 0..n at y 0.001; its column n is the front's.
        let back = |i: u32, row: u32| if i == n { 2 * n + row } else { 2 * (n + 1) + 2 * i + row };
        for i in 0..n {
            positions.push(Vec3::new(i as f32, 0.001, 0.0));
            positions.push(Vec3::new(i as f32, 0.001, 1.0));
        }
        let front = |i: u32, row: u32| 2 * i + row;
        let mut tris = Vec::new();
        for i in 0..n {
            for f in [&front as &dyn Fn(u32, u32) -> u32, &back] {
                tris.push([f(i, 0), f(i + 1, 0), f(i + 1, 1)]);
                tris.push([f(i, 0), f(i + 1, 1), f(i, 1)]);
            }
        }
        let graph = MeshGraph::from_triangles(positions.len(), &tris);
        let subset: Vec<u32> = (0..positions.len() as u32).collect();
        let g = geodesic_from(&graph, &positions, &subset, &[front(0, 0), front(0, 1)]);
        assert!((g[back(0, 0) as usize] - 2.0 * n as f32).abs() < 1e-4);
        let relaxed = relax_across_twins(&graph, &positions, &subset, &g).unwrap();
        for i in 0..=n {
            for row in 0..2 {
                let (f, b) = (front(i, row) as usize, back(i, row) as usize);
                assert_eq!(relaxed[f], g[f], "front column {i}");
                assert!((relaxed[b] - (g[f] + if i == n { 0.0 } else { 0.001 })).abs() < 1e-4);
            }
        }
        let one_face: Vec<u32> = (0..2 * (n + 1)).collect();
        let g1 = geodesic_from(&graph, &positions, &one_face, &[0, 1]);
        assert!(relax_across_twins(&graph, &positions, &one_face, &g1).is_none());
    }
}
