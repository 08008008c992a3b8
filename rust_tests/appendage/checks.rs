//! Invariants every repaired rig must satisfy.

use caudal::appendage::{Decision, PartReport, Report};
use caudal::rig::{skin_matrices, skin_vertices, world_matrices, Trs};
use caudal::Rig;
use glam::{Mat4, Quat, Vec3};

pub fn chains(report: &Report) -> Vec<&PartReport> {
    report.parts.iter().filter(|p| p.decision == Decision::Chain).collect()
}

fn mat_close(a: &Mat4, b: &Mat4, tol: f32) -> bool {
    a.to_cols_array()
        .iter()
        .zip(b.to_cols_array())
        .all(|(x, y)| (x - y).abs() <= tol * (1.0 + y.abs()))
}

/// Structure of one grown chain: names, parents, bind rotation of the
/// pelvis, pure-translation locals, weightless end, blended weights.
pub fn check_chain(input: &Rig, out: &Rig, part: &PartReport, pelvis: &str) {
    let k = part.bone_count;
    assert!((3..=8).contains(&k), "K = {k}");
    assert_eq!(part.bones.len(), k);
    let prefix = part.bones[0].strip_suffix("_1").expect("first bone ends in _1");
    let pelvis_j = out.require_joint("pelvis", pelvis).unwrap();
    let mut parent = pelvis_j;
    let mut names = part.bones.clone();
    names.push(format!("{prefix}_End"));
    for (i, name) in names.iter().enumerate() {
        let j = out.require_joint("chain", name).unwrap();
        assert!(j >= input.joint_count(), "chain joints are appended after the existing ones");
        assert_eq!(out.parents()[j], Some(parent), "{name} parent");
        // Same bind rotation (and scale) as the pelvis.
        let (b, p) = (out.bind_world()[j], out.bind_world()[pelvis_j]);
        for c in 0..3 {
            assert!(
                (b.col(c) - p.col(c)).abs().max_element() < 1e-5,
                "{name} bind rotation differs from the pelvis'"
            );
        }
        assert!(
            mat_close(&(out.inverse_bind()[j] * b), &Mat4::IDENTITY, 1e-4),
            "{name} inverse bind"
        );
        let local = out.rest_local()[j];
        assert!(
            local.rotation.angle_between(Quat::IDENTITY) < 1e-3,
            "{name} local is a pure translation"
        );
        assert!((local.scale - Vec3::ONE).abs().max_element() < 1e-4);
        if i == k {
            let inf = out.influences();
            assert!(
                !inf.joints.iter().zip(&inf.weights).any(|(&jj, &w)| jj as usize == j && w > 0.0),
                "{name} must be weightless"
            );
        }
        parent = j;
    }
    // Part vertices: weights sum to one, only on the pelvis and this chain.
    let chain: Vec<usize> = part.bones.iter().map(|n| out.joint_index(n).unwrap()).collect();
    for &v in &part.vertices {
        let (js, ws) = out.influences().of(v as usize);
        assert!((ws.iter().sum::<f32>() - 1.0).abs() < 1e-5);
        for (&j, &w) in js.iter().zip(ws) {
            assert!(
                j as usize == pelvis_j || chain.contains(&(j as usize)),
                "vertex {v} weighted to {}",
                out.joint_names()[j as usize]
            );
            if j as usize == pelvis_j {
                // The pelvis is "prev" of the root segment: at most half,
                // shared with the chain (the hand-over at the root lengthens
                // that half's fade, never raises it).
                assert!(
                    w <= 0.5 + 1e-6 && js.iter().any(|&j| chain.contains(&(j as usize))),
                    "vertex {v}: pelvis weight {w}"
                );
            }
        }
    }
    // The root and tip bones move skin (on a coarse mesh a middle bone may
    // fall between two rings of vertices and only carry the chain on).
    for &j in [chain[0], *chain.last().unwrap()].iter() {
        assert!(part.vertices.iter().any(|&v| out
            .influences()
            .of(v as usize)
            .0
            .contains(&(j as u32))));
    }
}

/// The rest of the rig is untouched: old joints, their binds, non-part skin.
pub fn check_rest_unchanged(input: &Rig, out: &Rig, changed: &[u32]) {
    assert_eq!(&out.joint_names()[..input.joint_count()], input.joint_names());
    assert_eq!(&out.parents()[..input.joint_count()], input.parents());
    assert_eq!(&out.bind_world()[..input.joint_count()], input.bind_world());
    assert_eq!(out.vertices(), input.vertices());
    assert_eq!(out.triangles(), input.triangles());
    let mut is_changed = vec![false; input.vertex_count()];
    for &v in changed {
        is_changed[v as usize] = true;
    }
    for (v, &changed) in is_changed.iter().enumerate() {
        if !changed {
            assert_eq!(
                out.influences().of(v),
                input.influences().of(v),
                "vertex {v} outside the parts changed"
            );
        }
    }
}

/// Rotating the pelvis in a pose carries the chain's skin rigidly along
/// (every chain bone hangs from it at its bind offset), and the bind pose
/// skins to the bind mesh.
pub fn check_pose(out: &Rig, pelvis: &str, part: &PartReport) {
    let order = out.topological_order();
    let bind_locals = out.bind_locals();
    let bind_worlds = world_matrices(out.parents(), order, &bind_locals);
    let at_bind = skin_vertices(out, &skin_matrices(out, &bind_worlds));
    for &v in &part.vertices {
        assert!(at_bind[v as usize].distance(out.vertices()[v as usize]) < 1e-3 * out.height());
    }
    let p = out.joint_index(pelvis).unwrap();
    let mut locals = bind_locals.clone();
    let turn = Quat::from_rotation_y(0.6) * Quat::from_rotation_x(-0.3);
    locals[p] = Trs { rotation: turn * locals[p].rotation, ..locals[p] };
    let worlds = world_matrices(out.parents(), order, &locals);
    let posed = skin_vertices(out, &skin_matrices(out, &worlds));
    let rigid = worlds[p] * bind_worlds[p].inverse();
    for &v in &part.vertices {
        let expect = rigid.transform_point3(out.vertices()[v as usize]);
        assert!(
            posed[v as usize].distance(expect) < 1e-3 * out.height(),
            "tail vertex {v} does not follow the pelvis"
        );
    }
}

/// Distance from `p` to a polyline.
pub fn polyline_distance(p: Vec3, path: &[Vec3]) -> (f32, f32) {
    let mut best = (f32::INFINITY, 0.0);
    let total: f32 = path.windows(2).map(|w| w[0].distance(w[1])).sum();
    let mut s0 = 0.0;
    for w in path.windows(2) {
        let ab = w[1] - w[0];
        let t = ((p - w[0]).dot(ab) / ab.length_squared()).clamp(0.0, 1.0);
        let d = p.distance(w[0] + t * ab);
        if d < best.0 {
            best = (d, (s0 + t * ab.length()) / total);
        }
        s0 += ab.length();
    }
    best
}
