//! Chain geometry (SPEC T8): bone count from the geodesic length, joints
//! from geodesic bands, smoothing against zig-zag.

use glam::Vec3;

use crate::appendage::PartGeometry;
use crate::geometry::thickness;

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
/// T8); then `passes` rounds of `Ji <- Ji/2 + (Ji-1 + Ji+1)/4` on
/// interior joints (each round reads the previous round's joints only),
/// after which no joint stays more than [`JOINT_RING_SLACK`] of its ring's
/// radius from the ring's centre: smoothing may stop a zig-zag, not cut a
/// hanging tail's corner through its skin.
pub fn chain_joints(part: &PartGeometry, positions: &[Vec3], k: usize, passes: usize) -> Vec<Vec3> {
    let l = part.length;
    let mut joints = Vec::with_capacity(k + 1);
    let mut rings: Vec<Option<(Vec3, f32)>> = vec![None];
    joints.push(part.root);
    let half = 0.5 * l / k as f32;
    for i in 1..=k {
        let target = i as f32 * l / k as f32;
        let mut band: Vec<Vec3> = part
            .welded
            .iter()
            .zip(&part.geodesic)
            .filter(|(_, &g)| (g - target).abs() <= half)
            .map(|(&v, _)| positions[v as usize])
            .collect();
        let j = if !band.is_empty() {
            mean(band.iter().copied())
        } else {
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
            mean(band.iter().copied())
        };
        // The ring's radius: the skin's median distance from its centre.
        let mut d: Vec<f32> = band.iter().map(|p| p.distance(j)).collect();
        d.sort_by(f32::total_cmp);
        rings.push(d.get(d.len() / 2).map(|&r| (j, r)));
        joints.push(j);
    }
    for _ in 0..passes {
        let prev = joints.clone();
        for i in 1..k {
            joints[i] = 0.5 * prev[i] + 0.25 * (prev[i - 1] + prev[i + 1]);
        }
    }
    for i in 1..k {
        if let Some((c, r)) = rings[i] {
            let off = joints[i] - c;
            let most = JOINT_RING_SLACK * r;
            if off.length() > most {
                joints[i] = c + off.normalize_or_zero() * most;
            }
        }
    }
    joints
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
