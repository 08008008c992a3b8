//! Positions in either precision, forward kinematics and skinning in f64,
//! and a clip played between its keys.
//!
//! The solve works in f64 throughout; its input surfaces may be f32 (what a
//! glTF file or a float32 array holds) or f64 (a numerical user's data),
//! read through [`Positions`] without a copy or a cast to f32.
//!
//! Between keys a clip plays as glTF `LINEAR` keys do: translations and
//! scales interpolated linearly, rotations by spherical linear
//! interpolation along the shorter arc. That is how a solved clip written
//! to a file is played back, so it is how the solve measures itself
//! between keys.

use glam::{DMat4, DVec3, Vec3};

use crate::rig::{Clip, Rig, Trs};

/// Frame-major vertex positions, `at(f * N + v)`.
pub trait Positions: Sync {
    /// Number of positions (frames times vertices).
    fn count(&self) -> usize;
    /// Position `i`, widened to f64.
    fn at(&self, i: usize) -> DVec3;
    /// Index of the first non-finite coordinate, if any.
    fn first_non_finite(&self) -> Option<usize>;
    /// Whether the data are float64 (the solve's default floor follows).
    fn double_precision(&self) -> bool;
}

impl Positions for [Vec3] {
    fn count(&self) -> usize {
        self.len()
    }
    #[inline]
    fn at(&self, i: usize) -> DVec3 {
        self[i].as_dvec3()
    }
    fn first_non_finite(&self) -> Option<usize> {
        self.iter().position(|p| !p.is_finite())
    }
    fn double_precision(&self) -> bool {
        false
    }
}

impl Positions for [DVec3] {
    fn count(&self) -> usize {
        self.len()
    }
    #[inline]
    fn at(&self, i: usize) -> DVec3 {
        self[i]
    }
    fn first_non_finite(&self) -> Option<usize> {
        self.iter().position(|p| !p.is_finite())
    }
    fn double_precision(&self) -> bool {
        true
    }
}

/// Float64 points computed from float32 data (a clip's keys carried onto
/// another mesh): stored in f64, but only as precise as float32, so the
/// solve treats them as float32 surfaces (stop, loop tolerance).
pub struct FromF32<'a>(pub &'a [DVec3]);

impl Positions for FromF32<'_> {
    fn count(&self) -> usize {
        self.0.len()
    }
    #[inline]
    fn at(&self, i: usize) -> DVec3 {
        self.0[i]
    }
    fn first_non_finite(&self) -> Option<usize> {
        self.0.first_non_finite()
    }
    fn double_precision(&self) -> bool {
        false
    }
}

macro_rules! positions_of_vec {
    ($t:ty) => {
        impl Positions for Vec<$t> {
            fn count(&self) -> usize {
                self.len()
            }
            #[inline]
            fn at(&self, i: usize) -> DVec3 {
                self[..].at(i)
            }
            fn first_non_finite(&self) -> Option<usize> {
                self[..].first_non_finite()
            }
            fn double_precision(&self) -> bool {
                self[..].double_precision()
            }
        }
    };
}
positions_of_vec!(Vec3);
positions_of_vec!(DVec3);

/// A local transform as an f64 matrix.
pub fn trs64(t: &Trs) -> DMat4 {
    DMat4::from_scale_rotation_translation(
        t.scale.as_dvec3(),
        t.rotation.as_dquat().normalize(),
        t.translation.as_dvec3(),
    )
}

/// Joint world matrices of one pose (f64 forward kinematics).
pub fn worlds64(rig: &Rig, locals: &[Trs]) -> Vec<DMat4> {
    let mut w = vec![DMat4::IDENTITY; rig.joint_count()];
    for &j in rig.topological_order() {
        let l = trs64(&locals[j]);
        w[j] = match rig.parents()[j] {
            Some(p) => w[p] * l,
            None => l,
        };
    }
    w
}

/// Skinning matrices (bind space to posed) of one pose.
pub fn skinning64(rig: &Rig, worlds: &[DMat4]) -> Vec<DMat4> {
    worlds.iter().zip(rig.inverse_bind()).map(|(w, ib)| *w * ib.as_dmat4()).collect()
}

/// Linear blend skinning of every rig vertex with f64 skinning matrices.
pub fn skin_points(rig: &Rig, skin: &[DMat4], out: &mut Vec<DVec3>) {
    let inf = rig.influences();
    for (v, p) in rig.vertices().iter().enumerate() {
        let p = p.as_dvec3();
        let (js, ws) = inf.of(v);
        let mut acc = DVec3::ZERO;
        for (&j, &w) in js.iter().zip(ws) {
            acc += skin[j as usize].transform_point3(p) * w as f64;
        }
        out.push(acc);
    }
}

/// Local transforms of `clip` at time `t` (clamped to its keys), played as
/// glTF LINEAR keys.
pub fn play(clip: &Clip, t: f32) -> Vec<Trs> {
    let frames = clip.frame_count();
    if frames == 1 || t <= clip.time(0) {
        return clip.frame(0).to_vec();
    }
    if t >= clip.time(frames - 1) {
        return clip.frame(frames - 1).to_vec();
    }
    let k = (0..frames - 1).find(|&k| clip.time(k + 1) > t).unwrap_or(frames - 2);
    let (t0, t1) = (clip.time(k), clip.time(k + 1));
    let u = ((t - t0) / (t1 - t0)).clamp(0.0, 1.0);
    clip.frame(k).iter().zip(clip.frame(k + 1)).map(|(a, b)| between(a, b, u)).collect()
}

/// The pose a fraction `u` of the way from key `a` to key `b`.
pub fn between(a: &Trs, b: &Trs, u: f32) -> Trs {
    Trs {
        translation: a.translation.lerp(b.translation, u),
        rotation: a.rotation.normalize().slerp(b.rotation.normalize(), u),
        scale: a.scale.lerp(b.scale, u),
    }
}

/// Local transforms halfway between keys `f` and `f + 1`, in f64 where the
/// interpolation happens (the keys themselves are f32).
pub fn halfway(clip: &Clip, f: usize) -> Vec<Trs> {
    clip.frame(f).iter().zip(clip.frame(f + 1)).map(|(a, b)| between(a, b, 0.5)).collect()
}

/// Bind-space vertex positions of a rig as f64.
pub fn rest64(rig: &Rig) -> Vec<DVec3> {
    rig.vertices().iter().map(|p| p.as_dvec3()).collect()
}
