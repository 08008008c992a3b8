//! Root extension: the far threshold cuts a tail where its skin comes within
//! 0.07 H of a bone, which on a short or thick tail is well up the tail
//! (the Alpaca loses half of it). The tail continues towards the body as a
//! tube; this follows that tube back from the collar along the tail's axis
//! and stops where the surface flares out into the body (wider than the
//! tube) or after a bounded depth.

use glam::Vec3;

use crate::geometry::MeshGraph;

/// Share of the tail length (from the collar) whose skin gives the axis
/// direction at the root.
pub const ROOT_BAND: f32 = 0.3;
/// A vertex is still tube while its distance from the axis is at most this
/// factor of the collar's (the cross-section where the threshold cut).
pub const ROOT_RADIUS_SLACK: f32 = 1.0;
/// How far behind the collar, in root radii, the tube is followed. One full
/// radius: at 0.75 the Alpaca's underside ring stays on the legs and the
/// grown chain tears 23% of the tail's edges on Walk (0% at 1.0); at 0.5
/// recall falls to 0.86. A full radius also reaches three welded vertices
/// of rump skin (precision 0.91); where the rigger's weights show a tail
/// pattern they keep those on the body ([`super::rigger_root`]: the three
/// are mostly on the pelvis, the underside ring mostly on the legs).
pub const ROOT_DEPTH: f32 = 1.0;

/// Extra welded vertices that continue the tube of a part towards the body.
/// `taken[v]` marks vertices that may not be claimed (other parts); only
/// vertices passing `keep` are followed (the rigger's weights, see
/// [`super::rigger_root`]).
#[allow(clippy::too_many_arguments)]
pub fn extend_root(
    graph: &MeshGraph,
    positions: &[Vec3],
    welded: &[u32],
    collar: &[u32],
    geodesic: &[f32],
    length: f32,
    taken: &[bool],
    keep: &dyn Fn(u32) -> bool,
) -> Vec<u32> {
    if collar.is_empty() || welded.is_empty() || length.is_nan() || length <= 0.0 {
        return Vec::new();
    }
    let mean = |it: &mut dyn Iterator<Item = Vec3>| {
        let (mut acc, mut n) = (glam::DVec3::ZERO, 0usize);
        for p in it {
            acc += p.as_dvec3();
            n += 1;
        }
        (n > 0).then(|| (acc / n as f64).as_vec3())
    };
    let j0 = mean(&mut collar.iter().map(|&v| positions[v as usize])).unwrap();
    let band: Vec<Vec3> = welded
        .iter()
        .zip(geodesic)
        .filter(|(_, &g)| g <= ROOT_BAND * length)
        .map(|(&v, _)| positions[v as usize])
        .collect();
    let Some(c1) = mean(&mut band.iter().copied()) else { return Vec::new() };
    let axis = (j0 - c1).normalize_or_zero();
    if axis == Vec3::ZERO {
        return Vec::new();
    }
    let perp = |p: Vec3| {
        let d = p - j0;
        (d - axis * d.dot(axis)).length()
    };
    // Root cross-section: the collar, where the far threshold cut the tube.
    let radius = collar.iter().map(|&v| perp(positions[v as usize])).fold(0.0f32, f32::max);
    if radius.is_nan() || radius <= 0.0 {
        return Vec::new();
    }
    let limit = ROOT_RADIUS_SLACK * radius;
    let depth = ROOT_DEPTH * radius;
    let in_part = |v: u32| welded.binary_search(&v).is_ok();
    let accept = |v: u32| {
        let p = positions[v as usize];
        !taken[v as usize]
            && !in_part(v)
            && perp(p) <= limit
            && (p - j0).dot(axis) <= depth
            && keep(v)
    };
    graph.flood(collar.iter().copied(), accept)
}
