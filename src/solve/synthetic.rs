//! A generated creature with a known answer, for tests and benchmarks: a
//! spine along +Z with legs hanging down in pairs, each bone a tube of
//! vertex rings blended linearly into its parent near the joint (so bones
//! are coupled through shared vertices, as in real skins), bind matrices
//! with arbitrary rotations (so the bind-space formulation is exercised),
//! and a smooth looping clip that turns every joint and moves the root.

use glam::{Mat4, Quat, Vec3};

use crate::error::Result;
use crate::rig::{Clip, Influences, Rig, RigParts, Trs};

/// Deterministic 64-bit LCG (Knuth MMIX), so generated data never depends
/// on a crate's random stream.
pub struct Lcg(pub u64);

impl Lcg {
    /// Uniform in [0, 1), 24 bits.
    pub fn next_f32(&mut self) -> f32 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 40) as f32) / ((1u64 << 24) as f32)
    }
    /// Uniform in [-1, 1).
    pub fn signed(&mut self) -> f32 {
        2.0 * self.next_f32() - 1.0
    }
    /// A random direction (unit length).
    pub fn unit_vec(&mut self) -> Vec3 {
        loop {
            let v = Vec3::new(self.signed(), self.signed(), self.signed());
            let l = v.length();
            if l > 0.1 && l <= 1.0 {
                return v / l;
            }
        }
    }
}

/// Share of a bone's length, from its head, over which it blends into its
/// parent.
const BLEND_SPAN: f32 = 0.3;

/// A generated rig with `bones` joints and about `vertices` vertices.
pub fn creature(bones: usize, vertices: usize, seed: u64) -> Result<Rig> {
    let bones = bones.max(2);
    let mut rng = Lcg(seed);
    // Skeleton: a spine of about a third of the bones, then legs of 3 in pairs.
    let spine = (bones / 3).max(1).min(bones);
    let mut parents: Vec<Option<usize>> = Vec::with_capacity(bones);
    let mut heads: Vec<Vec3> = Vec::with_capacity(bones);
    for s in 0..spine {
        parents.push(if s == 0 { None } else { Some(s - 1) });
        heads.push(Vec3::new(0.0, 1.0, s as f32 * 0.4));
    }
    let mut leg = 0usize;
    while parents.len() < bones {
        let hip = (leg / 2 * 3 + 1) % spine;
        let side = if leg.is_multiple_of(2) { 1.0 } else { -1.0 };
        let mut parent = hip;
        for seg in 0..3 {
            if parents.len() >= bones {
                break;
            }
            let base = heads[parent];
            let head = if seg == 0 {
                base + Vec3::new(0.15 * side, -0.05, 0.0)
            } else {
                base + Vec3::new(0.02 * side, -0.3, 0.03)
            };
            parents.push(Some(parent));
            heads.push(head);
            parent = parents.len() - 1;
        }
        leg += 1;
    }
    let b = parents.len();
    // Each bone's tail: its first child's head, or a short continuation.
    let mut tails: Vec<Vec3> = heads.clone();
    for j in 0..b {
        let child = (0..b).find(|&c| parents[c] == Some(j));
        tails[j] = match child {
            Some(c) => heads[c],
            None => {
                heads[j]
                    + (heads[j] - parents[j].map(|p| heads[p]).unwrap_or(heads[j] - Vec3::Z * 0.3))
                        .normalize_or_zero()
                        * 0.25
            }
        };
    }
    // Rings: spread the vertex budget evenly over bones.
    let per_bone = (vertices / b).max(8);
    let around = 8usize;
    let rings = (per_bone / around).max(1);
    let mut verts = Vec::new();
    let mut joint_rows: Vec<(Vec<u32>, Vec<f32>)> = Vec::new();
    let mut triangles = Vec::new();
    for j in 0..b {
        let axis = tails[j] - heads[j];
        let len = axis.length().max(1e-3);
        let dir = axis / len;
        let side = dir.any_orthonormal_vector();
        let up = dir.cross(side);
        let radius = 0.06 + 0.02 * rng.next_f32();
        let first = verts.len() as u32;
        for r in 0..rings {
            let u = (r as f32 + 0.5) / rings as f32;
            for a in 0..around {
                let phi = a as f32 / around as f32 * std::f32::consts::TAU;
                let wobble = 1.0 + 0.15 * rng.signed();
                let p = heads[j] + axis * u + (side * phi.cos() + up * phi.sin()) * radius * wobble;
                verts.push(p);
                match parents[j] {
                    Some(p) if u < BLEND_SPAN => {
                        let w_self = 0.5 + 0.5 * u / BLEND_SPAN;
                        joint_rows.push((vec![j as u32, p as u32], vec![w_self, 1.0 - w_self]));
                    }
                    _ => joint_rows.push((vec![j as u32], vec![1.0])),
                }
            }
            if r + 1 < rings {
                for a in 0..around {
                    let a0 = first + (r * around + a) as u32;
                    let a1 = first + (r * around + (a + 1) % around) as u32;
                    triangles.push([a0, a1, a0 + around as u32]);
                    triangles.push([a1, a1 + around as u32, a0 + around as u32]);
                }
            }
        }
    }
    let mut influences = Influences { offsets: vec![0], joints: Vec::new(), weights: Vec::new() };
    for (js, ws) in joint_rows {
        influences.joints.extend(js);
        influences.weights.extend(ws);
        influences.offsets.push(influences.joints.len() as u32);
    }
    let bind_world: Vec<Mat4> = heads
        .iter()
        .map(|h| {
            Mat4::from_rotation_translation(
                Quat::from_axis_angle(rng.unit_vec(), rng.signed() * 2.0),
                *h,
            )
        })
        .collect();
    Rig::new(RigParts {
        vertices: verts,
        triangles,
        influences,
        joint_names: (0..b).map(|j| format!("bone_{j}")).collect(),
        parents,
        bind_world: Some(bind_world),
        inverse_bind: None,
        rest_local: None,
        normalize: false,
    })
}

/// A looping clip of `frames` frames on `rig`: every joint swings about its
/// own random axis by up to `amplitude` radians; with `stretch`, non-root
/// joints also slide along their offset by up to 10% (a clip only the rigid
/// mode can follow exactly); the root walks forward and bobs.
pub fn clip(rig: &Rig, frames: usize, amplitude: f32, stretch: bool, seed: u64) -> Result<Clip> {
    let mut rng = Lcg(seed);
    let bind = rig.bind_locals();
    let b = rig.joint_count();
    let axes: Vec<Vec3> = (0..b).map(|_| rng.unit_vec()).collect();
    let phases: Vec<f32> = (0..b).map(|_| rng.next_f32() * std::f32::consts::TAU).collect();
    let h = rig.height().max(rig.diagonal() * 0.1);
    let mut locals = Vec::with_capacity(frames * b);
    for f in 0..frames {
        let t = f as f32 / frames as f32 * std::f32::consts::TAU;
        for j in 0..b {
            let s = (t + phases[j]).sin();
            let rot = Quat::from_axis_angle(axes[j], amplitude * s) * bind[j].rotation;
            let mut tr = bind[j].translation;
            if rig.parents()[j].is_none() {
                tr +=
                    Vec3::new(0.0, 0.05 * h * (2.0 * t).sin(), 0.5 * h * f as f32 / frames as f32);
            } else if stretch {
                tr *= 1.0 + 0.1 * (t + 2.0 * phases[j]).cos();
            }
            locals.push(Trs::new(tr, rot.normalize(), bind[j].scale));
        }
    }
    Clip::new("synthetic", 24.0, (frames - 1) as f32 / 24.0, b, locals)
}
