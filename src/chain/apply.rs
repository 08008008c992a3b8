//! Builds the repaired rig: new joints appended after the existing ones
//! (existing joint indices, and so every clip, stay valid), the fixed parts'
//! skin rows replaced, everything else copied.

use glam::{Mat4, Vec3};

use crate::error::Result;
use crate::rig::{Influences, Rig, RigParts, Trs};

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
    // The mesh and the rows kept are the rig's own, checked when it was
    // built; the rows replaced are checked here.
    let replaced: Vec<u32> = (0..rows.len().min(rig.vertex_count()))
        .filter(|&v| rows[v].is_some())
        .map(|v| v as u32)
        .collect();
    rig.with_mesh_of(parts_of(rig, joints, rows), &replaced)
}

/// The parts of [`apply`]'s rig, unchecked.
fn parts_of(rig: &Rig, joints: &[NewJoint], rows: &[Option<Vec<(u32, f32)>>]) -> RigParts {
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
    parts
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
    use glam::{Mat4, Vec3};

    use super::{apply, influences_with, parts_of, NewJoint};
    use crate::rig::{Influences, Rig, RigParts};

    /// [`apply`] checks only the rows it replaces (the rig's own were
    /// checked when it was built): what it returns is what [`Rig::new`]
    /// returns for the same parts with every row checked, the same rig or
    /// the same first fault.
    #[test]
    fn a_grown_rig_is_the_one_every_row_checked_gives() {
        let row = |r: &[(u32, f32)]| r.to_vec();
        let mut inf = Influences { offsets: vec![0], joints: vec![], weights: vec![] };
        for r in [row(&[(0, 1.0)]), row(&[(0, 0.5), (1, 0.5)]), row(&[(1, 1.0)]), row(&[(1, 1.0)])]
        {
            for (j, w) in r {
                inf.joints.push(j);
                inf.weights.push(w);
            }
            inf.offsets.push(inf.joints.len() as u32);
        }
        let rig = Rig::new(RigParts {
            vertices: vec![Vec3::ZERO, Vec3::X, Vec3::new(1.0, 1.0, 0.0), Vec3::Y],
            triangles: vec![[0, 1, 2], [0, 2, 3]],
            influences: inf,
            joint_names: vec!["a".into(), "b".into()],
            parents: vec![None, Some(0)],
            bind_world: Some(vec![Mat4::IDENTITY, Mat4::from_translation(Vec3::Y)]),
            ..Default::default()
        })
        .unwrap();
        let joints = [NewJoint {
            name: "t".into(),
            parent: 1,
            bind_world: Mat4::from_translation(2.0 * Vec3::Y),
        }];
        type Rows = Vec<Option<Vec<(u32, f32)>>>;
        let cases: Vec<Rows> = vec![
            vec![None, Some(row(&[(2, 1.0)])), None, None],
            vec![Some(row(&[(2, 0.25), (0, 0.75)])), None, None, Some(row(&[(1, 0.5), (2, 0.5)]))],
            // Rows that sum off one, to nothing, a joint out of range before
            // a negative weight, a weight not finite.
            vec![None, Some(row(&[(2, 0.5)])), None, None],
            vec![Some(row(&[(0, 0.0)])), None, None, None],
            vec![None, Some(row(&[(3, 1.0)])), None, Some(row(&[(1, -1.0), (2, 2.0)]))],
            vec![None, None, Some(row(&[(0, f32::NAN)])), None],
            // Past the last vertex: ignored.
            vec![None, None, None, None, Some(row(&[(9, 1.0)]))],
        ];
        let mut faults = 0;
        for rows in cases {
            let grown = apply(&rig, &joints, &rows);
            let full = Rig::new(parts_of(&rig, &joints, &rows));
            match (grown, full) {
                (Ok(a), Ok(b)) => assert_eq!(a, b),
                (Err(a), Err(b)) => {
                    assert_eq!(a.to_string(), b.to_string());
                    faults += 1;
                }
                (a, b) => panic!("{rows:?}: {a:?} against {b:?}"),
            }
        }
        assert_eq!(faults, 4);
    }

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
