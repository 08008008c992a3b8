//! Writes a case as one GLB: per character an armature node (carrying the
//! exporter's axis and unit change), its joint nodes, one skin and its
//! meshes; the walk and crouch as two animations. The degraded version
//! leaves out the tail joints (and their Rigify copies) and their channels
//! and carries the rigger's weights.

use glam::{Mat4, Quat, Vec3};
use serde_json::{json, Value};

use super::assemble::MeshAsm;
use super::character::Character;
use super::mesh::Weights;
use super::motion::Motion;
use super::placement::Placement;
use super::skeleton::Role;
use super::spec::Naming;

/// Everything a file is written from.
pub struct Scene<'a> {
    pub characters: &'a [Character],
    pub placement: &'a Placement,
    pub meshes: &'a [Vec<MeshAsm>],
    pub motions: &'a [Vec<Motion>],
    /// Per character, per piece, per vertex: the rigger's weights.
    pub degraded: &'a [Vec<Vec<Weights>>],
}

struct Bin {
    bin: Vec<u8>,
    views: Vec<Value>,
    accessors: Vec<Value>,
}

impl Bin {
    fn push(&mut self, bytes: Vec<u8>, target: Option<u32>, mut accessor: Value) -> usize {
        while !self.bin.len().is_multiple_of(4) {
            self.bin.push(0);
        }
        let mut view =
            json!({"buffer": 0, "byteOffset": self.bin.len(), "byteLength": bytes.len()});
        if let Some(t) = target {
            view["target"] = json!(t);
        }
        self.bin.extend(bytes);
        self.views.push(view);
        accessor["bufferView"] = json!(self.views.len() - 1);
        self.accessors.push(accessor);
        self.accessors.len() - 1
    }
}

