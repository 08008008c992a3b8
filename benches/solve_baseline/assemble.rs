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
//! (Quaternius' `Body`) takes the motion of its shallowest weighted
//! descendant (the heaviest one if several), so root motion stays on the
//! root; a root with no weighted descendant keeps its bind pose.

use glam::{DMat4, DVec3, DVec4, Mat4};
use nalgebra::{Matrix3, Matrix3x4, Vector3};

use caudal::error::Result;
use caudal::rig::{Clip, Rig, Trs};

use super::rigid::compose;

/// Fills the skinning matrices of inactive joints from the hierarchy.
pub fn place_inactive(rig: &Rig, active: &[bool], weight: &[f64], m: &mut [Matrix3x4<f64>]) {
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
            Some(r) => m[r],
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

/// The solved clip: `worlds` frame-major (`worlds[f * B + j]`).
pub fn clip_from_worlds(rig: &Rig, name: &str, rate: f32, worlds: &[DMat4]) -> Result<Clip> {
    let b = rig.joint_count();
    let frames = worlds.len() / b;
    let mut locals = Vec::with_capacity(worlds.len());
    for f in 0..frames {
        locals.extend(locals_from_worlds(rig, &worlds[f * b..(f + 1) * b]));
    }
    let duration = if frames > 1 { (frames - 1) as f32 / rate } else { 0.0 };
    Clip::new(name, rate, duration, b, locals)
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

pub fn dvec(v: &Vector3<f64>) -> DVec3 {
    DVec3::new(v.x, v.y, v.z)
}
