use std::collections::HashMap;
use std::path::{Path, PathBuf};

use glam::{Mat3, Mat4, Quat, Vec3};
use gltf::accessor::Dimensions;

use super::accessor::{self, Source};
use super::budget::{Budget, LoadOptions};
use super::{characters, document};
use crate::error::{CaudalError, Result};
use crate::rig::{Influences, Rig, RigParts, Trs};

/// A file's weights count as normalised within this (the glTF validator
/// flags sums further from one).
const NORMALIZED_WEIGHT_SUM: f32 = 2e-6;

/// One primitive that contributed vertices to a character's rig.
#[derive(Clone, Debug)]
pub struct PrimitiveInfo {
    /// Index of the glTF mesh.
    pub mesh: usize,
    /// Index of the primitive within its mesh.
    pub primitive: usize,
    /// Index of the node that instances the mesh.
    pub node: usize,
    /// The glTF skin, or `None` for a mesh node parented to a joint (bound
    /// rigidly to `rigid_joint`).
    pub skin: Option<usize>,
    /// The character's joint a rigid mesh hangs from.
    pub rigid_joint: Option<usize>,
    /// First vertex in the character's rig.
    pub vertex_offset: usize,
    /// First vertex in the file's global order (see the module doc): the
    /// same as `vertex_offset` in a one-character file.
    pub file_vertex_offset: usize,
    /// Vertices the primitive gives the rig.
    pub vertex_count: usize,
    /// Influences per vertex in the file (4 per JOINTS_n set).
    pub max_influences: usize,
    /// The file's own weights sum to one per vertex (the glTF rule). When
    /// they do not, the writer stores the rig's normalised weights.
    pub weights_normalized: bool,
}

/// One glTF skin, as the character it binds sees it.
#[derive(Clone, Debug)]
pub struct SkinInfo {
    /// Index of the skin in the file.
    pub index: usize,
    /// The skin's name in the file, if it has one.
    pub name: Option<String>,
    /// The character the skin belongs to.
    pub character: usize,
    /// The character's joint index of each skin joint, in the skin's order.
    pub joints: Vec<usize>,
    /// Carries this skin's mesh space into its character's bind space.
    pub bind_from_file: Mat4,
}

/// What one of the file's animations drives, without sampling it.
#[derive(Clone, Debug)]
pub struct AnimationInfo {
    /// Index of the animation in the file.
    pub index: usize,
    /// The animation's name (`animation_<index>` when the file gives none).
    pub name: String,
    /// Last key time over all its channels, seconds.
    pub duration: f32,
    /// Number of channels.
    pub channels: usize,
    /// Joints driven by the animation, as (character, joint).
    pub animated_joints: Vec<(usize, usize)>,
    /// Target paths the channels animate (`translation`, `rotation`, `scale`, `weights`), each once.
    pub paths: Vec<String>,
}

/// One skeleton of a file with the meshes it moves (see the module doc for
/// what makes skins one character).
#[derive(Clone, Debug)]
pub struct Character {
    /// Index of the character in the file (its order by first skin).
    pub index: usize,
    /// A label: the first skin's name, else the node holding the skeleton,
    /// else the root joint's name; unique in the file.
    pub name: String,
    /// Only this character's joints and vertices, in its own Y-up bind space.
    pub rig: Rig,
    /// Node index of each rig joint.
    pub joint_nodes: Vec<usize>,
    /// The primitives whose vertices make up the rig, in rig vertex order.
    pub primitives: Vec<PrimitiveInfo>,
    /// The file's skins that bind this character.
    pub skins: Vec<usize>,
    /// For each rig joint, the non-joint nodes between it and its rig
    /// parent (outermost first); their transforms fold into the joint's local.
    pub(super) folded: Vec<Vec<usize>>,
}

/// A loaded glTF file: its characters, what they were made of, and what
/// the writer needs to put them back.
#[derive(Clone, Debug)]
pub struct GltfModel {
    /// The file's path or the caller's label, for error messages.
    pub label: String,
    /// Every skinned character, by first skin in file order.
    pub characters: Vec<Character>,
    /// Every skin of the file, in file order.
    pub skins: Vec<SkinInfo>,
    /// What each of the file's animations drives, in file order.
    pub animations: Vec<AnimationInfo>,
    /// Mesh nodes that are neither skinned nor under a joint (static props):
    /// part of no character.
    pub static_meshes: Vec<usize>,
    /// The exporter named in `asset.generator`, if any.
    pub generator: Option<String>,
    /// What the reader let through but a user should know (a required
    /// extension it ignored, ...).
    pub warnings: Vec<String>,
    pub(super) doc: gltf::Document,
    pub(super) json: serde_json::Value,
    pub(super) buffers: Vec<Vec<u8>>,
    pub(super) base_dir: Option<PathBuf>,
    pub(super) node_rest: Vec<Trs>,
    /// The load's options: its budget also caps each clip sampled later.
    pub options: LoadOptions,
}

/// One JOINTS_n/WEIGHTS_n pair as read: 4 joint indices and 4 weights per vertex.
type InfluenceSet = (Vec<u32>, Vec<f32>);

/// Loads a .glb or .gltf (embedded or external buffers) with the default
/// [`LoadOptions`].
pub fn load(path: &Path) -> Result<GltfModel> {
    load_with(path, &LoadOptions::default())
}

