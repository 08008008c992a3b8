//! The two contact projections (SPEC S3 forward plane, S8 ground). Both move
//! a link's tip on its length sphere round the head: length stays exact, the
//! head (and so the body) never moves. The solver uses the lane forms (one
//! chain per lane, see `lane`); the public `Vec3` ones run them on one lane.

use glam::Vec3;

use super::lane::Lane;
use super::lane_geometry::{tangent, V3};

/// Keeps the tip behind the plane through `root` with unit normal `normal`
/// (the body's forward axis) wherever it is below the root (`up`: the
/// body's up axis). Returns which lanes had to move and the directions:
/// there, the closer of the directions on the sphere whose tip lies on the
/// plane or at the root's level; elsewhere `dir` unchanged.
///
/// The plane is there so the tail never swings between the legs (SPEC
/// S3), which are below the root. Above it, in front of the root, lies the
/// back: a tail curled over it (Shiba) rests there, and a plane through the
/// whole height pulled that curl backwards every step, squashing its skin.
/// Of the two ways out of the guarded corner the nearer wins, so a tip that
/// dips just below the root in front (a curl on a pitching back) is lifted,
/// not snapped behind the root.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn forward_plane_lanes<L: Lane>(
    head: V3<L>,
    dir: V3<L>,
    length: L,
    root: V3<L>,
    normal: V3<L>,
    up: V3<L>,
    fallback: V3<L>,
) -> (L::Mask, V3<L>) {
    let depth = (head - root).dot(normal);
    let height = (head - root).dot(up);
    let zero = L::splat(0.0);
    let hit =
        (depth + length * dir.dot(normal)).gt(zero) & (height + length * dir.dot(up)).lt(zero);
    if !L::any(hit) {
        return (hit, dir);
    }
    let one = L::splat(1.0);
    let onto = |n: V3<L>, offset: L| {
        // Required dir·n for the tip to sit at `offset + ℓ dir·n = 0`.
        let m = (-offset / length).clamp(-1.0, 1.0);
        n.scale(m) + tangent(dir, n, fallback).scale((one - m * m).max(zero).sqrt())
    };
    let back = onto(normal, depth);
    let level = onto(up, height);
    let lift = (height + length).gt(zero) & level.dot(dir).gt(back.dot(dir));
    (hit, V3::select(hit, V3::select(lift, level, back), dir))
}

/// Which way is up for the floor and gravity: world +Y ([`WorldY`], an
/// upright bind) or the normal of the ground a pitched bind stands on
/// ([`Along`]). One trait so the contact and the substep are written once;
/// the level form computes exactly what it did before the tilted one was
/// added (no products with a zero or one axis).
pub(crate) trait Vertical<L: Lane>: Copy {
    /// Height of `v` along up.
    fn height(&self, v: V3<L>) -> L;
    /// `v` without its part along up.
    fn horizontal(&self, v: V3<L>) -> V3<L>;
    /// `v` plus `h` along up.
    fn raise(&self, v: V3<L>, h: L) -> V3<L>;
    /// The up axis.
    fn axis(&self) -> V3<L>;
    /// `v` without a downward part (a grounded particle is not pulled
    /// into the floor).
    fn not_down(&self, v: V3<L>) -> V3<L>;
}

/// Up is world +Y.
#[derive(Clone, Copy, Debug)]
pub(crate) struct WorldY;

impl<L: Lane> Vertical<L> for WorldY {
    #[inline(always)]
    fn height(&self, v: V3<L>) -> L {
        v.y
    }
    #[inline(always)]
    fn horizontal(&self, v: V3<L>) -> V3<L> {
        V3::new(v.x, L::splat(0.0), v.z)
    }
    #[inline(always)]
    fn raise(&self, v: V3<L>, h: L) -> V3<L> {
        V3::new(v.x, v.y + h, v.z)
    }
    #[inline(always)]
    fn axis(&self) -> V3<L> {
        V3::new(L::splat(0.0), L::splat(1.0), L::splat(0.0))
    }
    #[inline(always)]
    fn not_down(&self, v: V3<L>) -> V3<L> {
        V3::new(v.x, v.y.max(L::splat(0.0)), v.z)
    }
}

/// Up is this unit vector (per lane).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Along<L: Lane>(pub V3<L>);

