//! Vectors, quaternions and rotation matrices over lanes (struct of arrays:
//! one lane per chain), and the few rotations the solver builds from them.
//! Every formula is spelled out with a fixed operation order, so one chain
//! gives the same bits whether it runs alone or in a lane (see `lane`).

use std::ops::{Add, Neg, Sub};

use glam::{Mat3A, Quat, Vec3, Vec3A};

use super::lane::Lane;

#[derive(Clone, Copy, Debug)]
pub(crate) struct V3<L> {
    pub x: L,
    pub y: L,
    pub z: L,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Q<L> {
    pub x: L,
    pub y: L,
    pub z: L,
    pub w: L,
}

/// A 3x3 matrix by columns.
#[derive(Clone, Copy, Debug)]
pub(crate) struct M3<L> {
    pub x: V3<L>,
    pub y: V3<L>,
    pub z: V3<L>,
}

impl<L: Lane> V3<L> {
    #[inline(always)]
    pub fn new(x: L, y: L, z: L) -> Self {
        V3 { x, y, z }
    }
    /// Lane `i` from `f(i)`.
    #[inline(always)]
    pub fn from_fn(f: impl Fn(usize) -> Vec3A) -> Self {
        V3 { x: L::from_fn(|i| f(i).x), y: L::from_fn(|i| f(i).y), z: L::from_fn(|i| f(i).z) }
    }
    #[inline(always)]
    pub fn lane(&self, i: usize) -> Vec3 {
        Vec3::new(self.x.lane(i), self.y.lane(i), self.z.lane(i))
    }
    #[inline(always)]
    pub fn dot(self, o: Self) -> L {
        self.x * o.x + self.y * o.y + self.z * o.z
    }
    #[inline(always)]
    pub fn cross(self, o: Self) -> Self {
        V3 {
            x: self.y * o.z - self.z * o.y,
            y: self.z * o.x - self.x * o.z,
            z: self.x * o.y - self.y * o.x,
        }
    }
    #[inline(always)]
    pub fn length(self) -> L {
        self.dot(self).sqrt()
    }
    #[inline(always)]
    pub fn scale(self, s: L) -> Self {
        V3 { x: self.x * s, y: self.y * s, z: self.z * s }
    }
    #[inline(always)]
    pub fn div(self, s: L) -> Self {
        V3 { x: self.x / s, y: self.y / s, z: self.z / s }
    }
    #[inline(always)]
    pub fn select(m: L::Mask, a: Self, b: Self) -> Self {
        V3 { x: L::select(m, a.x, b.x), y: L::select(m, a.y, b.y), z: L::select(m, a.z, b.z) }
    }
    /// A unit vector perpendicular to this unit vector (glam's
    /// `any_orthonormal_vector`, branch-free).
    #[inline(always)]
    pub fn any_orthonormal(self) -> Self {
        let sign = L::select(self.z.lt(L::splat(0.0)), L::splat(-1.0), L::splat(1.0));
        let a = -(sign + self.z).recip();
        let b = self.x * self.y * a;
        V3 { x: L::splat(1.0) + sign * self.x * self.x * a, y: sign * b, z: -(sign * self.x) }
    }
}

impl<L: Lane> Add for V3<L> {
    type Output = Self;
    #[inline(always)]
    fn add(self, o: Self) -> Self {
        V3 { x: self.x + o.x, y: self.y + o.y, z: self.z + o.z }
    }
}
impl<L: Lane> Sub for V3<L> {
    type Output = Self;
    #[inline(always)]
    fn sub(self, o: Self) -> Self {
        V3 { x: self.x - o.x, y: self.y - o.y, z: self.z - o.z }
    }
}
impl<L: Lane> Neg for V3<L> {
    type Output = Self;
    #[inline(always)]
    fn neg(self) -> Self {
        V3 { x: -self.x, y: -self.y, z: -self.z }
    }
}

impl<L: Lane> Q<L> {
    #[inline(always)]
    pub fn identity() -> Self {
        Q { x: L::splat(0.0), y: L::splat(0.0), z: L::splat(0.0), w: L::splat(1.0) }
    }
    #[inline(always)]
    pub fn from_fn(f: impl Fn(usize) -> Quat) -> Self {
        Q {
            x: L::from_fn(|i| f(i).x),
            y: L::from_fn(|i| f(i).y),
            z: L::from_fn(|i| f(i).z),
            w: L::from_fn(|i| f(i).w),
        }
    }
    #[inline(always)]
    pub fn lane(&self, i: usize) -> Quat {
        Quat::from_xyzw(self.x.lane(i), self.y.lane(i), self.z.lane(i), self.w.lane(i))
    }
    #[inline(always)]
    pub fn dot(self, o: Self) -> L {
        self.x * o.x + self.y * o.y + self.z * o.z + self.w * o.w
    }
    #[inline(always)]
    pub fn scale(self, s: L) -> Self {
        Q { x: self.x * s, y: self.y * s, z: self.z * s, w: self.w * s }
    }
    #[inline(always)]
    pub fn add(self, o: Self) -> Self {
        Q { x: self.x + o.x, y: self.y + o.y, z: self.z + o.z, w: self.w + o.w }
    }
    #[inline(always)]
    pub fn sub(self, o: Self) -> Self {
        Q { x: self.x - o.x, y: self.y - o.y, z: self.z - o.z, w: self.w - o.w }
    }
    #[inline(always)]
    pub fn neg(self) -> Self {
        Q { x: -self.x, y: -self.y, z: -self.z, w: -self.w }
    }
    #[inline(always)]
    pub fn normalize(self) -> Self {
        self.scale(self.dot(self).sqrt().recip())
    }
    #[inline(always)]
    pub fn select(m: L::Mask, a: Self, b: Self) -> Self {
        Q {
            x: L::select(m, a.x, b.x),
            y: L::select(m, a.y, b.y),
            z: L::select(m, a.z, b.z),
            w: L::select(m, a.w, b.w),
        }
    }
    /// Hamilton product `self * o`.
    #[inline(always)]
    pub fn mul(self, o: Self) -> Self {
        let (a, b) = (self, o);
        Q {
            x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
            y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
            z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
            w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
        }
    }
    /// `q v q*` for any (not necessarily unit) `q`: the rotation of `v`
    /// times `|q|²`, so an unnormalised quaternion needs one division after.
    #[inline(always)]
    pub fn rotate_scaled(self, v: V3<L>) -> V3<L> {
        let b = V3::new(self.x, self.y, self.z);
        let w = self.w;
        let two = L::splat(2.0);
        v.scale(w * w - b.dot(b)) + b.scale(v.dot(b) * two) + b.cross(v).scale(w * two)
    }
}

impl<L: Lane> M3<L> {
    #[inline(always)]
    pub fn from_fn(f: impl Fn(usize) -> Mat3A) -> Self {
        M3 {
            x: V3::from_fn(|i| f(i).x_axis),
            y: V3::from_fn(|i| f(i).y_axis),
            z: V3::from_fn(|i| f(i).z_axis),
        }
    }
    /// `M v`.
    #[inline(always)]
    pub fn apply(&self, v: V3<L>) -> V3<L> {
        self.x.scale(v.x) + self.y.scale(v.y) + self.z.scale(v.z)
    }
    /// `Mᵀ v`: a rotation's inverse applied without transposing it.
    #[inline(always)]
    pub fn apply_inverse(&self, v: V3<L>) -> V3<L> {
        V3::new(self.x.dot(v), self.y.dot(v), self.z.dot(v))
    }
    /// The rotation matrix of a unit quaternion.
    #[inline(always)]
    pub fn from_quat(q: Q<L>) -> Self {
        let one = L::splat(1.0);
        let (x2, y2, z2) = (q.x + q.x, q.y + q.y, q.z + q.z);
        let (xx, xy, xz) = (q.x * x2, q.x * y2, q.x * z2);
        let (yy, yz, zz) = (q.y * y2, q.y * z2, q.z * z2);
        let (wx, wy, wz) = (q.w * x2, q.w * y2, q.w * z2);
        M3 {
            x: V3::new(one - (yy + zz), xy + wz, xz - wy),
            y: V3::new(xy - wz, one - (xx + zz), yz + wx),
            z: V3::new(xz + wy, yz - wx, one - (xx + yy)),
        }
    }
}

/// The shortest arc from unit `a` to unit `b`, from `c = a·b` and
/// `v = a × b`; `flip` is the half turn used when `b` is opposite `a`. Unlike `Quat::from_rotation_arc` tiny
/// angles are not snapped to identity: they are the tail of every decaying
/// oscillation.
#[derive(Clone, Copy)]
pub(crate) struct ShortArc<L: Lane> {
    c: L,
    v: V3<L>,
    opposite: L::Mask,
}

impl<L: Lane> ShortArc<L> {
    #[inline(always)]
    pub fn new(a: V3<L>, b: V3<L>) -> Self {
        let c = a.dot(b);
        ShortArc { c, v: a.cross(b), opposite: c.lt(L::splat(-1.0 + 1e-6)) }
    }
    /// `(a × b, 1 + a·b)` normalised: `|·|² = 2 (1 + a·b)` for unit vectors.
    #[inline(always)]
    pub fn quat(&self, flip: Q<L>) -> Q<L> {
        let e = L::splat(1.0) + self.c;
        let inv = (L::splat(2.0) * e).sqrt().recip();
        let q = Q { x: self.v.x * inv, y: self.v.y * inv, z: self.v.z * inv, w: e * inv };
        if L::any(self.opposite) {
            Q::select(self.opposite, flip, q)
        } else {
            q
        }
    }
}

/// The shortest arc from unit `a` onto the direction of `w`, given
/// `len = |w| > 0`, without normalising `w` first: `(a × ŵ, 1 + a·ŵ)` is
/// `(a × w, len + a·w) / len`, so one normalisation serves both (one
/// division less on the path from link to link).
#[inline(always)]
pub(crate) fn swing_to<L: Lane>(a: V3<L>, w: V3<L>, len: L, flip: Q<L>) -> Q<L> {
    let d = a.dot(w);
    let c = a.cross(w);
    let e = len + d;
    // |(a × w, len + a·w)|² = 2 len (len + a·w) for unit a.
    let inv = (L::splat(2.0) * len * e).sqrt().recip();
    let q = Q { x: c.x * inv, y: c.y * inv, z: c.z * inv, w: e * inv };
    let opposite = d.lt(L::splat(-1.0 + 1e-6) * len);
    if L::any(opposite) {
        Q::select(opposite, flip, q)
    } else {
        q
    }
}

/// `slerp(a, b, ½)`: the normalised sum on the short arc.
#[inline(always)]
pub(crate) fn half_slerp<L: Lane>(a: Q<L>, b: Q<L>) -> Q<L> {
    let b = Q::select(a.dot(b).lt(L::splat(0.0)), b.neg(), b);
    a.add(b).normalize()
}

/// A link's coupling blend `t` with its parts for [`fast_slerp_raw`]
/// precomputed (they depend on `t` only).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Blend<L> {
    pub t: L,
    /// `(t - ½)²`.
    pub quad: L,
    /// `t (t - ½)(t - 1)`.
    pub cubic: L,
}