/// Loads a .glb or .gltf. The file itself is read only if it is a regular
/// file within the budget (a FIFO or `/dev/zero` named as the input is
/// refused, not read for ever).
pub fn load_with(path: &Path, options: &LoadOptions) -> Result<GltfModel> {
    crate::limits::check_budget(options.max_bytes)?;
    let label = path.display().to_string();
    let not_regular = || {
        CaudalError::gltf(
            &label,
            "not a regular file (a folder, device or FIFO); caudal reads only regular files",
        )
    };
    // The kind first: opening a FIFO would block until someone writes to it.
    if !std::fs::metadata(path).map_err(|e| CaudalError::io(path, e))?.is_file() {
        return Err(not_regular());
    }
    let file = std::fs::File::open(path).map_err(|e| CaudalError::io(path, e))?;
    let meta = file.metadata().map_err(|e| CaudalError::io(path, e))?;
    if !meta.is_file() {
        return Err(not_regular());
    }
    let len = usize::try_from(meta.len()).unwrap_or(usize::MAX);
    let budget = Budget::new(options.max_bytes);
    budget.charge(&label, "the file", len)?;
    let mut bytes = Vec::with_capacity(len);
    std::io::Read::read_to_end(&mut std::io::Read::take(file, meta.len()), &mut bytes)
        .map_err(|e| CaudalError::io(path, e))?;
    load_within(&bytes, path.parent(), &label, options, &budget)
}

/// Loads from memory with the default [`LoadOptions`]; `base_dir`
/// resolves external buffer files (none are read without it).
pub fn load_bytes(bytes: &[u8], base_dir: Option<&Path>, label: &str) -> Result<GltfModel> {
    load_bytes_with(bytes, base_dir, label, &LoadOptions::default())
}

/// Loads from memory; `base_dir` resolves external buffer files.
pub fn load_bytes_with(
    bytes: &[u8],
    base_dir: Option<&Path>,
    label: &str,
    options: &LoadOptions,
) -> Result<GltfModel> {
    crate::limits::check_budget(options.max_bytes)?;
    load_within(bytes, base_dir, label, options, &Budget::new(options.max_bytes))
}

fn load_within(
    bytes: &[u8],
    base_dir: Option<&Path>,
    label: &str,
    options: &LoadOptions,
    budget: &Budget,
) -> Result<GltfModel> {
    let parsed = document::parse(bytes, base_dir, label, budget)?;
    build(parsed, base_dir.map(Path::to_path_buf), label, options, budget)
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
    if snapped.to_cols_array().iter().all(|x| *x == 0.0 || x.abs() == 1.0)
        && (snapped.determinant() - 1.0).abs() < 1e-6
    {
        r = snapped;
    } else {
        r = Mat3::from_quat(Quat::from_mat3(&r).normalize());
    }
    let s = if (s - 1.0).abs() < 1e-5 { 1.0 } else { s };
    Mat4::from_cols(
        (r.x_axis * s).extend(0.0),
        (r.y_axis * s).extend(0.0),
        (r.z_axis * s).extend(0.0),
        m.w_axis,
    )
}

/// The node forest: each node's parent, and the nodes parents first.
/// A node under two parents or a cycle is an error: the file is not a tree.
fn node_forest(doc: &gltf::Document, label: &str) -> Result<(Vec<Option<usize>>, Vec<usize>)> {
    let n = doc.nodes().len();
    let mut parent = vec![None; n];
    for node in doc.nodes() {
        for c in node.children() {
            if let Some(p) = parent[c.index()] {
                return Err(CaudalError::gltf(
                    label,
                    format!(
                        "nodes[{}] is a child of both nodes[{p}] and nodes[{}]",
                        c.index(),
                        node.index()
                    ),
                ));
            }
            parent[c.index()] = Some(node.index());
        }
    }
    let mut order = Vec::with_capacity(n);
    let mut stack: Vec<usize> = (0..n).rev().filter(|&i| parent[i].is_none()).collect();
    let nodes: Vec<gltf::Node> = doc.nodes().collect();
    while let Some(i) = stack.pop() {
        order.push(i);
        stack.extend(nodes[i].children().map(|c| c.index()));
    }
    if order.len() != n {
        let mut seen = vec![false; n];
        order.iter().for_each(|&i| seen[i] = true);
        let bad = seen.iter().position(|s| !s).unwrap_or(0);
        return Err(CaudalError::gltf(
            label,
            format!("nodes[{bad}] is its own ancestor (the node graph has a cycle)"),
        ));
    }
    Ok((parent, order))
}

/// The nearest ancestor of `node` (itself excluded) that `is_joint`, with
/// the non-joint nodes passed on the way, outermost first.
fn joint_ancestor(
    node: usize,
    node_parent: &[Option<usize>],
    is_joint: &dyn Fn(usize) -> bool,
) -> (Option<usize>, Vec<usize>) {
    let mut between = Vec::new();
    let mut k = node_parent[node];
    while let Some(p) = k {
        if is_joint(p) {
            between.reverse();
            return (Some(p), between);
        }
        between.push(p);
        k = node_parent[p];
    }
    between.reverse();
    (None, between)
}

/// A skinned or joint-parented mesh node, before its vertices are read.
struct MeshNode {
    node: usize,
    character: usize,
    skin: Option<usize>,
    /// Character joint a rigid mesh hangs from.
    rigid_joint: Option<usize>,
}

