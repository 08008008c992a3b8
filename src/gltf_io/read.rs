use std::collections::HashMap;
use std::path::{Path, PathBuf};

use glam::{Mat3, Mat4, Quat, Vec3};

use super::buffers;
use crate::error::{CaudalError, Result};
use crate::rig::{Influences, Rig, RigParts, Trs};

/// A file's weights count as normalised within this (the glTF validator
/// flags sums further from one).
const NORMALIZED_WEIGHT_SUM: f32 = 2e-6;

/// One primitive that contributed vertices to the rig.
#[derive(Clone, Debug)]
pub struct PrimitiveInfo {
    pub mesh: usize,
    pub primitive: usize,
    pub node: usize,
    /// The glTF skin, or `None` for a mesh node parented to a joint (bound
    /// rigidly to `rigid_joint`).
    pub skin: Option<usize>,
    pub rigid_joint: Option<usize>,
    pub vertex_offset: usize,
    pub vertex_count: usize,
    /// Influences per vertex in the file (4 per JOINTS_n set).
    pub max_influences: usize,
    /// The file's own weights sum to one per vertex (the glTF rule). When
    /// they do not, the writer stores the rig's normalised weights.
    pub weights_normalized: bool,
}

#[derive(Clone, Debug)]
pub struct SkinInfo {
    pub index: usize,
    pub name: Option<String>,
    /// Rig joint index of each skin joint, in the skin's order.
    pub joints: Vec<usize>,
    /// Carries this skin's mesh space into the rig's bind space.
    pub bind_from_file: Mat4,
}

#[derive(Clone, Debug)]
pub struct AnimationInfo {
    pub index: usize,
    pub name: String,
    pub duration: f32,
    pub channels: usize,
    /// Rig joints driven by the animation.
    pub animated_joints: Vec<usize>,
    pub paths: Vec<String>,
}

/// A loaded glTF file: the rig, what it was made of, and what the writer
/// needs to put it back.
#[derive(Clone, Debug)]
pub struct GltfModel {
    pub label: String,
    pub rig: Rig,
    /// Node index of each rig joint.
    pub joint_nodes: Vec<usize>,
    pub primitives: Vec<PrimitiveInfo>,
    pub skins: Vec<SkinInfo>,
    pub animations: Vec<AnimationInfo>,
    /// Mesh nodes that are neither skinned nor under a joint (static props):
    /// not part of the rig.
    pub static_meshes: Vec<usize>,
    pub generator: Option<String>,
    pub(super) doc: gltf::Document,
    pub(super) json: serde_json::Value,
    pub(super) buffers: Vec<Vec<u8>>,
    pub(super) base_dir: Option<PathBuf>,
    pub(super) node_rest: Vec<Trs>,
    /// For each rig joint, the non-joint nodes between it and its rig parent
    /// (outermost first); their transforms fold into the joint's local.
    pub(super) folded: Vec<Vec<usize>>,
}

/// One JOINTS_n/WEIGHTS_n pair as read.
type InfluenceSet = (Vec<[u16; 4]>, Vec<[f32; 4]>);

/// Loads a .glb or .gltf (embedded or external buffers).
pub fn load(path: &Path) -> Result<GltfModel> {
    let bytes = std::fs::read(path).map_err(|e| CaudalError::io(path, e))?;
    load_bytes(&bytes, path.parent(), &path.display().to_string())
}

/// Loads from memory; `base_dir` resolves external buffer files.
pub fn load_bytes(bytes: &[u8], base_dir: Option<&Path>, label: &str) -> Result<GltfModel> {
    if bytes.len() >= 4 && &bytes[..4] != b"glTF" && bytes.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        return Err(CaudalError::gltf(label, "not a glTF file (no 'glTF' magic and not JSON)"));
    }
    let gltf = gltf::Gltf::from_slice(bytes).map_err(|e| CaudalError::gltf(label, describe(e)))?;
    let json: serde_json::Value = if bytes.starts_with(b"glTF") {
        let glb = gltf::binary::Glb::from_slice(bytes).map_err(|e| CaudalError::gltf(label, describe(e)))?;
        serde_json::from_slice(&glb.json).map_err(|e| CaudalError::gltf(label, e.to_string()))?
    } else {
        serde_json::from_slice(bytes).map_err(|e| CaudalError::gltf(label, e.to_string()))?
    };
    let gltf::Gltf { document: doc, blob } = gltf;
    let buffers = buffers::resolve(&doc, blob, base_dir, label)?;
    build(doc, json, buffers, base_dir.map(Path::to_path_buf), label)
}

