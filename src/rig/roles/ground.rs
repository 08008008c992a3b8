//! The ground the character stands on, read from its skin: a bind pose may
//! be pitched or rolled (a creature modelled on a slope, a file exported
//! with its armature tilted), and every "lowest", "reaches the floor" and
//! "higher" of the roles reads heights. They read them in a levelled frame
//! whose up is the normal of the ground the character stands on.
//!
//! A character stands on a plane under its skin when its weight lies over
//! what touches the plane (the convex hull of the skin within [`CONTACT`]
//! of it): it would not tip over. Where the weight lies is estimated twice,
//! and neither estimate is trusted alone: the skin's own centre (pulled
//! back by a long, finely cut tail) and the skin counted at the head of the
//! joint that carries it (a boneless tail then weighs at the pelvis, which
//! puts a dinosaur's weight ahead of its feet). A file is read upright when
//! either estimate stands on the horizontal plane (every fixture does);
//! otherwise the ground is the least tilted plane both stand on, searched
//! outwards from horizontal in [`TILT_STEP_DEG`] rings up to
//! [`MAX_TILT_DEG`]. A quadruped pitched nose down touches the horizontal
//! plane with its front feet only, both centres behind them, and stands on
//! the plane through all four. Where nothing stands (a fish, a snake on its
//! side), the horizontal plane is kept.

use glam::{Quat, Vec2, Vec3};

/// The steepest ground read: a standing creature is at most this far from
/// upright in any bind pose (the generated corpus pitches up to 25
/// degrees). Much further, a flank could pass for the ground.
pub const MAX_TILT_DEG: f32 = 35.0;

/// Skin touches a plane when it lies within this share of the model height
/// above it: a sole's vertices sit on the ground within modelling noise,
/// an ankle or a knee well above.
pub const CONTACT: f32 = 0.02;

/// The search's angular step, in tilt and round each ring. Roles read the
/// ground to within half of it, far below what any role rule
/// distinguishes (leg reach, heights compared at 5% of the height).
pub const TILT_STEP_DEG: f32 = 3.0;

/// Up unit vector tilted `tilt` degrees from `Y` towards azimuth `azimuth`
/// (degrees, from `X` towards `Z`).
fn direction(tilt: f32, azimuth: f32) -> Vec3 {
    let (st, ct) = tilt.to_radians().sin_cos();
    let (sa, ca) = azimuth.to_radians().sin_cos();
    Vec3::new(st * ca, ct, st * sa)
}

/// Candidate ups: `Y`, then rings of growing tilt.
fn candidates() -> Vec<Vec3> {
    let mut out = vec![Vec3::Y];
    let mut tilt = TILT_STEP_DEG;
    while tilt <= MAX_TILT_DEG + 1e-3 {
        let around = (360.0 * tilt.to_radians().sin() / TILT_STEP_DEG).ceil().max(6.0) as usize;
        out.extend((0..around).map(|k| direction(tilt, 360.0 * k as f32 / around as f32)));
        tilt += TILT_STEP_DEG;
    }
    out
}

/// Convex hull of `pts` (counter-clockwise, monotone chain).
fn hull(mut pts: Vec<Vec2>) -> Vec<Vec2> {
    pts.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    pts.dedup();
    if pts.len() < 3 {
        return pts;
    }
    let cross = |o: Vec2, a: Vec2, b: Vec2| (a - o).perp_dot(b - o);
    let mut h: Vec<Vec2> = Vec::with_capacity(2 * pts.len());
    for pass in 0..2 {
        let start = h.len();
        let it: Box<dyn Iterator<Item = &Vec2>> =
            if pass == 0 { Box::new(pts.iter()) } else { Box::new(pts.iter().rev()) };
        for &p in it {
            while h.len() >= start + 2 && cross(h[h.len() - 2], h[h.len() - 1], p) <= 0.0 {
                h.pop();
            }
            h.push(p);
        }
        h.pop();
    }
    h
}

