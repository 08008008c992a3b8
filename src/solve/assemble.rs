//! From solved skinning matrices to a clip in the target hierarchy.
//!
//! Bind-space formulation (SPEC X2): the solver finds `M_j = W_j * IBM_j`,
//! which maps bind-space vertices to posed ones whatever conventions the file
//! was exported with. The joint's world matrix is `W_j = M_j * bind_world_j`
//! and its local transform `L_j = W_parent^-1 * W_j`.
//!
//! Joints without constraint weight are not seen by the surface, so the
//! hierarchy places them: a joint with a parent moves rigidly with it
//! (`M_j = M_parent`: its local stays the bind local), an unweighted root
//! (Quaternius' `Body`, the Fox's `_rootJoint`) takes the *travel* of its
//! shallowest weighted descendant (the heaviest one if several): a pure
//! translation that carries that joint's head where the solve put it, so
//! root motion stays on the root while the joint's own local keeps the
//! rotation, about its own head. Keyed that way, a clip played between its
//! keys turns the skin about the bone that carries it, as an animator's
//! keys do; a root that took the whole motion would swing the skin about
//! the root's origin (the Fox's is at its feet) and cut corners between
//! keys. A root with no weighted descendant keeps its bind pose.

use glam::{DMat4, DVec3, DVec4, Mat4};
use nalgebra::{Matrix3, Matrix3x4, Vector3};

use crate::error::Result;
use crate::rig::{Clip, Rig, Trs};

use super::rigid::compose;

/// Fills the skinning matrices of inactive joints from the hierarchy
/// (`m` centred on `center`, like the constraints).
pub fn place_inactive(
    rig: &Rig,
    active: &[bool],
    weight: &[f64],
    center: &Vector3<f64>,
    m: &mut [Matrix3x4<f64>],
) {
    let parents = rig.parents();
    let b = rig.joint_count();
    let depth = {
        let mut d = vec![0usize; b];
        for &j in rig.topological_order() {
            if let Some(p) = parents[j] {
                d[j] = d[p] + 1;
            }
        }
        d
    };
    for &j in rig.topological_order() {
        if parents[j].is_some() || active[j] {
            continue;
        }
        // Shallowest, then heaviest, weighted descendant of this root.
        let mut rep: Option<usize> = None;
        for k in 0..b {
            if !active[k] || !descends_from(parents, k, j) {
                continue;
            }
            rep = match rep {
                None => Some(k),
                Some(r)
                    if depth[k] < depth[r] || (depth[k] == depth[r] && weight[k] > weight[r]) =>
                {
                    Some(k)
                }
                keep => keep,
            };
        }
        m[j] = match rep {
            Some(r) => {
                let h = rig.bind_world()[r].w_axis;
                let head = Vector3::new(h.x as f64, h.y as f64, h.z as f64) - center;
                compose(&Matrix3::identity(), &(m[r] * head.push(1.0) - head))
            }
            None => compose(&Matrix3::identity(), &Vector3::zeros()),
        };
    }
    for &j in rig.topological_order() {
        if let (Some(p), false) = (parents[j], active[j]) {
            m[j] = m[p];
        }
    }
}

fn descends_from(parents: &[Option<usize>], mut k: usize, root: usize) -> bool {
    loop {
        if k == root {
            return true;
        }
        match parents[k] {
            Some(p) => k = p,
            None => return false,
        }
    }
}

/// Centred skinning matrix to a bind-space 4x4: `v -> M (v - c) + c`.
pub fn uncentre(m: &Matrix3x4<f64>, c: &Vector3<f64>) -> DMat4 {
    let r = m.fixed_view::<3, 3>(0, 0);
    let t = m.column(3) - r * c + c;
    DMat4::from_cols(
        DVec4::new(r[(0, 0)], r[(1, 0)], r[(2, 0)], 0.0),
        DVec4::new(r[(0, 1)], r[(1, 1)], r[(2, 1)], 0.0),
        DVec4::new(r[(0, 2)], r[(1, 2)], r[(2, 2)], 0.0),
        DVec4::new(t.x, t.y, t.z, 1.0),
    )
}

/// A bind matrix widened to f64.
pub fn to_dmat4(m: &Mat4) -> DMat4 {
    m.as_dmat4()
}

/// World matrices of one frame from its (bind-space) skinning matrices.
pub fn worlds_from_skin(rig: &Rig, skin: &[DMat4]) -> Vec<DMat4> {
    skin.iter().zip(rig.bind_world()).map(|(m, b)| *m * to_dmat4(b)).collect()
}

/// Local transforms of one frame from world matrices.
pub fn locals_from_worlds(rig: &Rig, worlds: &[DMat4]) -> Vec<Trs> {
    rig.parents()
        .iter()
        .enumerate()
        .map(|(j, p)| {
            let l = match p {
                Some(p) => worlds[*p].inverse() * worlds[j],
                None => worlds[j],
            };
            let (s, r, t) = l.to_scale_rotation_translation();
            Trs { translation: t.as_vec3(), rotation: r.as_quat().normalize(), scale: s.as_vec3() }
        })
        .collect()
}

/// When a solved clip's frames happen: a fixed rate, or explicit key times.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Keys<'a> {
    /// Evenly spaced frames, this many a second, from time 0.
    Rate(f32),
    /// One time a frame (seconds, increasing).
    Times(&'a [f32]),
}

/// The solved clip: `worlds` frame-major (`worlds[f * B + j]`).
pub fn clip_from_worlds(rig: &Rig, name: &str, keys: Keys<'_>, worlds: &[DMat4]) -> Result<Clip> {
    let b = rig.joint_count();
    let frames = worlds.len() / b;
    let mut locals = Vec::with_capacity(worlds.len());
    for f in 0..frames {
        locals.extend(locals_from_worlds(rig, &worlds[f * b..(f + 1) * b]));
    }
    match keys {
        Keys::Rate(rate) => {
            let duration = if frames > 1 { (frames - 1) as f32 / rate } else { 0.0 };
            Clip::new(name, rate, duration, b, locals)
        }
        Keys::Times(times) => Clip::keyed(name, times.to_vec(), b, locals),
    }
}

/// Bone lengths (distance from each joint to its parent) per frame, for the
/// rotation-only guarantee.
pub fn bone_lengths(rig: &Rig, worlds: &[DMat4]) -> Vec<f64> {
    rig.parents()
        .iter()
        .enumerate()
        .map(|(j, p)| match p {
            Some(p) => (worlds[j].w_axis.truncate() - worlds[*p].w_axis.truncate()).length(),
            None => 0.0,
        })
        .collect()
}

/// A nalgebra vector as a glam one.
pub fn dvec(v: &Vector3<f64>) -> DVec3 {
    DVec3::new(v.x, v.y, v.z)
}
