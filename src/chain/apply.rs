//! Builds the repaired rig: new joints appended after the existing ones
//! (existing joint indices, and so every clip, stay valid), the fixed parts'
//! skin rows replaced, everything else copied.

use glam::{Mat4, Vec3};

use crate::error::Result;
use crate::rig::{Influences, Rig, Trs};

/// A joint to append.
pub struct NewJoint {
    /// Its name (`Tail_3`, `Tail_End`).
    pub name: String,
    /// Its parent's joint index.
    pub parent: usize,
    /// Its world transform at bind.
    pub bind_world: Mat4,
}

/// The bind matrix of a chain joint at `head`: the parent's (pelvis')
/// rotation and scale, so each chain bone is a pure translation in its
/// parent's frame (SPEC T8).
pub fn chain_bind(pelvis_bind: &Mat4, head: Vec3) -> Mat4 {
    let mut m = *pelvis_bind;
    m.w_axis = head.extend(1.0);
    m
}

/// A new rig with `joints` appended and the skin rows of the vertices in
/// `rows` replaced (`rows[v] = Some(influences)`).
pub fn apply(rig: &Rig, joints: &[NewJoint], rows: &[Option<Vec<(u32, f32)>>]) -> Result<Rig> {
    let mut parts = rig.to_parts();
    let mut bind = parts.bind_world.take().unwrap_or_default();
    let mut inverse = parts.inverse_bind.take().unwrap_or_default();
    let mut rest = parts.rest_local.take().unwrap_or_default();
    for j in joints {
        let local = bind[j.parent].inverse() * j.bind_world;
        parts.joint_names.push(j.name.clone());
        parts.parents.push(Some(j.parent));
        bind.push(j.bind_world);
        inverse.push(j.bind_world.inverse());
        rest.push(Trs::from_matrix(&local));
    }
    parts.bind_world = Some(bind);
    parts.inverse_bind = Some(inverse);
    parts.rest_local = Some(rest);

    let old = rig.influences();
    let mut inf = Influences {
        offsets: Vec::with_capacity(old.offsets.len()),
        // About the old rows' size (a chain's rows hold a few joints as
        // the rigger's did): reserved once rather than grown push by push.
        joints: Vec::with_capacity(old.joints.len()),
        weights: Vec::with_capacity(old.weights.len()),
    };
    inf.offsets.push(0);
    for v in 0..rig.vertex_count() {
        match rows.get(v).and_then(|r| r.as_ref()) {
            Some(row) => {
                for &(j, w) in row {
                    inf.joints.push(j);
                    inf.weights.push(w);
                }
            }
            None => {
                let (js, ws) = old.of(v);
                inf.joints.extend_from_slice(js);
                inf.weights.extend_from_slice(ws);
            }
        }
        inf.offsets.push(inf.joints.len() as u32);
    }
    parts.influences = inf;
    // The mesh is the rig's own, checked when it was built.
    rig.with_mesh_of(parts)
}