/// What one character's build needs from the file.
struct FileView<'a> {
    doc: &'a gltf::Document,
    nodes: &'a [gltf::Node<'a>],
    node_parent: &'a [Option<usize>],
    node_rest: &'a [Trs],
    rest_world: &'a [Mat4],
    file_ibm: &'a [Vec<Mat4>],
    skin_joint_nodes: &'a [Vec<usize>],
    src: Source<'a>,
}

/// A parsed file as characters: the node tree's rest pose, the skins, the
/// characters they group into, each character built, then the file-wide
/// facts (vertex order, names, animations).
fn build(
    parsed: document::Parsed,
    base_dir: Option<PathBuf>,
    label: &str,
    options: &LoadOptions,
    budget: &Budget,
) -> Result<GltfModel> {
    let document::Parsed { doc, json, buffers, warnings } = parsed;
    let src = Source { buffers: &buffers, label, budget };
    let nodes: Vec<gltf::Node> = doc.nodes().collect();
    let (node_parent, order) = node_forest(&doc, label)?;
    let (node_rest, rest_world) = rest_pose(&nodes, &node_parent, &order)?;
    let (skin_joint_nodes, file_ibm) = read_skins(&doc, &src)?;
    let groups = characters::group_skins(&node_parent, &skin_joint_nodes);
    if groups.is_empty() {
        return Err(CaudalError::gltf(label, "no skin: caudal needs a skinned (rigged) model"));
    }
    let (meshes, static_meshes) =
        mesh_nodes(&nodes, &node_parent, &groups, &skin_joint_nodes, label)?;
    let view = FileView {
        doc: &doc,
        nodes: &nodes,
        node_parent: &node_parent,
        node_rest: &node_rest,
        rest_world: &rest_world,
        file_ibm: &file_ibm,
        skin_joint_nodes: &skin_joint_nodes,
        src,
    };
    let (mut characters, skins) = build_characters(&view, &groups, &meshes)?;
    number_file_vertices(&mut characters, &meshes);
    let names: Vec<String> = characters.iter().map(|c| c.name.clone()).collect();
    for (c, n) in characters.iter_mut().zip(dedupe(names)) {
        c.name = n;
    }
    let animations = animation_infos(&doc, &characters);
    let generator = json
        .get("asset")
        .and_then(|a| a.get("generator"))
        .and_then(|g| g.as_str())
        .map(str::to_string);
    drop(nodes);
    Ok(GltfModel {
        label: label.to_string(),
        characters,
        skins,
        animations,
        static_meshes,
        generator,
        warnings,
        doc,
        json,
        buffers,
        base_dir,
        node_rest,
        options: *options,
    })
}

/// Every node's rest transform, checked finite, and its rest world matrix
/// (`order` lists parents first).
fn rest_pose(
    nodes: &[gltf::Node],
    node_parent: &[Option<usize>],
    order: &[usize],
) -> Result<(Vec<Trs>, Vec<Mat4>)> {
    let node_rest: Vec<Trs> = nodes.iter().map(node_trs).collect();
    if let Some(i) = node_rest
        .iter()
        .position(|t| !(t.translation.is_finite() && t.rotation.is_finite() && t.scale.is_finite()))
    {
        return Err(CaudalError::NonFinite { field: format!("nodes[{i}] transform"), index: i });
    }
    let mut rest_world = vec![Mat4::IDENTITY; nodes.len()];
    for &i in order {
        let local = node_rest[i].matrix();
        rest_world[i] = match node_parent[i] {
            Some(p) => rest_world[p] * local,
            None => local,
        };
    }
    Ok((node_rest, rest_world))
}

/// Each skin's joint nodes, and its inverse bind matrices in the file's space.
type SkinTables = (Vec<Vec<usize>>, Vec<Vec<Mat4>>);

/// Each skin's joint nodes and inverse binds (the identity where the file
/// gives none), checked: one finite matrix per joint at least.
fn read_skins(doc: &gltf::Document, src: &Source) -> Result<SkinTables> {
    let label = src.label;
    let mut skin_joint_nodes: Vec<Vec<usize>> = Vec::new();
    let mut file_ibm: Vec<Vec<Mat4>> = Vec::new();
    for skin in doc.skins() {
        let joints: Vec<usize> = skin.joints().map(|n| n.index()).collect();
        let what = format!("skins[{}].inverseBindMatrices", skin.index());
        let ibms: Vec<Mat4> = match skin.inverse_bind_matrices() {
            Some(acc) => {
                accessor::expect_dims(&acc, src, &[Dimensions::Mat4], &what)?;
                accessor::floats(&acc, src, &what)?
                    .chunks_exact(16)
                    .map(Mat4::from_cols_slice)
                    .collect()
            }
            None => vec![Mat4::IDENTITY; joints.len()],
        };
        if ibms.len() < joints.len() {
            return Err(CaudalError::gltf(
                label,
                format!(
                    "skin {}: {} inverse bind matrices for {} joints",
                    skin.index(),
                    ibms.len(),
                    joints.len()
                ),
            ));
        }
        if let Some(i) = ibms.iter().position(|m| !m.is_finite()) {
            return Err(CaudalError::gltf(
                label,
                format!("skin {}: inverse bind matrix {i} is not finite", skin.index()),
            ));
        }
        skin_joint_nodes.push(joints);
        file_ibm.push(ibms);
    }
    Ok((skin_joint_nodes, file_ibm))
}

