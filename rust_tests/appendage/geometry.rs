//! The geometry against plain references: the welded mesh graph (each row
//! the vertex's neighbours, each once, sorted; the shells the components of
//! the whole graph) and the skeleton field (every segment measured).

use std::collections::BTreeSet;

use caudal::appendage::{
    in_walking_order, next_to, rig_vertices, RIG_MARKS_SHARE, RING_SIDE_SHARE,
};
use caudal::geometry::{MeshGraph, SkeletonField, Weld, LEAF_STUB_RATIO};
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

/// `vertices` split by a components labelling of the whole mesh (what
/// `MeshGraph::pieces` did before stop 41): pieces numbered by their lowest
/// vertex, each in `vertices`' order.
fn pieces_by_mask(graph: &MeshGraph, vertices: &[u32]) -> Vec<Vec<u32>> {
    let mut keep = vec![false; graph.vertex_count()];
    vertices.iter().for_each(|&v| keep[v as usize] = true);
    let (piece_of, count) = graph.components(&keep);
    let mut pieces = vec![Vec::new(); count];
    for &v in vertices {
        pieces[piece_of[v as usize] as usize].push(v);
    }
    pieces
}

#[test]
fn pieces_over_the_sets_own_ids_match_the_whole_mesh_labelling() {
    let n = 500;
    let graph = MeshGraph::from_triangles(n as usize, &scrambled_triangles(n, 700));
    for step in [2u32, 3, 5, 7, 11] {
        let sorted: Vec<u32> = (0..n).filter(|v| v % step != 1).collect();
        // Unsorted, with repeats: each piece keeps the input's order.
        let mut shuffled: Vec<u32> = sorted.iter().map(|v| (v * 37 + step) % n).collect();
        shuffled.extend_from_slice(&sorted[..20]);
        for vertices in [&sorted, &shuffled] {
            let pieces = graph.pieces(vertices);
            assert_eq!(pieces, pieces_by_mask(&graph, vertices), "step {step}");
        }
        assert!(graph.pieces(&sorted).len() > 1);
    }
}

/// The cut centre by a pass over the part's rows (before stop 41).
fn cut_centre_by_part(
    graph: &MeshGraph,
    positions: &[Vec3],
    welded: &[u32],
    collar: &[u32],
) -> Vec3 {
    let (mut acc, mut n) = (glam::DVec3::ZERO, 0usize);
    for &v in welded {
        for &w in graph.neighbors_of(v as usize) {
            if welded.binary_search(&w).is_err() && collar.binary_search(&w).is_ok() {
                acc += (0.5 * (positions[v as usize] + positions[w as usize])).as_dvec3();
                n += 1;
            }
        }
    }
    if n == 0 {
        let sum: glam::DVec3 = collar.iter().map(|&v| positions[v as usize].as_dvec3()).sum();
        return (sum / collar.len() as f64).as_vec3();
    }
    (acc / n as f64).as_vec3()
}

