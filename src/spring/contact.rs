//! The two contact projections (SPEC S3 forward plane, S8 ground). Both move
//! a link's tip on its length sphere round the head: length stays exact, the
//! head (and so the body) never moves. The solver uses the SIMD (`Vec3A`)
//! forms; the public `Vec3` ones wrap them.

use glam::{Vec3, Vec3A};

/// A unit vector perpendicular to `n` closest to `v` (fallback if `v` is
/// parallel to `n`, then any perpendicular).
#[inline]
fn tangent(v: Vec3A, n: Vec3A, fallback: Vec3A) -> Vec3A {
    let t = v - v.dot(n) * n;
    let l = t.length();
    if l > 1e-6 {
        return t / l;
    }
    let t = fallback - fallback.dot(n) * n;
    let l = t.length();
    if l > 1e-6 {
        t / l
    } else {
        n.any_orthonormal_vector()
    }
}

/// Keeps the tip behind the plane through `root` with unit normal `normal`
/// (the body's forward axis) wherever it is below the root (`up`: the
/// body's up axis). Returns the new direction when it had to move: the
/// closer of the directions whose tip lies on the plane or at the root's
/// level.
///
/// The plane is there so the tail never swings between the legs (SPEC
/// S3), which are below the root. Above it, in front of the root, lies the
/// back: a tail curled over it (Shiba) rests there, and a plane through the
/// whole height pulled that curl backwards every step, squashing its skin.
#[inline]
pub(crate) fn forward_plane_a(head: Vec3A, dir: Vec3A, length: f32, root: Vec3A, normal: Vec3A, up: Vec3A, fallback: Vec3A) -> Option<Vec3A> {
    let depth = (head - root).dot(normal);
    if depth + length * dir.dot(normal) <= 0.0 {
        return None;
    }
    let height = (head - root).dot(up);
    if height + length * dir.dot(up) >= 0.0 {
        return None;
    }
    // Two ways out of the guarded corner: back onto the plane, or up to the
    // root's level. The nearer one wins, so a tip that dips just below the
    // root in front (a curl on a pitching back) is lifted, not snapped
    // behind the root.
    let onto = |n: Vec3A, offset: f32| {
        let m = (-offset / length).clamp(-1.0, 1.0);
        m * n + (1.0 - m * m).max(0.0).sqrt() * tangent(dir, n, fallback)
    };
    let back = onto(normal, depth);
    if height > -length {
        let level = onto(up, height);
        if level.dot(dir) > back.dot(dir) {
            return Some(level);
        }
    }
    Some(back)
}

/// Ground contact on the circle where the bone's sphere meets the floor
/// `y = floor`: `p' = h + ℓ (sqrt(1-u²) t + u e_y)`, `u = (F - h_y)/ℓ`
/// clamped to [-1, 1] (a head too far below cannot be helped by turning the
/// bone; it is never stretched and the body never lifted). `t` is the
/// horizontal part of the candidate direction (fallback: the rest direction,
/// then straight back). `plane` = (root, forward normal) restricts the circle
/// to the part behind the forward plane where that is possible; the floor wins
/// where it is not.
#[inline]
pub(crate) fn ground_a(head: Vec3A, dir: Vec3A, length: f32, floor: f32, fallback: Vec3A, back: Vec3A, plane: Option<(Vec3A, Vec3A)>) -> Option<Vec3A> {
    if head.y + length * dir.y >= floor {
        return None;
    }
    let u = ((floor - head.y) / length).clamp(-1.0, 1.0);
    let s = (1.0 - u * u).max(0.0).sqrt();
    let horizontal = |v: Vec3A| Vec3A::new(v.x, 0.0, v.z);
    let mut t = {
        let h = horizontal(dir);
        if h.length() > 1e-6 {
            h.normalize()
        } else if horizontal(fallback).length() > 1e-6 {
            horizontal(fallback).normalize()
        } else if horizontal(back).length() > 1e-6 {
            horizontal(back).normalize()
        } else {
            Vec3A::X
        }
    };
    if let Some((root, normal)) = plane {
        let nh = horizontal(normal);
        let a = nh.length();
        if a > 1e-6 && s > 1e-6 {
            let nh = nh / a;
            // (head + ℓ(s t + u e_y) - root)·n <= 0, solved for t·n̂h.
            let rhs = -(head - root).dot(normal) - length * u * normal.y;
            let m = rhs / (length * s * a);
            if t.dot(nh) > m && m >= -1.0 {
                // t and n̂h are horizontal, so this perpendicular is too.
                let perp = tangent(t, nh, Vec3A::Y.cross(nh));
                let m = m.min(1.0);
                t = m * nh + (1.0 - m * m).max(0.0).sqrt() * perp;
            }
        }
    }
    Some(s * t + u * Vec3A::Y)
}

/// Keeps the tip behind the forward plane below the root; see the solver's
/// SIMD form [`forward_plane_a`].
pub fn forward_plane(head: Vec3, dir: Vec3, length: f32, root: Vec3, normal: Vec3, up: Vec3, fallback: Vec3) -> Option<Vec3> {
    forward_plane_a(head.into(), dir.into(), length, root.into(), normal.into(), up.into(), fallback.into()).map(Vec3::from)
}

/// Ground contact on the circle where the bone's sphere meets the floor; see
/// the solver's SIMD form [`ground_a`] for the maths.
pub fn ground(head: Vec3, dir: Vec3, length: f32, floor: f32, fallback: Vec3, back: Vec3, plane: Option<(Vec3, Vec3)>) -> Option<Vec3> {
    ground_a(head.into(), dir.into(), length, floor, fallback.into(), back.into(), plane.map(|(r, n)| (r.into(), n.into()))).map(Vec3::from)
}