impl Blend<f32> {
    pub fn new(t: f32) -> Self {
        Blend { t, quad: (t - 0.5) * (t - 0.5), cubic: t * (t - 0.5) * (t - 1.0) }
    }
}

/// `slerp(a, b, t)` on the short arc before its final normalisation: the
/// corrected normalised lerp of [`super::coupling::fast_slerp`].
#[inline(always)]
pub(crate) fn fast_slerp_raw<L: Lane>(a: Q<L>, b: Q<L>, t: &Blend<L>) -> Q<L> {
    let ca = a.dot(b);
    let opposite = ca.lt(L::splat(0.0));
    let d = L::select(opposite, -ca, ca);
    let b = Q::select(opposite, b.neg(), b);
    let s = L::splat;
    let ka = s(1.0904) + d * (s(-3.2452) + d * (s(3.55645) - d * s(1.43519)));
    let kb = s(0.848013) + d * (s(-1.06021) + d * s(0.215638));
    let k = ka * t.quad + kb;
    let ot = t.t + t.cubic * k;
    a.add(b.sub(a).scale(ot))
}

/// A unit vector perpendicular to unit `n` closest to `v` (fallback if `v`
/// is parallel to `n`, then any perpendicular).
#[inline(always)]
pub(crate) fn tangent<L: Lane>(v: V3<L>, n: V3<L>, fallback: V3<L>) -> V3<L> {
    let eps = L::splat(1e-6);
    let t = v - n.scale(v.dot(n));
    let l = t.length();
    let t2 = fallback - n.scale(fallback.dot(n));
    let l2 = t2.length();
    let second = V3::select(l2.gt(eps), t2.div(l2), n.any_orthonormal());
    V3::select(l.gt(eps), t.div(l), second)
}