/// The mesh nodes each character reads, and the static ones (under no
/// joint). Skinned ones come in skin order then node order, then rigid ones
/// (under a joint) in node order. This is the file's global vertex order;
/// each character keeps the same order over its own meshes.
fn mesh_nodes(
    nodes: &[gltf::Node],
    node_parent: &[Option<usize>],
    groups: &[Vec<usize>],
    skin_joint_nodes: &[Vec<usize>],
    label: &str,
) -> Result<(Vec<MeshNode>, Vec<usize>)> {
    let mut character_of_skin = vec![None; skin_joint_nodes.len()];
    let mut character_of_joint: HashMap<usize, usize> = HashMap::new();
    for (c, skins) in groups.iter().enumerate() {
        for &s in skins {
            character_of_skin[s] = Some(c);
            for &n in &skin_joint_nodes[s] {
                character_of_joint.insert(n, c);
            }
        }
    }
    let mut skinned = Vec::new();
    let mut rigid = Vec::new();
    let mut static_meshes = Vec::new();
    for node in nodes {
        if node.mesh().is_none() {
            continue;
        }
        match node.skin() {
            Some(s) => {
                let c = character_of_skin[s.index()].ok_or_else(|| {
                    CaudalError::gltf(
                        label,
                        format!(
                            "nodes[{}] is skinned by skin {}, which has no joints",
                            node.index(),
                            s.index()
                        ),
                    )
                })?;
                skinned.push(MeshNode {
                    node: node.index(),
                    character: c,
                    skin: Some(s.index()),
                    rigid_joint: None,
                });
            }
            None => match joint_ancestor(node.index(), node_parent, &|p| {
                character_of_joint.contains_key(&p)
            })
            .0
            {
                Some(j) => rigid.push(MeshNode {
                    node: node.index(),
                    character: character_of_joint[&j],
                    skin: None,
                    rigid_joint: Some(j),
                }),
                None => static_meshes.push(node.index()),
            },
        }
    }
    skinned.sort_by_key(|m| (m.skin, m.node));
    Ok((skinned.into_iter().chain(rigid).collect(), static_meshes))
}

/// Every character of `groups` built, and every skin's info in file order.
/// Skins without joints bind nothing; they stay listed, in no character.
fn build_characters(
    view: &FileView,
    groups: &[Vec<usize>],
    meshes: &[MeshNode],
) -> Result<(Vec<Character>, Vec<SkinInfo>)> {
    let mut characters = Vec::with_capacity(groups.len());
    let mut skins: Vec<Option<SkinInfo>> = vec![None; view.skin_joint_nodes.len()];
    for (c, group) in groups.iter().enumerate() {
        let mine: Vec<&MeshNode> = meshes.iter().filter(|m| m.character == c).collect();
        let (character, skin_infos) = build_character(view, c, group, &mine)?;
        for si in skin_infos {
            let i = si.index;
            skins[i] = Some(si);
        }
        characters.push(character);
    }
    let skins: Vec<SkinInfo> = skins
        .into_iter()
        .enumerate()
        .map(|(i, s)| {
            s.unwrap_or_else(|| SkinInfo {
                index: i,
                name: view.doc.skins().nth(i).and_then(|s| s.name().map(str::to_string)),
                character: usize::MAX,
                joints: Vec::new(),
                bind_from_file: Mat4::IDENTITY,
            })
        })
        .collect();
    Ok((characters, skins))
}

/// File-global vertex offsets of every primitive, in the order of `meshes`.
fn number_file_vertices(characters: &mut [Character], meshes: &[MeshNode]) {
    let mut next = 0;
    for m in meshes {
        for p in characters[m.character].primitives.iter_mut().filter(|p| p.node == m.node) {
            p.file_vertex_offset = next;
            next += p.vertex_count;
        }
    }
}

/// What each animation drives (as character joints), its paths and length.
fn animation_infos(doc: &gltf::Document, characters: &[Character]) -> Vec<AnimationInfo> {
    let joint_of_node: HashMap<usize, (usize, usize)> = characters
        .iter()
        .flat_map(|c| c.joint_nodes.iter().enumerate().map(move |(j, &n)| (n, (c.index, j))))
        .collect();
    doc.animations()
        .map(|a| {
            let mut joints = Vec::new();
            let mut paths = Vec::new();
            let mut duration = 0f32;
            for ch in a.channels() {
                if let Some(&cj) = joint_of_node.get(&ch.target().node().index()) {
                    if !joints.contains(&cj) {
                        joints.push(cj);
                    }
                }
                let p = format!("{:?}", ch.target().property()).to_lowercase();
                if !paths.contains(&p) {
                    paths.push(p);
                }
                if let Some(inp) = ch.sampler().input().max() {
                    if let Some(t) = inp.as_array().and_then(|v| v.first()).and_then(|v| v.as_f64())
                    {
                        duration = duration.max(t as f32);
                    }
                }
            }
            AnimationInfo {
                index: a.index(),
                name: a
                    .name()
                    .map(str::to_string)
                    .unwrap_or_else(|| format!("animation_{}", a.index())),
                duration,
                channels: a.channels().count(),
                animated_joints: joints,
                paths,
            }
        })
        .collect()
}

