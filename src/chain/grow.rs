//! Chain geometry (SPEC T8): bone count from the geodesic length, joints
//! from geodesic bands, smoothing against zig-zag.

use glam::Vec3;

use crate::appendage::PartGeometry;
use crate::geometry::{thickness, MeshGraph};

/// How many vertices nearest in `g` stand in for an empty geodesic band
/// (a coarse mesh can skip a band entirely).
pub const EMPTY_BAND_FALLBACK: usize = 8;

/// `K = clamp(round(L / (segment_ratio H)), min, max)`.
pub fn bone_count(
    length: f32,
    height: f32,
    segment_ratio: f32,
    min_bones: usize,
    max_bones: usize,
) -> usize {
    let k = (length / (segment_ratio * height)).round();
    let k = if k.is_finite() && k > 0.0 { k as usize } else { 0 };
    k.clamp(min_bones, max_bones)
}

/// Joints `J0..JK`: `J0` where the tail leaves the body (see
/// [`PartGeometry::root`]), `Ji` the centre of the skin round geodesic
/// `i L / K`: the centroid of the skin within half a segment of it (SPEC
/// T8), held within [`JOINT_RING_SLACK`] of the radius of the skin's ring
/// at `i L / K` from that ring's centre (`level_ring`): a segment-long
/// band's centroid lies on the chord of any bend in it, and on a thin tail
/// whose bones are 4-20 radii long, landing on the floor, that chord runs
/// 1-3 radii outside the skin (the generated corpus's joint_outside
/// class); on a straight stretch the two agree. Then `passes` rounds of
/// `Ji <- Ji/2 + (Ji-1 + Ji+1)/4` on interior joints (each round reads the
/// previous round's joints only), after which no joint stays more than
/// [`JOINT_RING_SLACK`] of its ring's radius from the ring's centre:
/// smoothing may stop a zig-zag, not cut a hanging tail's corner through
/// its skin. The end joint `JK` keeps the band's centroid: at `L`, the 99th
/// percentile of `g`, the level set is a small loop on the tip's cap,
/// tilted wherever `g` is not even round the tail (a fur shell reached
/// from one side), and its centre swings a tip radius aside.
pub fn chain_joints(
    part: &PartGeometry,
    positions: &[Vec3],
    graph: &MeshGraph,
    k: usize,
    passes: usize,
) -> Vec<Vec3> {
    let l = part.length;
    let edges = part_edges(part, graph);
    let shells = part_shells(part, &edges);
    let mut joints = Vec::with_capacity(k + 1);
    let mut rings: Vec<Option<(Vec3, f32)>> = vec![None];
    joints.push(part.root);
    for i in 1..=k {
        let target = i as f32 * l / k as f32;
        let (band, band_radius) = band_centre(part, positions, target, 0.5 * l / k as f32);
        let ring = if i < k { level_ring(part, positions, &edges, &shells, target) } else { None };
        let ring = ring.or(band_radius.map(|r| (band, r)));
        joints.push(ring.map_or(band, |(c, r)| held(band, c, JOINT_RING_SLACK * r)));
        rings.push(ring);
    }
    for _ in 0..passes {
        let prev = joints.clone();
        for i in 1..k {
            joints[i] = 0.5 * prev[i] + 0.25 * (prev[i - 1] + prev[i + 1]);
        }
    }
    for i in 1..k {
        if let Some((c, r)) = rings[i] {
            joints[i] = held(joints[i], c, JOINT_RING_SLACK * r);
        }
    }
    joints
}

/// `p` moved straight towards `c` until it is at most `most` from it.
fn held(p: Vec3, c: Vec3, most: f32) -> Vec3 {
    let off = p - c;
    if off.length() > most {
        c + off.normalize_or_zero() * most
    } else {
        p
    }
}

/// The centroid of the skin whose geodesic lies within `half` of `target`
/// (the [`EMPTY_BAND_FALLBACK`] vertices nearest it when a coarse mesh
/// skips the band) and the skin's median distance from it.
fn band_centre(
    part: &PartGeometry,
    positions: &[Vec3],
    target: f32,
    half: f32,
) -> (Vec3, Option<f32>) {
    let mut band: Vec<Vec3> = part
        .welded
        .iter()
        .zip(&part.geodesic)
        .filter(|(_, &g)| (g - target).abs() <= half)
        .map(|(&v, _)| positions[v as usize])
        .collect();
    if band.is_empty() {
        let mut order: Vec<usize> =
            (0..part.welded.len()).filter(|&i| part.geodesic[i].is_finite()).collect();
        order.sort_by(|&a, &b| {
            (part.geodesic[a] - target)
                .abs()
                .total_cmp(&(part.geodesic[b] - target).abs())
                .then(a.cmp(&b))
        });
        band = order
            .iter()
            .take(EMPTY_BAND_FALLBACK)
            .map(|&i| positions[part.welded[i] as usize])
            .collect();
    }
    centre_and_radius(&band)
}

/// The mean of `points` and their median distance from it.
fn centre_and_radius(points: &[Vec3]) -> (Vec3, Option<f32>) {
    let c = mean(points.iter().copied());
    let mut d: Vec<f32> = points.iter().map(|p| p.distance(c)).collect();
    (c, crate::stats::median(&mut d))
}

