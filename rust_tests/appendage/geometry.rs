//! The geometry against plain references: the welded mesh graph (each row
//! the vertex's neighbours, each once, sorted; the shells the components of
//! the whole graph) and the skeleton field (every segment measured).

use std::collections::BTreeSet;

use caudal::geometry::{MeshGraph, SkeletonField, LEAF_STUB_RATIO};
use glam::Vec3;

use super::synth;

/// Pseudo-random triangles over `n` vertices: repeated edges, repeated
/// triangles, degenerate corners (a welded vertex twice) and isolated vertices.
fn scrambled_triangles(n: u32, count: usize) -> Vec<[u32; 3]> {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    (0..count)
        .map(|_| {
            let a = (next() % u64::from(n - 8)) as u32;
            // Most corners close to the first (a mesh's locality), some anywhere.
            let pick = |r: u64| {
                if r.is_multiple_of(11) {
                    (r >> 8) as u32 % n
                } else {
                    a + (r % 8) as u32
                }
            };
            [a, pick(next()), pick(next())]
        })
        .collect()
}

#[test]
fn graph_rows_are_each_vertexs_neighbours_once_sorted() {
    let n = 500;
    let triangles = scrambled_triangles(n, 1200);
    let graph = MeshGraph::from_triangles(n as usize, &triangles);
    let mut rows = vec![BTreeSet::new(); n as usize];
    for t in &triangles {
        for (a, b) in [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])] {
            if a != b {
                rows[a as usize].insert(b);
                rows[b as usize].insert(a);
            }
        }
    }
    assert_eq!(graph.vertex_count(), n as usize);
    for (v, row) in rows.iter().enumerate() {
        assert_eq!(graph.neighbors_of(v), row.iter().copied().collect::<Vec<u32>>(), "row {v}");
    }
    assert!(rows.iter().any(|r| r.is_empty()), "the test mesh has isolated vertices");
    // The shells are the components with every vertex kept, numbered alike.
    assert_eq!(graph.shells(), graph.components(&vec![true; n as usize]));
    assert!(graph.shells().1 > 1);
}

/// The skeleton distance of `p` with every segment measured, in the
/// field's own arithmetic.
fn every_segment_distance(field: &SkeletonField, p: Vec3) -> f32 {
    let mut best = f32::INFINITY;
    for s in &field.segments {
        let ab = s.b - s.a;
        let l2 = ab.length_squared();
        let inv = if l2 > 0.0 { 1.0 / l2 } else { 0.0 };
        let (apx, apy, apz) = (p.x - s.a.x, p.y - s.a.y, p.z - s.a.z);
        let t = (((apx * ab.x) + (apy * ab.y) + (apz * ab.z)) * inv).clamp(0.0, 1.0);
        let (dx, dy, dz) = (apx - t * ab.x, apy - t * ab.y, apz - t * ab.z);
        let d = (dx * dx) + (dy * dy) + (dz * dz);
        best = if d < best { d } else { best };
    }
    best.sqrt()
}

#[test]
fn skeleton_field_skips_only_segments_that_change_nothing() {
    let mut b = synth::Builder::humanoid_dense(12);
    let tail = b.add_tube(&synth::tail_path(1.0), 0.05, 0.02, 40, 12, 8);
    b.weight_like_template_rigger(tail);
    let rig = b.build();
    let field = SkeletonField::new(&rig, LEAF_STUB_RATIO);
    // The mesh's own vertices (chunks on patches of skin, most segments
    // skipped), then points scattered over and round its box (chunks
    // spread wide, few skipped).
    let mut points = rig.vertices().to_vec();
    let (lo, hi) = points
        .iter()
        .fold((Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)), |(l, h), &p| (l.min(p), h.max(p)));
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut unit = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 40) as f32 / (1u64 << 24) as f32
    };
    for _ in 0..9000 {
        let t = Vec3::new(unit(), unit(), unit()) * 1.4 - 0.2;
        points.push(lo + t * (hi - lo));
    }
    let fast = field.distances(&points);
    assert!(points.len() > 3 * 4096);
    for (i, &p) in points.iter().enumerate() {
        let want = every_segment_distance(&field, p);
        assert_eq!(fast[i].to_bits(), want.to_bits(), "point {i} at {p}");
    }
}