/// A label for the character: its first skin's name, else the nearest
/// named non-joint node above its skeleton, else its first joint's name.
fn character_name(
    f: &FileView,
    c: usize,
    skins: &[usize],
    joint_nodes: &[usize],
    parents: &[Option<usize>],
) -> String {
    if let Some(n) = f
        .doc
        .skins()
        .nth(skins[0])
        .and_then(|s| s.name().map(str::to_string))
        .filter(|n| !n.is_empty())
    {
        return n;
    }
    let root = joint_nodes[parents.iter().position(Option::is_none).unwrap_or(0)];
    let mut k = f.node_parent[root];
    while let Some(p) = k {
        if let Some(n) = f.nodes[p].name().filter(|n| !n.is_empty()) {
            return n.to_string();
        }
        k = f.node_parent[p];
    }
    f.nodes[root].name().map(str::to_string).unwrap_or_else(|| format!("character {c}"))
}

/// One character: its joints and their tree, its primitives read, its bind
/// frame and inverse binds, its rest pose, its geometry in bind space, and
/// the rig they make.
fn build_character(
    f: &FileView,
    c: usize,
    group: &[usize],
    meshes: &[&MeshNode],
) -> Result<(Character, Vec<SkinInfo>)> {
    let label = f.src.label;
    let (joint_nodes, joint_of_node) = character_joints(f, group);
    let (parents, folded) = joint_tree(f, &joint_nodes, &joint_of_node);
    let names: Vec<String> = joint_nodes
        .iter()
        .map(|&n| f.nodes[n].name().map(str::to_string).unwrap_or_else(|| format!("node{n}")))
        .collect();
    let names = dedupe(names);
    let raw = read_primitives(f, meshes)?;
    let bind0 = bind_frame(f, group, &joint_nodes, &joint_of_node, &parents, &raw);
    let (inverse_bind, skins) = inverse_binds(f, c, group, &joint_of_node, bind0);
    let bind_world: Vec<Mat4> = inverse_bind.iter().map(|m| m.inverse()).collect();
    let rest_local = rest_locals(f, &joint_nodes, &folded);
    let placed = BindGeometry {
        f,
        skins: &skins,
        joint_of_node: &joint_of_node,
        joint_nodes: &joint_nodes,
        bind_world: &bind_world,
    }
    .place(&raw)?;
    let name = character_name(f, c, group, &joint_nodes, &parents);
    if placed.vertices.is_empty() {
        return Err(CaudalError::EmptyMesh {
            field: "meshes".into(),
            message: format!(
                "{label}: character {c} ({name}) has no skinned or joint-parented triangle mesh"
            ),
        });
    }
    let rig = Rig::new(RigParts {
        vertices: placed.vertices,
        triangles: placed.triangles,
        influences: placed.influences,
        joint_names: names,
        parents,
        bind_world: Some(bind_world),
        inverse_bind: Some(inverse_bind),
        rest_local: Some(rest_local),
        // Files store quantised weights; their sums drift by more than our tolerance.
        normalize: true,
    })?;
    let primitives = placed.primitives;
    Ok((
        Character { index: c, name, rig, joint_nodes, primitives, skins: group.to_vec(), folded },
        skins,
    ))
}

/// The character's joints: the union of its skins' joints, first skin
/// first, with the rig joint of each node.
fn character_joints(f: &FileView, group: &[usize]) -> (Vec<usize>, HashMap<usize, usize>) {
    let mut joint_nodes: Vec<usize> = Vec::new();
    let mut joint_of_node: HashMap<usize, usize> = HashMap::new();
    for &s in group {
        for &n in &f.skin_joint_nodes[s] {
            if let std::collections::hash_map::Entry::Vacant(e) = joint_of_node.entry(n) {
                e.insert(joint_nodes.len());
                joint_nodes.push(n);
            }
        }
    }
    (joint_nodes, joint_of_node)
}

/// Rig parents: the nearest joint ancestor of each joint; the nodes in
/// between (outermost first) fold into its local.
fn joint_tree(
    f: &FileView,
    joint_nodes: &[usize],
    joint_of_node: &HashMap<usize, usize>,
) -> (Vec<Option<usize>>, Vec<Vec<usize>>) {
    let jn = joint_nodes.len();
    let mut parents = vec![None; jn];
    let mut folded = vec![Vec::new(); jn];
    for (j, &node) in joint_nodes.iter().enumerate() {
        let (p, between) = joint_ancestor(node, f.node_parent, &|p| joint_of_node.contains_key(&p));
        parents[j] = p.map(|p| joint_of_node[&p]);
        folded[j] = between;
    }
    (parents, folded)
}

/// Bind space: the first skin's frame carried onto its scene pose, at its
/// root-most weighted joint. Unweighted joints (an exporter's `_rootJoint`,
/// effect helpers) may carry inverse binds that agree with nothing
/// (glTF-Transform folds the dequantization into them, FBX wrappers a unit
/// scale): only a joint that moves skin has to agree with the mesh.
fn bind_frame(
    f: &FileView,
    group: &[usize],
    joint_nodes: &[usize],
    joint_of_node: &HashMap<usize, usize>,
    parents: &[Option<usize>],
    raw: &[RawPrimitive],
) -> Mat4 {
    let s0 = group[0];
    let skin0: Vec<usize> = f.skin_joint_nodes[s0].iter().map(|n| joint_of_node[n]).collect();
    let reference = reference_joint(&skin0, &f.skin_joint_nodes[s0], parents, raw, s0);
    similarity_of(&(f.rest_world[joint_nodes[skin0[reference]]] * f.file_ibm[s0][reference]))
}