fn describe(e: gltf::Error) -> String {
    match e {
        gltf::Error::Binary(b) => format!("bad GLB container: {}", describe_glb(&b)),
        gltf::Error::Deserialize(d) => format!("bad JSON: {d}"),
        gltf::Error::Validation(v) => {
            let msgs: Vec<String> = v.iter().take(5).map(|(p, e)| format!("{} {e}", p.as_str())).collect();
            format!("invalid document: {}", msgs.join("; "))
        }
        other => other.to_string(),
    }
}

/// One line in the reader's words for each GLB container fault (the crate's
/// Debug form, `Length { length: .. }`, is not a message).
fn describe_glb(e: &gltf::binary::Error) -> String {
    use gltf::binary::{ChunkType, Error};
    let chunk = |ty: &ChunkType| match ty {
        ChunkType::Json => "JSON",
        ChunkType::Bin => "BIN",
    };
    match e {
        Error::Io(e) => e.to_string(),
        Error::Version(v) => format!("GLB version {v} (only version 2 is glTF 2.0)"),
        Error::Magic(m) => format!("magic {:?} instead of \"glTF\"", String::from_utf8_lossy(m)),
        Error::Length { length, length_read } => {
            format!("the header declares {length} bytes but the file has {length_read} (truncated?)")
        }
        Error::ChunkLength { ty, length, length_read } => format!(
            "the {} chunk declares {length} bytes but only {length_read} follow (truncated?)",
            chunk(ty)
        ),
        Error::ChunkType(ty) => format!("unexpected {} chunk (JSON must come first, then at most one BIN)", chunk(ty)),
        Error::UnknownChunkType(t) => format!("unknown chunk type {:?}", String::from_utf8_lossy(t)),
    }
}

fn node_trs(node: &gltf::Node) -> Trs {
    let (t, r, s) = node.transform().decomposed();
    Trs::new(Vec3::from(t), Quat::from_array(r).normalize(), Vec3::from(s))
}

/// A similarity (uniform scale, rotation, translation) close to `m`, with
/// rotations within 1e-4 of an axis permutation snapped exactly, and the
/// identity kept bit-exact when `m` is already (nearly) the identity.
fn similarity_of(m: &Mat4) -> Mat4 {
    if m.abs_diff_eq(Mat4::IDENTITY, 1e-5) {
        return Mat4::IDENTITY;
    }
    let m3 = Mat3::from_mat4(*m);
    let det = m3.determinant();
    if det.is_nan() || det <= 1e-12 {
        return Mat4::IDENTITY; // a mirror or degenerate frame: leave the file's space alone
    }
    let s = det.cbrt();
    let mut r = m3 * (1.0 / s);
    let snap = |x: f32| if (x - x.round()).abs() < 1e-4 { x.round() } else { x };
    let snapped = Mat3::from_cols_array(&r.to_cols_array().map(snap));
    if snapped.to_cols_array().iter().all(|x| *x == 0.0 || x.abs() == 1.0) && (snapped.determinant() - 1.0).abs() < 1e-6 {
        r = snapped;
    } else {
        r = Mat3::from_quat(Quat::from_mat3(&r).normalize());
    }
    let s = if (s - 1.0).abs() < 1e-5 { 1.0 } else { s };
    Mat4::from_cols((r.x_axis * s).extend(0.0), (r.y_axis * s).extend(0.0), (r.z_axis * s).extend(0.0), m.w_axis)
}