/// Distance from `c` to the counter-clockwise convex polygon `poly` (0
/// inside; to the segment or point when it has fewer than three corners).
fn distance_to(poly: &[Vec2], c: Vec2) -> f32 {
    let edge = |a: Vec2, b: Vec2| {
        let ab = b - a;
        let t = if ab.length_squared() > 0.0 {
            ((c - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0)
        } else {
            0.0
        };
        c.distance(a + t * ab)
    };
    match poly.len() {
        0 => f32::INFINITY,
        1 => c.distance(poly[0]),
        2 => edge(poly[0], poly[1]),
        k => {
            let within = (0..k).all(|i| (poly[(i + 1) % k] - poly[i]).perp_dot(c - poly[i]) >= 0.0);
            if within {
                0.0
            } else {
                (0..k).map(|i| edge(poly[i], poly[(i + 1) % k])).fold(f32::INFINITY, f32::min)
            }
        }
    }
}

/// How many of `centres` lie over the skin `vertices` that touch their
/// support plane of normal `up` (within `tolerance` of it, and of the
/// contact's outline: a model's heel may end at its ankle, the weight right
/// over its edge).
fn centres_over_contact(vertices: &[Vec3], centres: &[Vec3], up: Vec3, tolerance: f32) -> usize {
    let floor = vertices.iter().map(|p| p.dot(up)).fold(f32::INFINITY, f32::min);
    let e1 = up.any_orthonormal_vector();
    let e2 = up.cross(e1);
    let flat = |p: Vec3| Vec2::new(p.dot(e1), p.dot(e2));
    let touching: Vec<Vec2> =
        vertices.iter().filter(|p| p.dot(up) - floor <= tolerance).map(|&p| flat(p)).collect();
    let contact = hull(touching);
    centres.iter().filter(|&&c| distance_to(&contact, flat(c)) <= tolerance).count()
}

/// How many of `points` touch their support plane of normal `up`.
fn touching(points: &[Vec3], up: Vec3, tolerance: f32) -> usize {
    let floor = points.iter().map(|p| p.dot(up)).fold(f32::INFINITY, f32::min);
    points.iter().filter(|p| p.dot(up) - floor <= tolerance).count()
}

/// The up of the ground the skin `vertices` stand on (see the module doc).
/// `centres` are the two estimates of where the body's weight lies (the
/// skin's own centre, and the skin counted at the joints that carry it);
/// `feet` gives the lowest skin of each joint, read only for a bind that
/// does not stand upright; `height` is the model height.
pub fn ground_up(
    vertices: &[Vec3],
    centres: [Vec3; 2],
    feet: impl FnOnce() -> Vec<Vec3>,
    height: f32,
) -> Vec3 {
    if vertices.len() < 3
        || height.is_nan()
        || height <= 0.0
        || !centres.iter().all(|c| c.is_finite())
    {
        return Vec3::Y;
    }
    let tolerance = CONTACT * height;
    if centres_over_contact(vertices, &centres, Vec3::Y, tolerance) > 0 {
        return Vec3::Y;
    }
    let feet = feet();
    let grid = candidates();
    // The grid reads the ground to within half a step, but over a long
    // body a step's error lifts the far feet well past the contact
    // tolerance (a quadruped pitched 22 degrees, two metres from hind toes
    // to front hands: 1.1 degrees of tolerance against 1.5 of error). The
    // exact planes through three of the points the grid finds lowest (the
    // lower hull's corners as the grid sees them) are read with it.
    // Among the planes touching the most feet the least tilted wins,
    // wherever it came from: a grid plane a step steeper than an exact one
    // touches the same feet when a long tail hangs to the ground (a pitched
    // quadruped, its tail tip within the tolerance of both), and the first
    // found was the grid's, the body then read rolled or pitched by that
    // step's error. Equal tilts keep the first found.
    let exact = exact_planes(&feet, &lowest_corners(&feet, &grid), height);
    let mut best = (touching(&feet, Vec3::Y, tolerance), Vec3::Y);
    for up in grid[1..].iter().copied().chain(exact) {
        let n = touching(&feet, up, tolerance);
        if n > best.0 || (n == best.0 && up.y > best.1.y) {
            best = (n, up);
        }
    }
    best.1
}

/// The ups of the planes through every three of `feet[corners]` within
/// [`MAX_TILT_DEG`] of upright, the least tilted first (ties by x, then z).
fn exact_planes(feet: &[Vec3], corners: &[usize], height: f32) -> Vec<Vec3> {
    let mut exact: Vec<(f32, Vec3)> = Vec::new();
    for (i, &a) in corners.iter().enumerate() {
        for (j, &b) in corners.iter().enumerate().skip(i + 1) {
            for &c in &corners[j + 1..] {
                let (p, q, r) = (feet[a], feet[b], feet[c]);
                let n = (q - p).cross(r - p);
                // Three points in a line span no plane.
                if n.length() <= f32::EPSILON * height * height {
                    continue;
                }
                let up = if n.y < 0.0 { -n.normalize() } else { n.normalize() };
                if up.y >= MAX_TILT_DEG.to_radians().cos() - 1e-6 {
                    exact.push((up.y, up));
                }
            }
        }
    }
    exact.sort_by(|x, y| {
        y.0.total_cmp(&x.0).then(x.1.x.total_cmp(&y.1.x)).then(x.1.z.total_cmp(&y.1.z))
    });
    exact.into_iter().map(|(_, up)| up).collect()
}

/// At most this many of the points the tilt grid finds lowest are joined
/// in threes into exact ground planes: a standing body's ground corners
/// are its feet (four to a quadruped, a tail tip), and the cap keeps the
/// work cubic in a constant.
pub const MAX_GROUND_CORNERS: usize = 24;

/// The points of `feet` lowest under some up of `grid`, each once, in the
/// order the grid meets them (the least tilted first), at most
/// [`MAX_GROUND_CORNERS`].
fn lowest_corners(feet: &[Vec3], grid: &[Vec3]) -> Vec<usize> {
    let mut out: Vec<usize> = Vec::new();
    for &up in grid {
        let low = (0..feet.len())
            .min_by(|&a, &b| feet[a].dot(up).total_cmp(&feet[b].dot(up)).then(a.cmp(&b)));
        if let Some(i) = low {
            if !out.contains(&i) {
                out.push(i);
                if out.len() == MAX_GROUND_CORNERS {
                    break;
                }
            }
        }
    }
    out
}

/// The rotation taking the ground's `up` to `+Y` (identity when it is `+Y`).
pub fn levelling(up: Vec3) -> Quat {
    if up == Vec3::Y {
        Quat::IDENTITY
    } else {
        Quat::from_rotation_arc(up, Vec3::Y)
    }
}

/// The up of the plane the toes lie in, or `None` when they fix none.
///
/// A foot's last bone (toe to toe tip, or foot to toe on a rig without tip
/// joints) runs along the ground it stands on: the generator's toes and a
/// real rig's toe ends lie flat on the floor. `toes` holds each leg's toe
/// as (head, tip). Three or more legs fix the plane by their tips alone (a
/// quadruped's four toe tips; its toe bones slope down to them). Two feet
/// give only the line between them, and the plane is fixed with the toes'
/// own direction: it is fitted through both toes' heads and tips. The up
/// is the least-squares plane's normal, turned towards `+Y`; `None` past
/// [`MAX_TILT_DEG`] (a creature's toes are not the floor there) or when the
/// points span no plane. Unlike the skin's ground, it cannot be fooled by a
/// tail resting on the horizontal plane: a dinosaur pitched nose-up stands
/// on its heels and tail there, its toes raised.
pub fn toes_up(toes: &[(Vec3, Vec3)]) -> Option<Vec3> {
    let points: Vec<Vec3> = match toes.len() {
        0 | 1 => return None,
        2 => toes.iter().flat_map(|&(h, t)| [h, t]).collect(),
        _ => toes.iter().map(|&(_, t)| t).collect(),
    };
    let up = plane_normal(&points)?;
    let up = if up.y < 0.0 { -up } else { up };
    (up.is_finite() && up.y >= MAX_TILT_DEG.to_radians().cos()).then_some(up)
}

/// The unit normal of the least-squares plane through `points` (the
/// scatter's least axis), or `None` when they span no plane (fewer than
/// three, or all on a line: the two largest axes must both carry spread).
fn plane_normal(points: &[Vec3]) -> Option<Vec3> {
    if points.len() < 3 {
        return None;
    }
    let n = points.len() as f64;
    let c = points.iter().fold(glam::DVec3::ZERO, |s, p| s + p.as_dvec3()) / n;
    let mut m = glam::DMat3::ZERO;
    for p in points {
        let d = p.as_dvec3() - c;
        m += glam::DMat3::from_cols(d * d.x, d * d.y, d * d.z);
    }
    // The scatter's least axis is the largest of `trace - m`'s (both
    // positive semi-definite): power iteration from the horizontal
    // plane's normal, which the ground is near.
    let trace = m.x_axis.x + m.y_axis.y + m.z_axis.z;
    if trace <= 0.0 {
        return None;
    }
    let flip = glam::DMat3::from_diagonal(glam::DVec3::splat(trace)) - m;
    let mut v = glam::DVec3::Y;
    for _ in 0..POWER_STEPS {
        let w = flip * v;
        if w.length_squared() == 0.0 {
            return None;
        }
        v = w.normalize();
    }
    // The spread along the plane: it must not be a line (both in-plane
    // axes carry spread, the smaller at least the normal's own).
    let least = v.dot(m * v);
    let e1 = v.any_orthonormal_vector();
    let e2 = v.cross(e1);
    let (a, b, ab) = (e1.dot(m * e1), e2.dot(m * e2), e1.dot(m * e2));
    let minor = 0.5 * (a + b) - (0.25 * (a - b).powi(2) + ab * ab).sqrt();
    (minor > least && minor > 0.0).then(|| v.as_vec3())
}

/// Power iterations for the toes' plane: `trace - m`'s two largest axes
/// differ by the toes' in-plane spread, which a character's feet make a
/// good share of the trace, so the error shrinks geometrically well below
/// a degree long before this.
const POWER_STEPS: usize = 256;