/// Inverse binds in the rig's space (the first skin that has a joint wins),
/// and each skin's info with its mesh space relative to the bind frame.
fn inverse_binds(
    f: &FileView,
    c: usize,
    group: &[usize],
    joint_of_node: &HashMap<usize, usize>,
    bind0: Mat4,
) -> (Vec<Mat4>, Vec<SkinInfo>) {
    let s0 = group[0];
    let mut inverse_bind: Vec<Option<Mat4>> = vec![None; joint_of_node.len()];
    let mut skins = Vec::new();
    for &s in group {
        let sj: Vec<usize> = f.skin_joint_nodes[s].iter().map(|n| joint_of_node[n]).collect();
        // This skin's mesh space relative to the first skin's: D = IBM0^-1 IBMs
        // on a joint both skins share (the identity when they agree).
        let mut bind_from_file = bind0;
        if s != s0 {
            if let Some((k, &j)) = sj.iter().enumerate().find(|(_, j)| inverse_bind[**j].is_some())
            {
                let ib0_file: Mat4 = inverse_bind[j].expect("found above") * bind0;
                let d = similarity_of(&(ib0_file.inverse() * f.file_ibm[s][k]));
                bind_from_file = bind0 * d;
            }
        }
        let from_inv = bind_from_file.inverse();
        for (k, &j) in sj.iter().enumerate() {
            if inverse_bind[j].is_none() {
                inverse_bind[j] = Some(f.file_ibm[s][k] * from_inv);
            }
        }
        skins.push(SkinInfo {
            index: s,
            name: f.doc.skins().nth(s).and_then(|sk| sk.name().map(str::to_string)),
            character: c,
            joints: sj,
            bind_from_file,
        });
    }
    let inverse_bind = inverse_bind.into_iter().map(|m| m.unwrap_or(Mat4::IDENTITY)).collect();
    (inverse_bind, skins)
}

/// Rest locals: each joint's node pose, with its folded ancestors
/// multiplied in.
fn rest_locals(f: &FileView, joint_nodes: &[usize], folded: &[Vec<usize>]) -> Vec<Trs> {
    joint_nodes
        .iter()
        .zip(folded)
        .map(|(&node, folded)| {
            if folded.is_empty() {
                f.node_rest[node]
            } else {
                let m = folded.iter().fold(Mat4::IDENTITY, |acc, &n| acc * f.node_rest[n].matrix())
                    * f.node_rest[node].matrix();
                Trs::from_matrix(&m)
            }
        })
        .collect()
}

/// What placing a character's primitives in its bind space needs.
struct BindGeometry<'a> {
    f: &'a FileView<'a>,
    skins: &'a [SkinInfo],
    joint_of_node: &'a HashMap<usize, usize>,
    joint_nodes: &'a [usize],
    bind_world: &'a [Mat4],
}

/// A character's geometry in bind space, with what each primitive gave.
struct Placed {
    vertices: Vec<Vec3>,
    triangles: Vec<[u32; 3]>,
    influences: Influences,
    primitives: Vec<PrimitiveInfo>,
}

impl BindGeometry<'_> {
    /// Every primitive's vertices and triangles in bind space, and its
    /// influences as rig joints: a skinned one through its skin, a rigid
    /// one wholly on the joint it hangs from.
    fn place(&self, raw: &[RawPrimitive]) -> Result<Placed> {
        let mut out = Placed {
            vertices: Vec::new(),
            triangles: Vec::new(),
            influences: Influences { offsets: vec![0], joints: Vec::new(), weights: Vec::new() },
            primitives: Vec::new(),
        };
        for p in raw {
            let n = p.positions.len();
            let base = out.vertices.len();
            out.triangles.extend(
                p.triangles
                    .iter()
                    .map(|t| [t[0] + base as u32, t[1] + base as u32, t[2] + base as u32]),
            );
            let rigid_joint = p.rigid_joint.map(|n| self.joint_of_node[&n]);
            let (max_influences, weights_normalized) = match p.skin {
                Some(s) => {
                    let info =
                        self.skins.iter().find(|i| i.index == s).expect("the character's skin");
                    let to_bind = info.bind_from_file;
                    out.vertices.extend(p.positions.iter().map(|x| to_bind.transform_point3(*x)));
                    let normalized = skinned_influences(p, info, &mut out.influences)?;
                    (4 * p.sets.len(), normalized)
                }
                None => {
                    let j = rigid_joint.expect("a rigid mesh hangs from a joint");
                    // Carry the mesh onto its joint's bind frame: world at rest, then into bind space.
                    let to_bind = self.bind_world[j]
                        * self.f.rest_world[self.joint_nodes[j]].inverse()
                        * self.f.rest_world[p.node];
                    out.vertices.extend(p.positions.iter().map(|x| to_bind.transform_point3(*x)));
                    let inf = &mut out.influences;
                    for _ in 0..n {
                        inf.joints.push(j as u32);
                        inf.weights.push(1.0);
                        inf.offsets.push(inf.joints.len() as u32);
                    }
                    (1, true)
                }
            };
            out.primitives.push(PrimitiveInfo {
                mesh: p.mesh,
                primitive: p.primitive,
                node: p.node,
                skin: p.skin,
                rigid_joint,
                vertex_offset: base,
                file_vertex_offset: base,
                vertex_count: n,
                max_influences,
                weights_normalized,
            });
        }
        Ok(out)
    }
}

