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
    // The new skin table is built from the rig's own (not a copy of it).
    let mut parts = rig.to_parts_with(influences_with(rig.influences(), rows));
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

    // The mesh is the rig's own, checked when it was built.
    rig.with_mesh_of(parts)
}

/// `old` with the rows of the vertices in `rows` replaced. A run of
/// vertices keeping their rows is copied in one piece, its row starts
/// shifted by what the replaced rows before it added (copied row by row,
/// two copies a vertex were most of building a 200k-vertex rig's table).
fn influences_with(old: &Influences, rows: &[Option<Vec<(u32, f32)>>]) -> Influences {
    let n = old.offsets.len() - 1;
    let mut inf = Influences {
        offsets: Vec::with_capacity(old.offsets.len()),
        // About the old rows' size (a chain's rows hold a few joints as
        // the rigger's did): reserved once rather than grown push by push.
        joints: Vec::with_capacity(old.joints.len()),
        weights: Vec::with_capacity(old.weights.len()),
    };
    inf.offsets.push(0);
    let mut v = 0;
    while v < n {
        if let Some(row) = rows.get(v).and_then(|r| r.as_ref()) {
            for &(j, w) in row {
                inf.joints.push(j);
                inf.weights.push(w);
            }
            inf.offsets.push(inf.joints.len() as u32);
            v += 1;
            continue;
        }
        let end = (v + 1..n).find(|&u| rows.get(u).is_some_and(Option::is_some)).unwrap_or(n);
        let (a, b) = (old.offsets[v] as usize, old.offsets[end] as usize);
        // Modulo 2^32: the rows before may have shrunk or grown.
        let shift = (inf.joints.len() as u32).wrapping_sub(old.offsets[v]);
        inf.joints.extend_from_slice(&old.joints[a..b]);
        inf.weights.extend_from_slice(&old.weights[a..b]);
        inf.offsets.extend(old.offsets[v + 1..=end].iter().map(|&o| o.wrapping_add(shift)));
        v = end;
    }
    inf
}

#[cfg(test)]
mod tests {
    use super::influences_with;
    use crate::rig::Influences;

    #[test]
    fn replaced_rows_and_kept_runs_give_the_row_by_row_table() {
        // Five vertices, rows of one to three joints.
        let old = Influences {
            offsets: vec![0, 1, 3, 4, 7, 8],
            joints: vec![0, 1, 2, 3, 4, 5, 6, 7],
            weights: vec![1.0, 0.5, 0.5, 1.0, 0.25, 0.25, 0.5, 1.0],
        };
        let rows = vec![
            None,
            Some(vec![(9, 1.0)]),
            None,
            Some(vec![(8, 0.5), (9, 0.25), (10, 0.25)]),
            None,
        ];
        let new = influences_with(&old, &rows);
        let mut expected = Influences { offsets: vec![0], joints: vec![], weights: vec![] };
        for (v, row) in rows.iter().enumerate() {
            let row: Vec<(u32, f32)> = match row {
                Some(r) => r.clone(),
                None => {
                    let (js, ws) = old.of(v);
                    js.iter().copied().zip(ws.iter().copied()).collect()
                }
            };
            for (j, w) in row {
                expected.joints.push(j);
                expected.weights.push(w);
            }
            expected.offsets.push(expected.joints.len() as u32);
        }
        assert_eq!(new, expected);
        assert_eq!(new.offsets, vec![0, 1, 2, 3, 6, 7]);
    }
}