/// The part's edges as pairs of indices into `part.welded`, each once, both
/// ends with a finite geodesic.
fn part_edges(part: &PartGeometry, graph: &MeshGraph) -> Vec<(usize, usize)> {
    // Each vertex's place in the part, looked up per edge instead of a
    // binary search per edge (a tail's part holds tens of thousands).
    let mut index = vec![u32::MAX; graph.vertex_count()];
    for (a, &v) in part.welded.iter().enumerate() {
        index[v as usize] = a as u32;
    }
    let mut out = Vec::new();
    for (a, &v) in part.welded.iter().enumerate() {
        if !part.geodesic[a].is_finite() {
            continue;
        }
        for &w in graph.neighbors_of(v as usize) {
            if w > v && index[w as usize] != u32::MAX {
                let b = index[w as usize] as usize;
                if part.geodesic[b].is_finite() {
                    out.push((a, b));
                }
            }
        }
    }
    out
}

/// The skin's ring at geodesic `target`: the mean of the points where the
/// part's `edges` cross the level set `g = target`, and their median
/// distance from it (the ring's radius). A ring is as thin as the level
/// set, so a bend does not pull its centre off the tail's axis; `None`
/// where no edge crosses the level.
///
/// A part of several shells (`shell`: each `part.welded` index's shell, as
/// [`part_shells`] labels them) crosses the level once per shell, and the
/// shells' coordinates need not agree: fur reached from its own base runs
/// ahead of the skin under it (corpus seed 244: the fur's crossing lies 2
/// skin radii nearer the root than the skin's). The crossings together
/// are then two rings apart along the tail, their median distance from
/// their mean measures that gap, not the tail (1.4-1.8 skin radii there),
/// and a joint held within half of it leaves the skin. So the ring read
/// is the innermost shell's own, the skin under the fur: of the shells'
/// rings whose centre lies inside the whole crossing (a layer of the tube,
/// not a piece at its rim), the one of least radius, with its own centre.
pub fn level_ring(
    part: &PartGeometry,
    positions: &[Vec3],
    edges: &[(usize, usize)],
    shell: &[u32],
    target: f32,
) -> Option<(Vec3, f32)> {
    let at = |a: usize| positions[part.welded[a] as usize];
    let (ring, of): (Vec<Vec3>, Vec<u32>) = edges
        .iter()
        .filter_map(|&(a, b)| {
            let (ga, gb) = (part.geodesic[a], part.geodesic[b]);
            let ((lo, glo), (hi, ghi)) =
                if ga <= gb { ((a, ga), (b, gb)) } else { ((b, gb), (a, ga)) };
            (glo < target && target <= ghi)
                .then(|| (at(lo).lerp(at(hi), (target - glo) / (ghi - glo).max(1e-12)), shell[lo]))
        })
        .unzip();
    let (c, r) = match centre_and_radius(&ring) {
        (c, Some(r)) => (c, r),
        _ => return None,
    };
    let mut shells = of.clone();
    shells.sort_unstable();
    shells.dedup();
    if shells.len() < 2 {
        return Some((c, r));
    }
    shells
        .iter()
        .filter_map(|&s| {
            let own: Vec<Vec3> =
                ring.iter().zip(&of).filter(|(_, &x)| x == s).map(|(&p, _)| p).collect();
            match centre_and_radius(&own) {
                (cs, Some(rs)) if own.len() >= 3 && cs.distance(c) <= r => Some((cs, rs)),
                _ => None,
            }
        })
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .or(Some((c, r)))
}

/// Each `part.welded` index's shell: the connected piece of the part its
/// `edges` put it in, labelled by the piece's least index.
fn part_shells(part: &PartGeometry, edges: &[(usize, usize)]) -> Vec<u32> {
    let mut up: Vec<u32> = (0..part.welded.len() as u32).collect();
    fn root(up: &mut [u32], mut a: u32) -> u32 {
        while up[a as usize] != a {
            up[a as usize] = up[up[a as usize] as usize];
            a = up[a as usize];
        }
        a
    }
    for &(a, b) in edges {
        let (ra, rb) = (root(&mut up, a as u32), root(&mut up, b as u32));
        up[ra.max(rb) as usize] = ra.min(rb);
    }
    (0..up.len() as u32).map(|a| root(&mut up, a)).collect()
}

/// How far from its ring's centre, in ring radii, a smoothed joint may sit.
pub const JOINT_RING_SLACK: f32 = 0.5;

/// How thick the tail is: twice the 90th percentile of the skin's distance
/// from the chain's centre line `joints` (a radius the bushy side of a tail
/// reaches, not its thinnest ring).
pub fn tail_thickness(part: &PartGeometry, positions: &[Vec3], joints: &[Vec3]) -> f32 {
    thickness(part.welded.iter().map(|&v| positions[v as usize]), joints)
}

/// `K` lowered so no bone is shorter than `ratio` times the tail's
/// thickness: a bone shorter than its skin is thick folds that skin when it
/// bends (the bushy Khronos fox grew 8 bones of 0.09 H on a tail 0.28 H
/// thick, and its low-poly rings, one every 3 bones, tore 9% of their edges
/// on Run). Never below `min_bones`; `ratio` 0 keeps `k`.
pub fn thickness_cap(k: usize, length: f32, thickness: f32, ratio: f32, min_bones: usize) -> usize {
    if ratio <= 0.0 || thickness <= 0.0 || !length.is_finite() {
        return k;
    }
    let most = (length / (ratio * thickness)).round();
    let most = if most.is_finite() && most > 0.0 { most as usize } else { 0 };
    k.min(most.max(min_bones))
}

fn mean(points: impl Iterator<Item = Vec3>) -> Vec3 {
    let mut acc = glam::DVec3::ZERO;
    let mut n = 0usize;
    for p in points {
        acc += p.as_dvec3();
        n += 1;
    }
    if n == 0 {
        Vec3::ZERO
    } else {
        (acc / n as f64).as_vec3()
    }
}