fn build(doc: gltf::Document, json: serde_json::Value, buffers: Vec<Vec<u8>>, base_dir: Option<PathBuf>, label: &str) -> Result<GltfModel> {
    let nodes: Vec<gltf::Node> = doc.nodes().collect();
    let n_nodes = nodes.len();
    let mut node_parent = vec![None; n_nodes];
    for n in &nodes {
        for c in n.children() {
            node_parent[c.index()] = Some(n.index());
        }
    }
    let node_rest: Vec<Trs> = nodes.iter().map(node_trs).collect();
    let mut rest_world = vec![Mat4::IDENTITY; n_nodes];
    {
        // Parents before children: walk down from the roots.
        let mut stack: Vec<usize> = (0..n_nodes).filter(|&i| node_parent[i].is_none()).collect();
        while let Some(i) = stack.pop() {
            let local = node_rest[i].matrix();
            rest_world[i] = match node_parent[i] {
                Some(p) => rest_world[p] * local,
                None => local,
            };
            stack.extend(nodes[i].children().map(|c| c.index()));
        }
    }

    let get = |b: gltf::Buffer| buffers.get(b.index()).map(|v| v.as_slice());

    // Joints: the union of every skin's joints, first skin first.
    let mut joint_nodes: Vec<usize> = Vec::new();
    let mut joint_of_node: HashMap<usize, usize> = HashMap::new();
    let mut file_ibm: Vec<Vec<Mat4>> = Vec::new();
    for skin in doc.skins() {
        let reader = skin.reader(get);
        let ibms: Vec<Mat4> = match reader.read_inverse_bind_matrices() {
            Some(it) => it.map(|m| Mat4::from_cols_array_2d(&m)).collect(),
            None => vec![Mat4::IDENTITY; skin.joints().count()],
        };
        if ibms.len() < skin.joints().count() {
            return Err(CaudalError::gltf(label, format!("skin {}: {} inverse bind matrices for {} joints", skin.index(), ibms.len(), skin.joints().count())));
        }
        if let Some(i) = ibms.iter().position(|m| !m.is_finite()) {
            return Err(CaudalError::gltf(label, format!("skin {}: inverse bind matrix {i} is not finite", skin.index())));
        }
        for j in skin.joints() {
            if let std::collections::hash_map::Entry::Vacant(e) = joint_of_node.entry(j.index()) {
                e.insert(joint_nodes.len());
                joint_nodes.push(j.index());
            }
        }
        file_ibm.push(ibms);
    }
    if joint_nodes.is_empty() {
        return Err(CaudalError::gltf(label, "no skin: caudal needs a skinned (rigged) model"));
    }
    let jn = joint_nodes.len();

    // Rig parents: nearest joint ancestor; the nodes in between fold in.
    let mut parents = vec![None; jn];
    let mut folded = vec![Vec::new(); jn];
    for (j, &node) in joint_nodes.iter().enumerate() {
        let mut k = node_parent[node];
        let mut between = Vec::new();
        while let Some(p) = k {
            if let Some(&pj) = joint_of_node.get(&p) {
                parents[j] = Some(pj);
                break;
            }
            between.push(p);
            k = node_parent[p];
        }
        between.reverse();
        folded[j] = between;
    }
    let names: Vec<String> = joint_nodes
        .iter()
        .map(|&n| nodes[n].name().map(str::to_string).unwrap_or_else(|| format!("node{n}")))
        .collect();
    let names = dedupe(names);

    // Bind space: the first skin's frame carried onto its scene pose.
    let skins_doc: Vec<gltf::Skin> = doc.skins().collect();
    let skin0_joints: Vec<usize> = skins_doc[0].joints().map(|n| n.index()).collect();
    let reference = skin0_joints
        .iter()
        .position(|n| parents[joint_of_node[n]].is_none())
        .unwrap_or(0);
    let c = similarity_of(&(rest_world[skin0_joints[reference]] * file_ibm[0][reference]));

    // Inverse binds in the rig's space; the first skin that has a joint wins.
    let mut inverse_bind = vec![None; jn];
    let mut skins = Vec::new();
    for (s, skin) in skins_doc.iter().enumerate() {
        let sj: Vec<usize> = skin.joints().map(|n| joint_of_node[&n.index()]).collect();
        // This skin's mesh space relative to the first skin's: D = IBM0^-1 IBMs
        // on a joint both skins share (the identity when they agree).
        let mut bind_from_file = c;
        if s > 0 {
            if let Some((k, &j)) = sj.iter().enumerate().find(|(_, j)| inverse_bind[**j].is_some()) {
                let ib0_file: Mat4 = inverse_bind[j].unwrap() * c;
                let d = similarity_of(&(ib0_file.inverse() * file_ibm[s][k]));
                bind_from_file = c * d;
            }
        }
        let from_inv = bind_from_file.inverse();
        for (k, &j) in sj.iter().enumerate() {
            if inverse_bind[j].is_none() {
                inverse_bind[j] = Some(file_ibm[s][k] * from_inv);
            }
        }
        skins.push(SkinInfo { index: s, name: skin.name().map(str::to_string), joints: sj, bind_from_file });
    }
    let inverse_bind: Vec<Mat4> = inverse_bind.into_iter().map(|m| m.unwrap_or(Mat4::IDENTITY)).collect();
    let bind_world: Vec<Mat4> = inverse_bind.iter().map(|m| m.inverse()).collect();

    // Rest locals: node pose, with folded ancestors multiplied in.
    let rest_local: Vec<Trs> = (0..jn)
        .map(|j| {
            let node = joint_nodes[j];
            if folded[j].is_empty() {
                node_rest[node]
            } else {
                let m = folded[j].iter().fold(Mat4::IDENTITY, |acc, &f| acc * node_rest[f].matrix()) * node_rest[node].matrix();
                Trs::from_matrix(&m)
            }
        })
        .collect();

    // Geometry
    let mut vertices: Vec<Vec3> = Vec::new();
    let mut triangles: Vec<[u32; 3]> = Vec::new();
    let mut offsets: Vec<u32> = vec![0];
    let mut inf_joints: Vec<u32> = Vec::new();
    let mut inf_weights: Vec<f32> = Vec::new();
    let mut primitives = Vec::new();
    let mut static_meshes = Vec::new();
    let mut row: Vec<(u32, f32)> = Vec::new();
    for node in &nodes {
        let Some(mesh) = node.mesh() else { continue };
        let (skin_index, rigid_joint) = match node.skin() {
            Some(s) => (Some(s.index()), None),
            None => {
                let mut k = Some(node.index());
                let mut found = None;
                while let Some(p) = k {
                    if let Some(&j) = joint_of_node.get(&p) {
                        found = Some(j);
                        break;
                    }
                    k = node_parent[p];
                }
                match found {
                    Some(j) => (None, Some(j)),
                    None => {
                        static_meshes.push(node.index());
                        continue;
                    }
                }
            }
        };
        for prim in mesh.primitives() {
            let mode = prim.mode();
            if !matches!(mode, gltf::mesh::Mode::Triangles | gltf::mesh::Mode::TriangleStrip | gltf::mesh::Mode::TriangleFan) {
                continue;
            }
            let where_ = format!("mesh {} primitive {}", mesh.index(), prim.index());
            let reader = prim.reader(get);
            let positions: Vec<Vec3> = match reader.read_positions() {
                Some(p) => p.map(Vec3::from).collect(),
                None => return Err(CaudalError::gltf(label, format!("{where_}: no POSITION"))),
            };
            if let Some(i) = positions.iter().position(|p| !p.is_finite()) {
                return Err(CaudalError::NonFinite { field: format!("POSITION of {where_}"), index: i });
            }
            let n = positions.len();
            let base = vertices.len();
            let indices: Vec<u32> = match reader.read_indices() {
                Some(ix) => ix.into_u32().collect(),
                None => (0..n as u32).collect(),
            };
            if let Some(&bad) = indices.iter().find(|&&i| i as usize >= n) {
                return Err(CaudalError::IndexOutOfRange { field: format!("indices of {where_}"), index: 0, value: bad as i64, bound: n });
            }
            let tris = assemble_triangles(mode, &indices);
            triangles.extend(tris.iter().map(|t| [t[0] + base as u32, t[1] + base as u32, t[2] + base as u32]));

            let max_inf;
            let mut weights_normalized = true;
            match skin_index {
                Some(s) => {
                    let to_bind = skins[s].bind_from_file;
                    vertices.extend(positions.iter().map(|p| to_bind.transform_point3(*p)));
                    let skin_joints = &skins[s].joints;
                    let mut sets: Vec<InfluenceSet> = Vec::new();
                    let mut set = 0;
                    while let (Some(js), Some(ws)) = (reader.read_joints(set), reader.read_weights(set)) {
                        let js: Vec<[u16; 4]> = js.into_u16().collect();
                        let ws: Vec<[f32; 4]> = ws.into_f32().collect();
                        if js.len() != n || ws.len() != n {
                            return Err(CaudalError::gltf(label, format!("{where_}: JOINTS_{set}/WEIGHTS_{set} hold {}/{} entries for {n} vertices", js.len(), ws.len())));
                        }
                        sets.push((js, ws));
                        set += 1;
                    }
                    if sets.is_empty() {
                        return Err(CaudalError::gltf(label, format!("{where_}: skinned node without JOINTS_0/WEIGHTS_0")));
                    }
                    max_inf = 4 * sets.len();
                    for v in 0..n {
                        row.clear();
                        for (si, (js, ws)) in sets.iter().enumerate() {
                            for k in 0..4 {
                                let w = ws[v][k];
                                if w == 0.0 {
                                    continue;
                                }
                                if !w.is_finite() || w < 0.0 {
                                    return Err(CaudalError::Weights { field: format!("WEIGHTS_{si} of {where_}"), message: format!("vertex {v} has weight {w}") });
                                }
                                let local = js[v][k] as usize;
                                let Some(&j) = skin_joints.get(local) else {
                                    return Err(CaudalError::IndexOutOfRange { field: format!("JOINTS_{si} of {where_}"), index: v, value: local as i64, bound: skin_joints.len() });
                                };
                                match row.iter_mut().find(|(jj, _)| *jj == j as u32) {
                                    Some(e) => e.1 += w,
                                    None => row.push((j as u32, w)),
                                }
                            }
                        }
                        let sum: f32 = row.iter().map(|x| x.1).sum();
                        weights_normalized &= (sum - 1.0).abs() <= NORMALIZED_WEIGHT_SUM;
                        for &(j, w) in &row {
                            inf_joints.push(j);
                            inf_weights.push(w);
                        }
                        offsets.push(inf_joints.len() as u32);
                    }
                }
                None => {
                    let j = rigid_joint.unwrap();
                    // Carry the mesh onto its joint's bind frame: world at rest, then into bind space.
                    let to_bind = bind_world[j] * joint_rest_world(&rest_world, joint_nodes[j]).inverse() * rest_world[node.index()];
                    vertices.extend(positions.iter().map(|p| to_bind.transform_point3(*p)));
                    for _ in 0..n {
                        inf_joints.push(j as u32);
                        inf_weights.push(1.0);
                        offsets.push(inf_joints.len() as u32);
                    }
                    max_inf = 1;
                }
            }
            primitives.push(PrimitiveInfo {
                mesh: mesh.index(),
                primitive: prim.index(),
                node: node.index(),
                skin: skin_index,
                rigid_joint,
                vertex_offset: base,
                vertex_count: n,
                max_influences: max_inf,
                weights_normalized,
            });
        }
    }
    if vertices.is_empty() {
        return Err(CaudalError::EmptyMesh { field: "meshes".into(), message: format!("{label}: no skinned or joint-parented triangle mesh") });
    }

    let rig = Rig::new(RigParts {
        vertices,
        triangles,
        influences: Influences { offsets, joints: inf_joints, weights: inf_weights },
        joint_names: names,
        parents,
        bind_world: Some(bind_world),
        inverse_bind: Some(inverse_bind),
        rest_local: Some(rest_local),
        // Files store quantised weights; their sums drift by more than our tolerance.
        normalize: true,
    })?;

    let animations = doc
        .animations()
        .map(|a| {
            let mut joints = Vec::new();
            let mut paths = Vec::new();
            let mut duration = 0f32;
            for ch in a.channels() {
                if let Some(&j) = joint_of_node.get(&ch.target().node().index()) {
                    if !joints.contains(&j) {
                        joints.push(j);
                    }
                }
                let p = format!("{:?}", ch.target().property()).to_lowercase();
                if !paths.contains(&p) {
                    paths.push(p);
                }
                if let Some(inp) = ch.sampler().input().max() {
                    if let Some(t) = inp.as_array().and_then(|v| v.first()).and_then(|v| v.as_f64()) {
                        duration = duration.max(t as f32);
                    }
                }
            }
            AnimationInfo {
                index: a.index(),
                name: a.name().map(str::to_string).unwrap_or_else(|| format!("animation_{}", a.index())),
                duration,
                channels: a.channels().count(),
                animated_joints: joints,
                paths,
            }
        })
        .collect();

    let generator = json.get("asset").and_then(|a| a.get("generator")).and_then(|g| g.as_str()).map(str::to_string);
    Ok(GltfModel {
        label: label.to_string(),
        rig,
        joint_nodes,
        primitives,
        skins,
        animations,
        static_meshes,
        generator,
        doc,
        json,
        buffers,
        base_dir,
        node_rest,
        folded,
    })
}