fn f32_bytes(v: impl IntoIterator<Item = f32>) -> Vec<u8> {
    v.into_iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// Joints a version keeps: the degraded file has no tail joints and no
/// copies of them.
pub fn kept(ch: &Character, artist: bool) -> Vec<usize> {
    let s = &ch.skel;
    (0..s.joints.len())
        .filter(|&j| {
            artist
                || match s.joints[j].role {
                    Role::Tail(_) | Role::TailEnd => false,
                    Role::Copy(_, of) => !s.joints[of as usize].role.is_tail(),
                    _ => true,
                }
        })
        .collect()
}

/// Bind frame of a joint in the file: its head, and (unless the names are
/// generic, whose converter wrote bare translations) the bone's own axes,
/// Y along the bone towards its main child as Blender and Maya orient them.
fn bind_frame(ch: &Character, j: usize, file_from_model: &Mat4) -> Mat4 {
    let s = &ch.skel;
    let head = file_from_model.transform_point3(s.joints[j].head);
    if ch.spec.naming == Naming::Generic {
        return Mat4::from_translation(head);
    }
    let main = s.children(j).find(|&c| {
        !s.joints[c].role.is_tail() && s.joints[c].role.decoy_kind().is_none_or(|k| k == "nub")
    });
    let dir = match (main, s.joints[j].parent) {
        (Some(c), _) => s.joints[c].head - s.joints[j].head,
        (None, Some(p)) => s.joints[j].head - s.joints[p].head,
        (None, None) => Vec3::Y,
    };
    let dir = file_from_model.transform_vector3(dir);
    let rot = if dir.length() > 1e-6 {
        Quat::from_rotation_arc(Vec3::Y, dir.normalize())
    } else {
        Quat::IDENTITY
    };
    Mat4::from_rotation_translation(rot, head)
}

/// Inverse of a rigid bind frame with its last row exactly (0, 0, 0, 1),
/// as glTF requires of inverse bind matrices.
fn inverse_bind(m: &Mat4) -> Mat4 {
    let (t, rot) = trs(m);
    let inv = rot.inverse();
    Mat4::from_rotation_translation(inv, -(inv * t))
}

fn trs(m: &Mat4) -> (Vec3, Quat) {
    let (_, r, t) = m.to_scale_rotation_translation();
    (t, r.normalize())
}

pub fn write(scene: &Scene, artist: bool) -> Vec<u8> {
    let mut bin = Bin { bin: Vec::new(), views: Vec::new(), accessors: Vec::new() };
    let mut nodes: Vec<Value> = Vec::new();
    let mut scene_nodes = Vec::new();
    let mut skins = Vec::new();
    let mut meshes_json = Vec::new();
    let mut materials: Vec<&'static str> = Vec::new();
    // Per character: kept joints, node index of each, bind worlds in the file.
    let mut joint_nodes: Vec<Vec<(usize, usize)>> = Vec::new();
    let mut binds: Vec<Vec<Mat4>> = Vec::new();
    for (c, ch) in scene.characters.iter().enumerate() {
        let file_from_model = scene.placement.file_from_core * scene.placement.core_from_model[c];
        let keep = kept(ch, artist);
        let armature = nodes.len();
        let mut arm = json!({"name": super::naming::armature_name(ch.spec.naming)});
        if let Some((r, s)) = scene.placement.node {
            arm["rotation"] = json!(r.to_array());
            arm["scale"] = json!([s, s, s]);
        }
        nodes.push(arm);
        scene_nodes.push(armature);
        let first = nodes.len();
        let node_of = |j: usize| first + keep.iter().position(|&k| k == j).unwrap();
        let bind: Vec<Mat4> =
            (0..ch.skel.joints.len()).map(|j| bind_frame(ch, j, &file_from_model)).collect();
        let mut roots = Vec::new();
        for &j in &keep {
            let local = match ch.skel.joints[j].parent {
                Some(p) => bind[p].inverse() * bind[j],
                None => {
                    roots.push(node_of(j));
                    bind[j]
                }
            };
            let (t, r) = trs(&local);
            let kids: Vec<usize> = keep
                .iter()
                .copied()
                .filter(|&k| ch.skel.joints[k].parent == Some(j))
                .map(node_of)
                .collect();
            let mut n =
                json!({"name": ch.names[j], "translation": t.to_array(), "rotation": r.to_array()});
            if !kids.is_empty() {
                n["children"] = json!(kids);
            }
            nodes.push(n);
        }
        nodes[armature]["children"] = json!(roots);
        let ibm = bin.push(
            f32_bytes(keep.iter().flat_map(|&j| inverse_bind(&bind[j]).to_cols_array())),
            None,
            json!({"componentType": 5126, "count": keep.len(), "type": "MAT4"}),
        );
        let skin = skins.len();
        skins.push(json!({"name": ch.spec.name, "joints": keep.iter().map(|&j| node_of(j)).collect::<Vec<_>>(), "inverseBindMatrices": ibm, "skeleton": armature}));
        let skin_index =
            |j: usize| keep.iter().position(|&k| k == j).expect("weighted joints are kept");
        let wide = keep.len() > 255;
        for m in &scene.meshes[c] {
            let mut prims = Vec::new();
            for p in &m.prims {
                let pos: Vec<Vec3> = p
                    .source
                    .iter()
                    .map(|&(pc, v)| {
                        file_from_model.transform_point3(ch.pieces[pc].1.positions[v as usize])
                    })
                    .collect();
                let (lo, hi) =
                    pos.iter().fold((Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)), |(l, h), q| {
                        (l.min(*q), h.max(*q))
                    });
                let pos_acc = bin.push(
                    f32_bytes(pos.iter().flat_map(|q| q.to_array())),
                    Some(34962),
                    json!({"componentType": 5126, "count": pos.len(), "type": "VEC3", "min": lo.to_array(), "max": hi.to_array()}),
                );
                let idx = bin.push(
                    p.triangles.iter().flatten().flat_map(|i| i.to_le_bytes()).collect(),
                    Some(34963),
                    json!({"componentType": 5125, "count": 3 * p.triangles.len(), "type": "SCALAR"}),
                );
                let mut joints_bytes = Vec::new();
                let mut weights = Vec::new();
                for &(pc, v) in &p.source {
                    let w = if artist {
                        &ch.pieces[pc].1.weights[v as usize]
                    } else {
                        &scene.degraded[c][pc][v as usize]
                    };
                    for k in 0..4 {
                        let (j, x) = w.get(k).map_or((0, 0.0), |&(j, x)| (skin_index(j), x));
                        if wide {
                            joints_bytes.extend((j as u16).to_le_bytes());
                        } else {
                            joints_bytes.push(j as u8);
                        }
                        weights.push(x);
                    }
                }
                let jnt = bin.push(joints_bytes, Some(34962), json!({"componentType": if wide { 5123 } else { 5121 }, "count": pos.len(), "type": "VEC4"}));
                let wgt = bin.push(
                    f32_bytes(weights),
                    Some(34962),
                    json!({"componentType": 5126, "count": pos.len(), "type": "VEC4"}),
                );
                let material = match materials.iter().position(|&x| x == p.material) {
                    Some(i) => i,
                    None => {
                        materials.push(p.material);
                        materials.len() - 1
                    }
                };
                prims.push(json!({"attributes": {"POSITION": pos_acc, "JOINTS_0": jnt, "WEIGHTS_0": wgt}, "indices": idx, "material": material}));
            }
            let mesh = meshes_json.len();
            meshes_json.push(json!({"name": m.name, "primitives": prims}));
            scene_nodes.push(nodes.len());
            nodes.push(json!({"name": m.name, "mesh": mesh, "skin": skin}));
        }
        joint_nodes.push(keep.iter().map(|&j| (j, node_of(j))).collect());
        binds.push(bind);
    }

    let clips = scene.motions.first().map_or(0, |m| m.len());
    let mut animations = Vec::new();
    for a in 0..clips {
        let times = &scene.motions[0][a].times;
        let input = bin.push(
            f32_bytes(times.iter().copied()),
            None,
            json!({"componentType": 5126, "count": times.len(), "type": "SCALAR", "min": [times[0]], "max": [*times.last().unwrap()]}),
        );
        let mut samplers = Vec::new();
        let mut channels = Vec::new();
        for (c, ch) in scene.characters.iter().enumerate() {
            let motion = &scene.motions[c][a];
            let g = scene.placement.file_from_core * scene.placement.core_from_model[c];
            let gi = g.inverse();
            let bind = &binds[c];
            let model_bind: Vec<Mat4> =
                ch.skel.joints.iter().map(|j| Mat4::from_translation(j.head)).collect();
            let world = |f: usize, j: usize| {
                g * motion.worlds[f][j] * model_bind[j].inverse() * gi * bind[j]
            };
            for &(j, node) in &joint_nodes[c] {
                let local = |f: usize| match ch.skel.joints[j].parent {
                    Some(p) => world(f, p).inverse() * world(f, j),
                    None => world(f, j),
                };
                let rest = match ch.skel.joints[j].parent {
                    Some(p) => bind[p].inverse() * bind[j],
                    None => bind[j],
                };
                let (t0, r0) = trs(&rest);
                let frames: Vec<(Vec3, Quat)> = (0..times.len()).map(|f| trs(&local(f))).collect();
                let scale = t0.length().max(bind[j].w_axis.truncate().length()).max(1e-3);
                if frames.iter().any(|(t, _)| t.distance(t0) > 1e-5 * scale) {
                    let out = bin.push(
                        f32_bytes(frames.iter().flat_map(|(t, _)| t.to_array())),
                        None,
                        json!({"componentType": 5126, "count": times.len(), "type": "VEC3"}),
                    );
                    samplers
                        .push(json!({"input": input, "output": out, "interpolation": "LINEAR"}));
                    channels.push(json!({"sampler": samplers.len() - 1, "target": {"node": node, "path": "translation"}}));
                }
                if frames.iter().any(|(_, r)| r.angle_between(r0) > 1e-5) {
                    let mut prev = r0;
                    let mut rs = Vec::with_capacity(frames.len());
                    for (_, r) in &frames {
                        let r = if r.dot(prev) < 0.0 { -*r } else { *r };
                        rs.push(r);
                        prev = r;
                    }
                    let out = bin.push(
                        f32_bytes(rs.iter().flat_map(|r| r.to_array())),
                        None,
                        json!({"componentType": 5126, "count": times.len(), "type": "VEC4"}),
                    );
                    samplers
                        .push(json!({"input": input, "output": out, "interpolation": "LINEAR"}));
                    channels.push(json!({"sampler": samplers.len() - 1, "target": {"node": node, "path": "rotation"}}));
                }
            }
        }
        if !channels.is_empty() {
            animations.push(json!({"name": scene.motions[0][a].name, "channels": channels, "samplers": samplers}));
        }
    }

    while !bin.bin.len().is_multiple_of(4) {
        bin.bin.push(0);
    }
    let colour = |m: &str| match m {
        "Fur" => [0.55, 0.35, 0.2, 1.0],
        "Cloth" => [0.2, 0.3, 0.6, 1.0],
        "Tail" => [0.7, 0.45, 0.25, 1.0],
        _ => [0.8, 0.6, 0.4, 1.0],
    };
    let mut doc = json!({
        "asset": {"version": "2.0", "generator": concat!("caudal ", env!("CARGO_PKG_VERSION"), " corpus")},
        "scene": 0,
        "scenes": [{"name": "Corpus", "nodes": scene_nodes}],
        "nodes": nodes,
        "meshes": meshes_json,
        "materials": materials.iter().map(|m| json!({"name": m, "pbrMetallicRoughness": {"baseColorFactor": colour(m), "metallicFactor": 0.0, "roughnessFactor": 0.8}})).collect::<Vec<_>>(),
        "skins": skins,
        "accessors": bin.accessors,
        "bufferViews": bin.views,
        "buffers": [{"byteLength": bin.bin.len()}],
    });
    if !animations.is_empty() {
        doc["animations"] = json!(animations);
    }
    crate::gltf_io::glb_container(&doc, bin.bin)
}