impl<L: Lane> Vertical<L> for Along<L> {
    #[inline(always)]
    fn height(&self, v: V3<L>) -> L {
        v.dot(self.0)
    }
    #[inline(always)]
    fn horizontal(&self, v: V3<L>) -> V3<L> {
        v - self.0.scale(v.dot(self.0))
    }
    #[inline(always)]
    fn raise(&self, v: V3<L>, h: L) -> V3<L> {
        v + self.0.scale(h)
    }
    #[inline(always)]
    fn axis(&self) -> V3<L> {
        self.0
    }
    #[inline(always)]
    fn not_down(&self, v: V3<L>) -> V3<L> {
        v - self.0.scale(v.dot(self.0).min(L::splat(0.0)))
    }
}

/// Ground contact on the circle where the bone's sphere meets the floor
/// (height `floor` along `up`): `p' = h + ℓ (sqrt(1-u²) t + u e_up)`,
/// `u = (F - h·e_up)/ℓ` clamped to [-1, 1] (a head too far below cannot be
/// helped by turning the bone; it is never stretched and the body never
/// lifted). `t` is the horizontal part of the candidate direction
/// (fallback: the rest direction, then straight back). `plane` = (root,
/// forward normal) restricts the circle to the part behind the forward
/// plane where that is possible; the floor wins where it is not. Returns
/// the lanes in contact and the directions.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn ground_lanes<L: Lane, U: Vertical<L>>(
    up: U,
    head: V3<L>,
    dir: V3<L>,
    length: L,
    floor: L,
    fallback: V3<L>,
    back: V3<L>,
    plane: Option<(V3<L>, V3<L>)>,
) -> (L::Mask, V3<L>) {
    let hit = (up.height(head) + length * up.height(dir)).lt(floor);
    if !L::any(hit) {
        return (hit, dir);
    }
    let (zero, one, eps) = (L::splat(0.0), L::splat(1.0), L::splat(1e-6));
    let u = ((floor - up.height(head)) / length).clamp(-1.0, 1.0);
    let s = (one - u * u).max(zero).sqrt();
    let unit_or = |v: V3<L>, otherwise: V3<L>| {
        let h = up.horizontal(v);
        let l = h.length();
        V3::select(l.gt(eps), h.div(l), otherwise)
    };
    let x = V3::new(one, zero, zero);
    let mut t = unit_or(dir, unit_or(fallback, unit_or(back, unit_or(x, x))));
    if let Some((root, normal)) = plane {
        let nh = up.horizontal(normal);
        let a = nh.length();
        let nh = nh.div(a);
        // (head + ℓ(s t + u e_up) - root)·n <= 0, solved for t·n̂h.
        let rhs = -(head - root).dot(normal) - length * u * up.height(normal);
        let m = rhs / (length * s * a);
        let turn = a.gt(eps) & s.gt(eps) & t.dot(nh).gt(m) & m.ge(L::splat(-1.0));
        if L::any(turn) {
            // t and n̂h are horizontal, so this perpendicular is too.
            let perp = tangent(t, nh, up.axis().cross(nh));
            let m = m.min(one);
            let turned = nh.scale(m) + perp.scale((one - m * m).max(zero).sqrt());
            t = V3::select(turn, turned, t);
        }
    }
    let on_circle = up.raise(t.scale(s), u);
    (hit, V3::select(hit, on_circle, dir))
}

fn lane(v: Vec3) -> V3<f32> {
    V3::new(v.x, v.y, v.z)
}

/// Keeps the tip behind the forward plane below the root; see the solver's
/// lane form `forward_plane_lanes`.
pub fn forward_plane(
    head: Vec3,
    dir: Vec3,
    length: f32,
    root: Vec3,
    normal: Vec3,
    up: Vec3,
    fallback: Vec3,
) -> Option<Vec3> {
    let (hit, d) = forward_plane_lanes(
        lane(head),
        lane(dir),
        length,
        lane(root),
        lane(normal),
        lane(up),
        lane(fallback),
    );
    hit.then(|| d.lane(0))
}

/// Ground contact on the circle where the bone's sphere meets the floor; see
/// the solver's lane form `ground_lanes` for the maths.
pub fn ground(
    head: Vec3,
    dir: Vec3,
    length: f32,
    floor: f32,
    fallback: Vec3,
    back: Vec3,
    plane: Option<(Vec3, Vec3)>,
) -> Option<Vec3> {
    let (hit, d) = ground_lanes(
        WorldY,
        lane(head),
        lane(dir),
        length,
        floor,
        lane(fallback),
        lane(back),
        plane.map(|(r, n)| (lane(r), lane(n))),
    );
    hit.then(|| d.lane(0))
}