/// Appends a skinned primitive's influences as rig joints (weights of one
/// joint from several sets summed, zeros dropped), checked: finite,
/// non-negative weights on joints the skin has. Returns whether every
/// vertex's weights sum to one.
fn skinned_influences(p: &RawPrimitive, info: &SkinInfo, out: &mut Influences) -> Result<bool> {
    let where_ = format!("meshes[{}].primitives[{}]", p.mesh, p.primitive);
    let mut weights_normalized = true;
    let mut row: Vec<(u32, f32)> = Vec::new();
    for v in 0..p.positions.len() {
        row.clear();
        for (si, (js, ws)) in p.sets.iter().enumerate() {
            for k in 0..4 {
                let w = ws[4 * v + k];
                if w == 0.0 {
                    continue;
                }
                if !w.is_finite() || w < 0.0 {
                    return Err(CaudalError::Weights {
                        field: format!("WEIGHTS_{si} of {where_}"),
                        message: format!("vertex {v} has weight {w}"),
                    });
                }
                let local = js[4 * v + k] as usize;
                let Some(&j) = info.joints.get(local) else {
                    return Err(CaudalError::IndexOutOfRange {
                        field: format!("JOINTS_{si} of {where_}"),
                        index: v,
                        value: local as i64,
                        bound: info.joints.len(),
                    });
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
            out.joints.push(j);
            out.weights.push(w);
        }
        out.offsets.push(out.joints.len() as u32);
    }
    Ok(weights_normalized)
}

/// One primitive as the file stores it (mesh space), before placing.
struct RawPrimitive {
    mesh: usize,
    primitive: usize,
    node: usize,
    skin: Option<usize>,
    /// Joint node a rigid mesh hangs from.
    rigid_joint: Option<usize>,
    positions: Vec<Vec3>,
    triangles: Vec<[u32; 3]>,
    sets: Vec<InfluenceSet>,
}

/// Reads and checks every triangle primitive of `meshes`, in order.
fn read_primitives(f: &FileView, meshes: &[&MeshNode]) -> Result<Vec<RawPrimitive>> {
    let label = f.src.label;
    let mut out = Vec::new();
    for m in meshes {
        let mesh = f.nodes[m.node].mesh().expect("mesh nodes only");
        for prim in mesh.primitives() {
            let mode = prim.mode();
            if !matches!(
                mode,
                gltf::mesh::Mode::Triangles
                    | gltf::mesh::Mode::TriangleStrip
                    | gltf::mesh::Mode::TriangleFan
            ) {
                continue;
            }
            let where_ = format!("meshes[{}].primitives[{}]", mesh.index(), prim.index());
            let Some(pos_acc) = prim.get(&gltf::Semantic::Positions) else {
                return Err(CaudalError::gltf(label, format!("{where_}: no POSITION")));
            };
            let what = format!("POSITION of {where_}");
            accessor::expect_dims(&pos_acc, &f.src, &[Dimensions::Vec3], &what)?;
            let positions: Vec<Vec3> = accessor::floats(&pos_acc, &f.src, &what)?
                .chunks_exact(3)
                .map(Vec3::from_slice)
                .collect();
            if let Some(i) = positions.iter().position(|p| !p.is_finite()) {
                return Err(CaudalError::NonFinite { field: what, index: i });
            }
            let n = positions.len();
            let indices: Vec<u32> = match prim.indices() {
                Some(acc) => {
                    let what = format!("indices of {where_}");
                    accessor::expect_dims(&acc, &f.src, &[Dimensions::Scalar], &what)?;
                    accessor::uints(&acc, &f.src, &what)?
                }
                None => (0..n as u32).collect(),
            };
            if let Some((i, &bad)) = indices.iter().enumerate().find(|(_, &i)| i as usize >= n) {
                return Err(CaudalError::IndexOutOfRange {
                    field: format!("indices of {where_}"),
                    index: i,
                    value: bad as i64,
                    bound: n,
                });
            }
            let sets = if m.skin.is_some() {
                let sets = influence_sets(&prim, &f.src, &where_, n)?;
                if sets.is_empty() {
                    return Err(CaudalError::gltf(
                        label,
                        format!("{where_}: skinned node without JOINTS_0/WEIGHTS_0"),
                    ));
                }
                sets
            } else {
                Vec::new()
            };
            out.push(RawPrimitive {
                mesh: mesh.index(),
                primitive: prim.index(),
                node: m.node,
                skin: m.skin,
                rigid_joint: m.rigid_joint,
                positions,
                triangles: assemble_triangles(mode, &indices),
                sets,
            });
        }
    }
    Ok(out)
}

/// Position in `skin` (character joint indices) of the joint whose bind
/// frame anchors the character in the scene: the root-most joint that
/// moves geometry (weighted by skin `s`, or holding a joint-parented mesh),
/// first in skin order on ties; the skin's root when none does.
fn reference_joint(
    skin: &[usize],
    skin_nodes: &[usize],
    parents: &[Option<usize>],
    raw: &[RawPrimitive],
    s: usize,
) -> usize {
    let mut weighted = vec![false; skin.len()];
    for p in raw {
        if let Some(k) = p.rigid_joint.and_then(|n| skin_nodes.iter().position(|&m| m == n)) {
            weighted[k] = true;
        }
    }
    for p in raw.iter().filter(|p| p.skin == Some(s)) {
        for (js, ws) in &p.sets {
            for (&j, &w) in js.iter().zip(ws) {
                if w > 0.0 {
                    if let Some(x) = weighted.get_mut(j as usize) {
                        *x = true;
                    }
                }
            }
        }
    }
    let depth = |mut j: usize| {
        let mut d = 0;
        while let Some(p) = parents[j] {
            j = p;
            d += 1;
        }
        d
    };
    (0..skin.len())
        .filter(|&k| weighted[k])
        .min_by_key(|&k| (depth(skin[k]), k))
        .or_else(|| skin.iter().position(|&j| parents[j].is_none()))
        .unwrap_or(0)
}

/// Every JOINTS_n/WEIGHTS_n pair of a primitive, checked to hold one VEC4
/// per vertex.
fn influence_sets(
    prim: &gltf::Primitive,
    src: &Source,
    where_: &str,
    n: usize,
) -> Result<Vec<InfluenceSet>> {
    let mut sets = Vec::new();
    for set in 0.. {
        let (Some(ja), Some(wa)) =
            (prim.get(&gltf::Semantic::Joints(set)), prim.get(&gltf::Semantic::Weights(set)))
        else {
            break;
        };
        let (jw, ww) = (format!("JOINTS_{set} of {where_}"), format!("WEIGHTS_{set} of {where_}"));
        accessor::expect_dims(&ja, src, &[Dimensions::Vec4], &jw)?;
        accessor::expect_dims(&wa, src, &[Dimensions::Vec4], &ww)?;
        let js = accessor::uints(&ja, src, &jw)?;
        let ws = accessor::floats(&wa, src, &ww)?;
        if js.len() != 4 * n || ws.len() != 4 * n {
            return Err(CaudalError::gltf(
                src.label,
                format!(
                    "{where_}: JOINTS_{set}/WEIGHTS_{set} hold {}/{} entries for {n} vertices",
                    js.len() / 4,
                    ws.len() / 4
                ),
            ));
        }
        sets.push((js, ws));
    }
    Ok(sets)
}

fn assemble_triangles(mode: gltf::mesh::Mode, idx: &[u32]) -> Vec<[u32; 3]> {
    use gltf::mesh::Mode;
    let mut out = Vec::new();
    match mode {
        Mode::Triangles => out.extend(idx.chunks_exact(3).map(|c| [c[0], c[1], c[2]])),
        Mode::TriangleStrip => {
            for i in 2..idx.len() {
                out.push(if i % 2 == 0 {
                    [idx[i - 2], idx[i - 1], idx[i]]
                } else {
                    [idx[i - 1], idx[i - 2], idx[i]]
                });
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
            if *c == 1 {
                n
            } else {
                format!("{n}.{:03}", *c - 1)
            }
        })
        .collect()
}

impl GltfModel {
    /// Index of the animation called `name`; an unknown name is an error listing the file's animations.
    pub fn animation_index(&self, name: &str) -> Result<usize> {
        self.animations.iter().position(|a| a.name == name).ok_or_else(|| {
            let names: Vec<&str> = self.animations.iter().map(|a| a.name.as_str()).collect();
            CaudalError::not_found(
                "clip",
                format!("no animation named {name:?} (have: {})", names.join(", ")),
            )
        })
    }

    /// Character `c`, or an error naming how many there are.
    pub fn character(&self, c: usize) -> Result<&Character> {
        self.characters.get(c).ok_or_else(|| {
            CaudalError::param(
                "character",
                format!(
                    "{} has {} character(s); there is no character {c}",
                    self.label,
                    self.characters.len()
                ),
            )
        })
    }

    /// The file's only character. A file with several is an error naming
    /// them: taking the first silently would leave the others unrepaired.
    pub fn single(&self) -> Result<&Character> {
        match self.characters.as_slice() {
            [one] => Ok(one),
            many => {
                let names: Vec<&str> = many.iter().map(|c| c.name.as_str()).collect();
                Err(CaudalError::param(
                    "character",
                    format!(
                        "{} holds {} characters ({}): choose one of its characters by index",
                        self.label,
                        many.len(),
                        names.join(", ")
                    ),
                ))
            }
        }
    }

    /// The rig of the file's only character (see [`GltfModel::single`]).
    pub fn rig(&self) -> Result<&Rig> {
        Ok(&self.single()?.rig)
    }

    /// Rest transform of the non-joint nodes folded into joint `j` of
    /// character `c` (identity when there are none): a rig local `L` goes
    /// to the joint's own node as `folded_rest(c, j)^-1 * L`.
    pub fn folded_rest(&self, c: usize, j: usize) -> Mat4 {
        self.characters[c].folded[j]
            .iter()
            .fold(Mat4::IDENTITY, |acc, &n| acc * self.node_rest[n].matrix())
    }

    /// Every node name of the file (joints of every character included):
    /// what new joints must not be called, so that names stay unique.
    pub fn node_names(&self) -> Vec<String> {
        self.doc.nodes().filter_map(|n| n.name().map(str::to_string)).collect()
    }

    /// The folder the file was read from (external buffers resolve there), if it came from a file.
    pub fn source_dir(&self) -> Option<&Path> {
        self.base_dir.as_deref()
    }
}
