//! The anchor (pelvis) pose the spring hangs from, and its path over one
//! call, sampled once per substep: for a group of chains in lanes, all but
//! the one `sin_cos` per chain and substep runs in the lanes too.

use glam::{Quat, Vec3};

use super::lane::Lane;
use super::lane_geometry::{M3, Q, V3};
use super::rest::ChainRest;
use super::solver::{FrameLanes, StepRules};

/// The anchor's world pose, decomposed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AnchorPose {
    /// World position of the anchor joint's head.
    pub translation: Vec3,
    /// World rotation (unit quaternion).
    pub rotation: Quat,
    /// World scale per axis.
    pub scale: Vec3,
}

impl AnchorPose {
    /// The pose `t` of the way from `self` to `other` (0..=1): positions
    /// and scales linear, rotation by slerp.
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
    /// The path of one call, from the previous call's pose to this one's.
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

    /// `sin` and `cos` of the half turn a fraction `t` of the way (none
    /// without a turn: `(0, 1)`).
    #[inline]
    pub fn half_turn(&self, t: f32) -> (f32, f32) {
        match self.turn {
            Some((_, half)) => (half * t).sin_cos(),
            None => (0.0, 1.0),
        }
    }
}

/// The anchor paths of a group (one lane per chain) with what each chain
/// takes from its pose: the per-substep frame costs each chain one scalar
/// `sin_cos`, the rest is lane arithmetic.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PathLanes<L: Lane> {
    from_t: V3<L>,
    to_t: V3<L>,
    from_s: V3<L>,
    to_s: V3<L>,
    from_r: Q<L>,
    to_r: Q<L>,
    axis: V3<L>,
    turning: L::Mask,
    root_offset: V3<L>,
    forward: V3<L>,
    /// The body's up axis in the anchor's frame: the forward plane guards
    /// only below the root.
    up: V3<L>,
    units_per_metre: L,
    bind_scale: L,
    units_follow_scale: L::Mask,
    gravity: L,
    floor: L,
    ground_up: V3<L>,
}

impl<L: Lane> PathLanes<L> {
    /// Chain `i` is `chain(i)`, `i < k`; lanes past `k` repeat the last.
    pub fn gather<'a>(
        k: usize,
        chain: impl Fn(usize) -> (&'a ChainRest, &'a StepRules, &'a AnchorPath),
    ) -> Self {
        let c = |i: usize| chain(i.min(k - 1));
        let v = |f: &dyn Fn(usize) -> Vec3| V3::from_fn(|i| f(i).into());
        let s = |f: &dyn Fn(usize) -> f32| L::from_fn(f);
        let flag = |f: &dyn Fn(usize) -> bool| {
            L::from_fn(|i| if f(i) { 1.0 } else { 0.0 }).gt(L::splat(0.5))
        };
        PathLanes {
            from_t: v(&|i| c(i).2.from.translation),
            to_t: v(&|i| c(i).2.to.translation),
            from_s: v(&|i| c(i).2.from.scale),
            to_s: v(&|i| c(i).2.to.scale),
            from_r: Q::from_fn(|i| c(i).2.from.rotation),
            to_r: Q::from_fn(|i| c(i).2.to.rotation),
            axis: v(&|i| c(i).2.turn.map_or(Vec3::ZERO, |t| t.0)),
            turning: flag(&|i| c(i).2.turn.is_some()),
            root_offset: v(&|i| c(i).0.root_offset),
            forward: V3::from_fn(|i| c(i).0.forward_in_anchor),
            up: V3::from_fn(|i| c(i).0.up_in_anchor),
            units_per_metre: s(&|i| c(i).0.units_per_metre),
            bind_scale: s(&|i| c(i).0.anchor_bind_scale),
            units_follow_scale: flag(&|i| c(i).0.units_follow_scale),
            gravity: s(&|i| c(i).1.gravity),
            floor: s(&|i| c(i).1.floor),
            ground_up: v(&|i| c(i).0.up),
        }
    }

    /// The frame at the end of a substep, lane `i` a fraction `t[i]` of the
    /// way with `(sin, cos)` of its half turn there ([`AnchorPath::half_turn`]).
    /// The pose is exactly the end pose at `t >= 1`; before, translation
    /// and scale are lerped and the rotation is `q₀ (q₀⁻¹ q₁)^t`.
    #[inline(always)]
    pub fn frame(&self, t: L, sin: L, cos: L) -> FrameLanes<L> {
        let one = L::splat(1.0);
        let end = t.ge(one);
        let lerp = |a: V3<L>, b: V3<L>| V3::select(end, b, a.scale(one - t) + b.scale(t));
        let translation = lerp(self.from_t, self.to_t);
        let scale = lerp(self.from_s, self.to_s);
        let v = self.axis.scale(sin);
        let turned = self.from_r.mul(Q { x: v.x, y: v.y, z: v.z, w: cos }).normalize();
        let rotation = Q::select(end, self.to_r, Q::select(self.turning, turned, self.from_r));

        let r = M3::from_quat(rotation);
        let sigma = (scale.x.abs() + scale.y.abs() + scale.z.abs()) / L::splat(3.0);
        let followed = self.units_per_metre * sigma / self.bind_scale;
        let units = L::select(self.units_follow_scale, followed, self.units_per_metre);
        let offset = V3::new(
            scale.x * self.root_offset.x,
            scale.y * self.root_offset.y,
            scale.z * self.root_offset.z,
        );
        let forward = r.apply(self.forward);
        let up = r.apply(self.up);
        FrameLanes {
            rotation,
            root: translation + r.apply(offset),
            normal: forward.div(forward.length()),
            up: up.div(up.length()),
            gravity_y: -(self.gravity * units),
            floor: self.floor * units,
            ground_up: self.ground_up,
            sigma,
        }
    }
}