fn joint_rest_world(rest_world: &[Mat4], node: usize) -> Mat4 {
    rest_world[node]
}

fn assemble_triangles(mode: gltf::mesh::Mode, idx: &[u32]) -> Vec<[u32; 3]> {
    use gltf::mesh::Mode;
    let mut out = Vec::new();
    match mode {
        Mode::Triangles => out.extend(idx.chunks_exact(3).map(|c| [c[0], c[1], c[2]])),
        Mode::TriangleStrip => {
            for i in 2..idx.len() {
                out.push(if i % 2 == 0 { [idx[i - 2], idx[i - 1], idx[i]] } else { [idx[i - 1], idx[i - 2], idx[i]] });
            }
        }
        Mode::TriangleFan => {
            for i in 2..idx.len() {
                out.push([idx[0], idx[i - 1], idx[i]]);
            }
        }
        _ => {}
    }
    out.retain(|t| t[0] != t[1] && t[1] != t[2] && t[0] != t[2]);
    out
}

/// Joint names must be unique in a rig; files sometimes repeat them.
fn dedupe(names: Vec<String>) -> Vec<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    names
        .into_iter()
        .map(|n| {
            let c = seen.entry(n.clone()).or_insert(0);
            *c += 1;
            if *c == 1 { n } else { format!("{n}.{:03}", *c - 1) }
        })
        .collect()
}

impl GltfModel {
    pub fn animation_index(&self, name: &str) -> Result<usize> {
        self.animations
            .iter()
            .position(|a| a.name == name)
            .ok_or_else(|| {
                let names: Vec<&str> = self.animations.iter().map(|a| a.name.as_str()).collect();
                CaudalError::not_found("clip", format!("no animation named {name:?} (have: {})", names.join(", ")))
            })
    }

    /// Rest transform of the non-joint nodes folded into joint `j`'s rig
    /// local (identity when there are none): a rig local `L` goes to the
    /// joint's own node as `folded_rest(j)^-1 * L`.
    pub fn folded_rest(&self, j: usize) -> Mat4 {
        self.folded[j].iter().fold(Mat4::IDENTITY, |acc, &n| acc * self.node_rest[n].matrix())
    }

    pub fn source_dir(&self) -> Option<&Path> {
        self.base_dir.as_deref()
    }
}
