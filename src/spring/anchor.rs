//! The anchor (pelvis) pose the spring hangs from, and its path over one
//! call, sampled once per substep.

use glam::{Quat, Vec3};

/// The anchor's world pose, decomposed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AnchorPose {
    pub translation: Vec3,
    pub rotation: Quat,
    pub scale: Vec3,
}

impl AnchorPose {
    pub fn lerp(&self, other: &AnchorPose, t: f32) -> AnchorPose {
        AnchorPose {
            translation: self.translation.lerp(other.translation, t),
            rotation: self.rotation.slerp(other.rotation, t),
            scale: self.scale.lerp(other.scale, t),
        }
    }
}

/// The anchor's motion over one call, set up once so that each substep's
/// pose costs one `sin_cos` instead of a full slerp (glam's takes an acos
/// and three sines): the rotation is `q₀ (q₀⁻¹ q₁)^t` on the short arc, the
/// same curve as `slerp(q₀, q₁, t)`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct AnchorPath {
    from: AnchorPose,
    to: AnchorPose,
    /// Unit axis of `q₀⁻¹ q₁` and half its angle; `None` for no turn.
    turn: Option<(Vec3, f32)>,
}

impl AnchorPath {
    pub fn new(from: &AnchorPose, to: &AnchorPose) -> Self {
        let mut r = from.rotation.conjugate() * to.rotation;
        if r.w < 0.0 {
            r = -r;
        }
        let v = Vec3::new(r.x, r.y, r.z);
        let s = v.length();
        let turn = if s < 1e-12 { None } else { Some((v / s, s.atan2(r.w))) };
        AnchorPath { from: *from, to: *to, turn }
    }

    /// The pose a fraction `t` of the way (exactly the end pose at 1).
    #[inline]
    pub fn at(&self, t: f32) -> AnchorPose {
        if t >= 1.0 {
            return self.to;
        }
        let rotation = match self.turn {
            Some((axis, half)) => {
                let (sin, cos) = (half * t).sin_cos();
                let v = axis * sin;
                (self.from.rotation * Quat::from_xyzw(v.x, v.y, v.z, cos)).normalize()
            }
            None => self.from.rotation,
        };
        AnchorPose {
            translation: self.from.translation.lerp(self.to.translation, t),
            rotation,
            scale: self.from.scale.lerp(self.to.scale, t),
        }
    }
}
