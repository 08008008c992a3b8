//! Whether a point lies inside a closed surface: the generalized winding
//! number (the solid angle the surface's triangles subtend at the point
//! over 4 pi), about 1 inside a closed, consistently wound surface, 0
//! outside, and a fraction near a hole; its sign flips with the winding.

use glam::{DVec3, Vec3};

/// The winding number of `triangles` (indices into `positions`) round `p`.
/// Summed in order in `f64`: the same triangles give the same number, on
/// any thread count.
pub fn winding_number(p: Vec3, positions: &[Vec3], triangles: &[[u32; 3]]) -> f64 {
    let p = p.as_dvec3();
    let mut total = 0.0f64;
    for t in triangles {
        let [a, b, c] = t.map(|i| positions[i as usize].as_dvec3() - p);
        total += solid_angle(a, b, c);
    }
    total / (4.0 * std::f64::consts::PI)
}

/// The signed solid angle of the triangle `a b c` (relative to the point)
/// by Van Oosterom and Strackee's formula; 0 for a triangle through the
/// point.
fn solid_angle(a: DVec3, b: DVec3, c: DVec3) -> f64 {
    let (la, lb, lc) = (a.length(), b.length(), c.length());
    let numerator = a.dot(b.cross(c));
    let denominator = la * lb * lc + a.dot(b) * lc + a.dot(c) * lb + b.dot(c) * la;
    if numerator == 0.0 && denominator <= 0.0 {
        return 0.0;
    }
    2.0 * numerator.atan2(denominator)
}

/// An axis-aligned box's corners from `lo` to `hi` and its twelve
/// triangles (wound outwards), numbered from `base`: a closed surface for
/// tests.
#[cfg(test)]
pub(crate) fn cuboid(lo: Vec3, hi: Vec3, base: u32) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let corners = (0..8)
        .map(|i| {
            let pick = |bit: u32, a: f32, b: f32| if i & bit == 0 { a } else { b };
            Vec3::new(pick(1, lo.x, hi.x), pick(2, lo.y, hi.y), pick(4, lo.z, hi.z))
        })
        .collect();
    let quads =
        [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5]];
    let tris = quads
        .iter()
        .flat_map(|q| [[q[0], q[1], q[2]], [q[0], q[2], q[3]]])
        .map(|t: [u32; 3]| t.map(|i| i + base))
        .collect();
    (corners, tris)
}

#[cfg(test)]
mod tests {
    use super::{cuboid, winding_number};
    use glam::Vec3;

    /// A unit cube: once round its inside (either winding), not round a
    /// point outside; the sign follows the winding.
    #[test]
    fn a_cube_winds_once_round_its_inside() {
        let (p, tris) = cuboid(Vec3::ZERO, Vec3::ONE, 0);
        let inside = winding_number(Vec3::splat(0.5), &p, &tris);
        let outside = winding_number(Vec3::new(2.0, 0.5, 0.5), &p, &tris);
        assert!((inside.abs() - 1.0).abs() < 1e-9, "{inside}");
        assert!(outside.abs() < 1e-9, "{outside}");
        let flipped: Vec<[u32; 3]> = tris.iter().map(|t| [t[0], t[2], t[1]]).collect();
        let back = winding_number(Vec3::splat(0.5), &p, &flipped);
        assert!((back + inside).abs() < 1e-9, "{back} {inside}");
    }
}
