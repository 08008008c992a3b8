//! Bend coupling between neighbouring joints (SPEC S4) and the elastic stop
//! (SPEC S5). Bends are rotations relative to the rest curve, expressed in
//! the common body (hips) frame so that neighbours with different bone axes
//! compare like with like.

use glam::Quat;

/// `slerp(a, b, ½)`, exactly: the normalised sum on the short arc.
#[inline]
pub fn half_slerp(a: Quat, b: Quat) -> Quat {
    let b = if a.dot(b) < 0.0 { -b } else { b };
    (a + b).normalize()
}

/// Neighbour targets `q̄_i` from the previous step's bends (a snapshot, never
/// partially updated values). The base's other neighbour is the hips
/// (identity); the free tip has one neighbour. A one-link tail has none:
/// its target is its own old bend and the caller skips coupling.
pub fn neighbour_targets(old: &[Quat], out: &mut [Quat]) {
    let n = old.len();
    debug_assert_eq!(out.len(), n);
    match n {
        0 => {}
        1 => out[0] = old[0],
        _ => {
            out[0] = half_slerp(Quat::IDENTITY, old[1]);
            for i in 1..n - 1 {
                out[i] = half_slerp(old[i - 1], old[i + 1]);
            }
            out[n - 1] = old[n - 2];
        }
    }
}

/// `slerp(a, b, t)` on the short arc, exact: `a (a⁻¹ b)^t` (one atan2 and
/// one sin/cos).
#[inline]
pub fn slerp(a: Quat, b: Quat, t: f32) -> Quat {
    let mut r = a.conjugate() * b;
    if r.w < 0.0 {
        r = -r;
    }
    let v = glam::Vec3::new(r.x, r.y, r.z);
    let s = v.length();
    if s < 1e-12 {
        return a;
    }
    let half = s.atan2(r.w) * t;
    let (sin, cos) = half.sin_cos();
    let v = v * (sin / s);
    (a * Quat::from_xyzw(v.x, v.y, v.z, cos)).normalize()
}

/// `slerp(a, b, t)` on the short arc by a normalised lerp whose parameter is
/// corrected with a fitted cubic (A. Kapoulkine, "Approximating slerp",
/// 2015): measured angle error below 1e-4 rad for rotations up to 90° apart
/// (the coupling works on bends held within 2 × 30° by the stop), 7e-4 rad
/// at 180°; no transcendental functions. Used per link per substep.
#[inline]
pub fn fast_slerp(a: Quat, b: Quat, t: f32) -> Quat {
    let mut ca = a.dot(b);
    let b = if ca < 0.0 {
        ca = -ca;
        -b
    } else {
        b
    };
    let d = ca;
    let ka = 1.0904 + d * (-3.2452 + d * (3.55645 - d * 1.43519));
    let kb = 0.848013 + d * (-1.06021 + d * 0.215638);
    let k = ka * (t - 0.5) * (t - 0.5) + kb;
    let ot = t + t * (t - 0.5) * (t - 1.0) * k;
    (a + (b - a) * ot).normalize()
}

/// Coupling blend for a time step: `α = 1 - exp(-k Δt)`.
#[inline]
pub fn coupling_alpha(rate: f32, dt: f32) -> f32 {
    1.0 - (-rate * dt).exp()
}

/// The elastic stop as a precomputed rule: bends beyond `θmax` are scaled back
/// to `θmax` about their own axis, which is `slerp(I, q, θmax/θ)`.
#[derive(Clone, Copy, Debug)]
pub struct ElasticStop {
    cos_half: f32,
    sin_half: f32,
}

impl ElasticStop {
    /// A stop at `max_angle` radians of bend.
    pub fn new(max_angle: f32) -> Self {
        let h = 0.5 * max_angle;
        ElasticStop { cos_half: h.cos(), sin_half: h.sin() }
    }

    /// `cos(θmax/2)` and `sin(θmax/2)` (the solver's lane form reads them).
    pub(crate) fn cos_half(&self) -> f32 {
        self.cos_half
    }
    pub(crate) fn sin_half(&self) -> f32 {
        self.sin_half
    }

    /// Returns the limited bend and whether the stop was reached.
    #[inline]
    pub fn apply(&self, q: Quat) -> (Quat, bool) {
        // θ = 2 acos(|w|) > θmax  <=>  |w| < cos(θmax/2); no acos needed.
        if q.w.abs() >= self.cos_half {
            return (q, false);
        }
        let s = if q.w < 0.0 { -1.0 } else { 1.0 };
        let axis = glam::Vec3::new(q.x, q.y, q.z) * s;
        let len = axis.length();
        if len < 1e-12 {
            return (Quat::IDENTITY, true);
        }
        let axis = axis / len * self.sin_half;
        (Quat::from_xyzw(axis.x, axis.y, axis.z, self.cos_half), true)
    }
}

/// Shortest rotation taking unit `a` onto unit `b`. Unlike
/// `Quat::from_rotation_arc` it does not snap angles below ~1e-3 rad to
/// identity: those tiny swings are the tail of every decaying oscillation.
#[inline]
pub fn swing(a: glam::Vec3, b: glam::Vec3) -> Quat {
    let d = a.dot(b);
    if d < -1.0 + 1e-6 {
        return Quat::from_axis_angle(a.any_orthonormal_vector(), std::f32::consts::PI);
    }
    // |(a × b, 1 + a·b)|² = 2 (1 + a·b) for unit a, b.
    let c = a.cross(b);
    let inv = (2.0 * (1.0 + d)).sqrt().recip();
    Quat::from_xyzw(c.x * inv, c.y * inv, c.z * inv, (1.0 + d) * inv)
}

/// Shortest rotation angle of a unit quaternion, radians: `2 acos(|w|)`,
/// evaluated as `2 atan2(|xyz|, |w|)`, which stays accurate near zero.
#[inline]
pub fn bend_angle(q: Quat) -> f32 {
    2.0 * glam::Vec3::new(q.x, q.y, q.z).length().atan2(q.w.abs())
}