#[test]
fn cut_centre_from_the_collars_side_is_the_parts_to_the_bit() {
    let n = 500;
    let graph = MeshGraph::from_triangles(n as usize, &scrambled_triangles(n, 1200));
    let positions: Vec<Vec3> = (0..n)
        .map(|i| {
            let t = i as f32;
            Vec3::new((t * 0.731).sin() * 3.1, (t * 1.37).cos() * 0.7 + t * 0.013, (t * 0.19).sin())
        })
        .collect();
    for step in [17u32, 29, 50] {
        let welded: Vec<u32> = (0..n).filter(|v| v % step != 0).collect();
        let outside: Vec<u32> = (0..n).filter(|v| v % step == 0).collect();
        // A collar outside the part, one holding some of the part's own
        // vertices too, and one wholly inside it (a detached shell's).
        let mixed: Vec<u32> = (0..n).filter(|v| v % step == 0 || v % 97 == 3).collect();
        let inside: Vec<u32> = welded.iter().copied().filter(|v| v % 61 == 5).collect();
        for collar in [&outside, &mixed, &inside] {
            let got = caudal::appendage::cut_centre(&graph, &positions, &welded, collar);
            let want = cut_centre_by_part(&graph, &positions, &welded, collar);
            assert_eq!(got.to_array().map(f32::to_bits), want.to_array().map(f32::to_bits));
        }
    }
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

/// A strip of triangles two rows of ten vertices deep: the top row 0..10,
/// the bottom row 10..20, vertex `i` above `10 + i`.
fn strip() -> MeshGraph {
    let triangles: Vec<[u32; 3]> =
        (0..9u32).flat_map(|i| [[i, i + 1, 10 + i], [i + 1, 11 + i, 10 + i]]).collect();
    MeshGraph::from_triangles(20, &triangles)
}

fn marked(count: usize, vertices: &[u32]) -> Vec<bool> {
    let mut marks = vec![false; count];
    vertices.iter().for_each(|&v| marks[v as usize] = true);
    marks
}

#[test]
fn next_to_finds_the_parts_vertices_beside_the_ring_from_either_side() {
    let graph = strip();
    let ring = [0u32, 10];
    // The whole strip past its first column: 18 vertices against a ring of
    // two, read from the ring's side. Beside 0 and 10 lie 1 and 11 only.
    let part: Vec<u32> = (1..10).chain(11..20).collect();
    assert!(ring.len() * RING_SIDE_SHARE <= part.len());
    assert_eq!(next_to(&graph, &part, &marked(20, &part), &ring), vec![1, 11]);
    // The second and third columns: a part too small for the ring's side.
    let part = [1u32, 2, 11, 12];
    assert!(ring.len() * RING_SIDE_SHARE > part.len());
    assert_eq!(next_to(&graph, &part, &marked(20, &part), &ring), vec![1, 11]);
    // Larger rings and parts on a scrambled mesh: the list a plain filter of
    // the part gives, whichever side is read.
    let n = 500;
    let graph = MeshGraph::from_triangles(n as usize, &scrambled_triangles(n, 700));
    let mut sides = [0, 0];
    for (step, take) in [(3u32, 60), (5, 20), (13, 60), (41, 60)] {
        let part: Vec<u32> = (0..n).filter(|v| v % step != 0).collect();
        let ring: Vec<u32> = (0..n).filter(|v| v % step == 0).take(take).collect();
        sides[usize::from(ring.len() * RING_SIDE_SHARE <= part.len())] += 1;
        let reference: Vec<u32> = part
            .iter()
            .copied()
            .filter(|&v| graph.neighbors_of(v as usize).iter().any(|w| ring.contains(w)))
            .collect();
        let found = next_to(&graph, &part, &marked(n as usize, &part), &ring);
        assert_eq!(found, reference, "step {step}");
        assert!(!found.is_empty());
    }
    // Both sides were read.
    assert_eq!(sides, [1, 3]);
}

#[test]
fn walking_order_is_by_distance_then_vertex() {
    let walked = [(5u32, 0.5f32), (2, 0.0), (7, 0.5), (1, 1.25), (3, 0.0), (4, f32::INFINITY)];
    let order = in_walking_order(&walked);
    assert_eq!(order, vec![(2, 0.0), (3, 0.0), (5, 0.5), (7, 0.5), (1, 1.25), (4, f32::INFINITY)]);
    // A sign bit set (no walk gives one) is ordered as the floats' total
    // order has it: -1 first, then -0 before +0.
    let signed = in_walking_order(&[(4, 0.0), (6, -0.0), (9, -1.0)]);
    let bits: Vec<(u32, u32)> = signed.iter().map(|&(v, d)| (v, d.to_bits())).collect();
    assert_eq!(bits, vec![(9, (-1.0f32).to_bits()), (6, (-0.0f32).to_bits()), (4, 0)]);
}

#[test]
fn rig_vertices_lists_every_copy_behind_the_welded_vertices_sorted() {
    // A hundred points along a line, then copies of points 7 and 3 (rig
    // vertices 100 and 101), welded into their originals.
    let mut points: Vec<Vec3> = (0..100).map(|i| Vec3::new(i as f32, 0.0, 0.0)).collect();
    points.push(points[7]);
    points.push(points[3]);
    let weld = Weld::by_position(&points, 1e-3);
    assert_eq!(weld.count(), 100);
    // One welded vertex: a small share, collected and sorted.
    assert!(RIG_MARKS_SHARE < weld.count());
    assert_eq!(rig_vertices(&weld, &[3]), vec![3, 101]);
    // Fourteen, a share past the marks' threshold, read off the marks.
    let many: Vec<u32> = [3, 7].into_iter().chain(50..62).collect();
    assert!(many.len() * RIG_MARKS_SHARE >= 100);
    let expected: Vec<u32> = [3, 7].into_iter().chain(50..62).chain([100, 101]).collect();
    assert_eq!(rig_vertices(&weld, &many), expected);
    // Not sorted: collected and sorted whatever its share.
    let reversed: Vec<u32> = many.iter().rev().copied().collect();
    assert_eq!(rig_vertices(&weld, &reversed), expected);
    assert_eq!(rig_vertices(&weld, &[]), Vec::<u32>::new());
}

/// Each vertex's weighted bone distance is the scalar formula's to the bit:
/// the sum over its weighted joints of the weight times the distance to the
/// joint's nearest segment of the skeleton field
/// ([`caudal::geometry::point_segment_distance`]), on every vertex of the
/// degraded fixtures and of their grown rigs (the distance is measured in
/// SIMD lanes).
#[test]
fn bone_distance_is_the_scalar_formula_to_the_bit() {
    use caudal::chain::{grow_chains, ChainParams};
    use caudal::geometry::{point_segment_distance, weighted_bone_distances};
    for &(glb, _) in &crate::files::TRUTHS[..4] {
        let model = crate::common::load(glb);
        let rig = model.rig().unwrap();
        let (grown, _) = grow_chains(rig, &ChainParams::default()).unwrap();
        for r in [rig, &grown] {
            let field = SkeletonField::new(r, LEAF_STUB_RATIO);
            let measured = weighted_bone_distances(r, None).unwrap();
            for (v, &d) in measured.iter().enumerate() {
                let p = r.vertices()[v];
                let (js, ws) = r.influences().of(v);
                let mut sum = 0.0f32;
                for (&j, &w) in js.iter().zip(ws).filter(|(_, &w)| w > 0.0) {
                    let nearest = field
                        .segments
                        .iter()
                        .filter(|s| s.joint == j as usize)
                        .map(|s| point_segment_distance(p, s.a, s.b))
                        .fold(f32::INFINITY, f32::min);
                    sum += w * nearest;
                }
                assert_eq!(d.to_bits(), sum.to_bits(), "{glb} vertex {v}: {d} against {sum}");
            }
        }
    }
}
