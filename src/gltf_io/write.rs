//! glTF writing that changes only what caudal changes: new joint nodes, skin
//! joints and inverse binds, skin weights of the primitives whose weights
//! changed, and animation channels. All other JSON (materials, extensions,
//! extras, unknown keys) is carried over as it was read.

use std::path::Path;

use base64::Engine;
use glam::{Mat4, Quat, Vec4};
use serde_json::{json, Map, Value};

use super::accessor::{self, Source};
use super::atomic::write_all_atomic;
use super::budget::Budget;
use super::read::{Character, GltfModel};
use crate::error::{CaudalError, Result};
use crate::rig::{normalize_weights, Rig};

/// The joint property an animation channel drives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrackPath {
    /// Joint translation (xyz, in its parent's space).
    Translation,
    /// Joint rotation (an xyzw unit quaternion).
    Rotation,
    /// Joint scale (xyz).
    Scale,
}

impl TrackPath {
    fn as_str(self) -> &'static str {
        match self {
            TrackPath::Translation => "translation",
            TrackPath::Rotation => "rotation",
            TrackPath::Scale => "scale",
        }
    }
}

/// Keyframes for one joint property, written as a LINEAR channel into the
/// animation named `animation` (created if the file has none of that name;
/// an existing channel on the same joint and path is replaced).
#[derive(Clone, Debug)]
pub struct AnimationTrack {
    /// Name of the animation the channel joins.
    pub animation: String,
    /// The character whose joint this is.
    pub character: usize,
    /// Joint index in that character's rig (new joints included).
    pub joint: usize,
    /// The property keyed.
    pub path: TrackPath,
    /// Key times, seconds, strictly increasing.
    pub times: Vec<f32>,
    /// xyz for translation and scale, xyzw quaternions for rotation.
    pub values: Vec<Vec4>,
}

/// How a model is written.
#[derive(Clone, Debug, Default)]
pub struct WriteOptions {
    /// Write a .gltf (JSON with an embedded base64 buffer) instead of GLB;
    /// by default chosen from the file extension.
    pub force_gltf_json: Option<bool>,
    /// Other files (a report) committed together with the model: all of
    /// them are written or none ([`super::atomic::write_all_atomic`]).
    pub sidecars: Vec<(std::path::PathBuf, Vec<u8>)>,
}

const ARRAY_BUFFER: u64 = 34962;
const FLOAT: u64 = 5126;
const UNSIGNED_BYTE: u64 = 5121;
const UNSIGNED_SHORT: u64 = 5123;

struct Builder {
    json: Value,
    bin: Vec<u8>,
}

impl Builder {
    fn arr(&mut self, key: &str) -> &mut Vec<Value> {
        let obj = self.json.as_object_mut().expect("glTF root is an object");
        obj.entry(key).or_insert_with(|| Value::Array(Vec::new()));
        obj.get_mut(key).unwrap().as_array_mut().expect("glTF top-level collections are arrays")
    }

    fn view(&mut self, bytes: &[u8], target: Option<u64>) -> usize {
        while !self.bin.len().is_multiple_of(16) {
            self.bin.push(0);
        }
        let offset = self.bin.len();
        self.bin.extend_from_slice(bytes);
        let mut v = json!({"buffer": 0, "byteOffset": offset, "byteLength": bytes.len()});
        if let Some(t) = target {
            v["target"] = json!(t);
        }
        let views = self.arr("bufferViews");
        views.push(v);
        views.len() - 1
    }

    fn accessor(
        &mut self,
        bytes: &[u8],
        component: u64,
        count: usize,
        kind: &str,
        target: Option<u64>,
        min_max: Option<(Vec<f32>, Vec<f32>)>,
    ) -> usize {
        let view = self.view(bytes, target);
        let mut a =
            json!({"bufferView": view, "componentType": component, "count": count, "type": kind});
        if let Some((lo, hi)) = min_max {
            a["min"] = json!(lo);
            a["max"] = json!(hi);
        }
        let accs = self.arr("accessors");
        accs.push(a);
        accs.len() - 1
    }

    fn f32_accessor(
        &mut self,
        data: &[f32],
        kind: &str,
        comps: usize,
        with_min_max: bool,
    ) -> usize {
        let bytes: Vec<u8> = data.iter().flat_map(|x| x.to_le_bytes()).collect();
        let mm = with_min_max.then(|| {
            let mut lo = vec![f32::INFINITY; comps];
            let mut hi = vec![f32::NEG_INFINITY; comps];
            for c in data.chunks_exact(comps) {
                for k in 0..comps {
                    lo[k] = lo[k].min(c[k]);
                    hi[k] = hi[k].max(c[k]);
                }
            }
            (lo, hi)
        });
        self.accessor(&bytes, FLOAT, data.len() / comps, kind, None, mm)
    }
}

/// Writes `rigs` (one per character, in order: the loaded rig, possibly
/// with joints appended and weights changed) and `tracks` over the file
/// `model` was read from, to `path`, atomically (with `options.sidecars`:
/// all or none; see `super::atomic` for temporaries and symlinks).
/// `.gltf` paths get JSON with an embedded buffer, others GLB.
pub fn write(
    model: &GltfModel,
    rigs: &[&Rig],
    tracks: &[AnimationTrack],
    path: &Path,
    options: &WriteOptions,
) -> Result<()> {
    let as_json = options
        .force_gltf_json
        .unwrap_or_else(|| path.extension().is_some_and(|e| e.eq_ignore_ascii_case("gltf")));
    let bytes = encode(model, rigs, tracks, as_json)?;
    let mut files: Vec<(&Path, &[u8])> = vec![(path, &bytes)];
    files.extend(options.sidecars.iter().map(|(p, b)| (p.as_path(), b.as_slice())));
    write_all_atomic(&files)
}

/// Checks that `rig` is character `c`'s rig with joints only appended.
fn check_rig(model: &GltfModel, c: usize, rig: &Rig) -> Result<()> {
    let old = &model.characters[c].rig;
    let j_old = old.joint_count();
    let field = format!("rigs[{c}]");
    if rig.vertex_count() != old.vertex_count() {
        return Err(CaudalError::shape(
            field,
            format!(
                "{} vertices, character {c} of the file has {}",
                rig.vertex_count(),
                old.vertex_count()
            ),
        ));
    }
    if rig.joint_count() < j_old
        || rig.joint_names()[..j_old] != old.joint_names()[..]
        || rig.parents()[..j_old] != old.parents()[..]
    {
        return Err(CaudalError::shape(field, format!("joints must be character {c}'s joints, unchanged and in order, followed by any new ones")));
    }
    Ok(())
}

/// The file as bytes (GLB, or glTF JSON with a data-URI buffer): the rigs
/// checked, the buffers compacted, then new joint nodes, skins, weights and
/// animation channels written over the file's JSON.
pub fn encode(
    model: &GltfModel,
    rigs: &[&Rig],
    tracks: &[AnimationTrack],
    as_json: bool,
) -> Result<Vec<u8>> {
    if rigs.len() != model.characters.len() {
        return Err(CaudalError::shape(
            "rigs",
            format!("{} rigs for {} characters", rigs.len(), model.characters.len()),
        ));
    }
    for (c, rig) in rigs.iter().enumerate() {
        check_rig(model, c, rig)?;
    }
    let budget = Budget::new(model.options.max_bytes);
    let src = Source { buffers: &model.buffers, label: &model.label, budget: &budget };

    let mut b = Builder { json: model.json.clone(), bin: Vec::new() };
    compact_buffers(&mut b, model)?;
    drop_forbidden_strides(&mut b, &model.label)?;
    let joint_nodes = add_joint_nodes(&mut b, model, rigs);
    let skin_joints = extend_skins(&mut b, model, rigs, &src, &joint_nodes)?;
    // Weights of primitives whose influences changed.
    for (c, ch) in model.characters.iter().enumerate() {
        write_weights(&mut b, ch, rigs[c], &skin_joints)?;
    }
    for t in tracks {
        check_track(t, rigs)?;
        write_track(&mut b, t, &joint_nodes);
    }
    prune_unused_samplers(&mut b.json);

    Ok(if as_json { encode_gltf(b) } else { encode_glb(b) })
}

/// New joint nodes under their parents (or at the scenes' roots), character
/// by character; returns every character's node of each joint.
fn add_joint_nodes(b: &mut Builder, model: &GltfModel, rigs: &[&Rig]) -> Vec<Vec<usize>> {
    let mut joint_nodes: Vec<Vec<usize>> =
        model.characters.iter().map(|c| c.joint_nodes.clone()).collect();
    for (c, rig) in rigs.iter().enumerate() {
        for j in model.characters[c].rig.joint_count()..rig.joint_count() {
            let t = rig.rest_local()[j];
            let node = json!({
                "name": rig.joint_names()[j],
                "translation": t.translation.to_array(),
                "rotation": t.rotation.normalize().to_array(),
                "scale": t.scale.to_array(),
            });
            let nodes = b.arr("nodes");
            nodes.push(node);
            let idx = nodes.len() - 1;
            joint_nodes[c].push(idx);
            match rig.parents()[j] {
                Some(p) => {
                    let parent_node = joint_nodes[c][p];
                    let pn = &mut b.json["nodes"][parent_node];
                    let children = pn
                        .as_object_mut()
                        .expect("nodes are objects")
                        .entry("children")
                        .or_insert_with(|| json!([]));
                    children.as_array_mut().expect("children is an array").push(json!(idx));
                }
                None => {
                    for scene in b.arr("scenes").iter_mut() {
                        if let Some(ns) = scene.get_mut("nodes").and_then(Value::as_array_mut) {
                            ns.push(json!(idx));
                        }
                    }
                }
            }
        }
    }
    joint_nodes
}

/// New joints join every skin of their character that holds their parent,
/// with their inverse binds in the skin's own space; returns each skin's
/// rig joints.
fn extend_skins(
    b: &mut Builder,
    model: &GltfModel,
    rigs: &[&Rig],
    src: &Source,
    joint_nodes: &[Vec<usize>],
) -> Result<Vec<Vec<usize>>> {
    let mut skin_joints: Vec<Vec<usize>> = model.skins.iter().map(|s| s.joints.clone()).collect();
    for (s, skin_doc) in model.doc.skins().enumerate() {
        let c = model.skins[s].character;
        let Some(rig) = rigs.get(c) else { continue };
        let before = skin_joints[s].len();
        for j in model.characters[c].rig.joint_count()..rig.joint_count() {
            if let Some(p) = rig.parents()[j] {
                if skin_joints[s].contains(&p) && !skin_joints[s].contains(&j) {
                    skin_joints[s].push(j);
                }
            }
        }
        if skin_joints[s].len() == before {
            continue;
        }
        let mut ibms: Vec<f32> = match skin_doc.inverse_bind_matrices() {
            Some(acc) => accessor::floats(&acc, src, &format!("skins[{s}].inverseBindMatrices"))?,
            None => Mat4::IDENTITY.to_cols_array().repeat(before),
        };
        ibms.truncate(16 * before);
        let from = model.skins[s].bind_from_file;
        for &j in &skin_joints[s][before..] {
            // glTF wants an inverse bind's last row exactly (0, 0, 0, 1): the
            // f32 product of two affine matrices can miss it by an ulp.
            let mut m = (rig.inverse_bind()[j] * from).to_cols_array();
            (m[3], m[7], m[11], m[15]) = (0.0, 0.0, 0.0, 1.0);
            ibms.extend(m);
        }
        let acc = b.f32_accessor(&ibms, "MAT4", 16, false);
        let skin = &mut b.json["skins"][s];
        skin["inverseBindMatrices"] = json!(acc);
        skin["joints"] =
            json!(skin_joints[s].iter().map(|&j| joint_nodes[c][j]).collect::<Vec<_>>());
    }
    Ok(skin_joints)
}

/// Checks a track names a joint of a rig and holds one finite value per
/// strictly increasing key time.
fn check_track(t: &AnimationTrack, rigs: &[&Rig]) -> Result<()> {
    let Some(rig) = rigs.get(t.character) else {
        return Err(CaudalError::IndexOutOfRange {
            field: "tracks.character".into(),
            index: 0,
            value: t.character as i64,
            bound: rigs.len(),
        });
    };
    if t.joint >= rig.joint_count() {
        return Err(CaudalError::IndexOutOfRange {
            field: "tracks.joint".into(),
            index: 0,
            value: t.joint as i64,
            bound: rig.joint_count(),
        });
    }
    if t.times.is_empty() || t.times.len() != t.values.len() {
        return Err(CaudalError::shape(
            "tracks",
            format!("{} times for {} values on joint {}", t.times.len(), t.values.len(), t.joint),
        ));
    }
    if t.times.iter().any(|x| !x.is_finite()) || t.times.windows(2).any(|w| w[1] <= w[0]) {
        return Err(CaudalError::param(
            "tracks.times",
            "key times must be finite and strictly increasing",
        ));
    }
    if t.values.iter().any(|v| !v.is_finite()) {
        return Err(CaudalError::NonFinite { field: "tracks.values".into(), index: t.joint });
    }
    Ok(())
}

/// One track as a sampler and channel of its animation (made when the file
/// has none of that name), replacing any channel on the same node and path.
fn write_track(b: &mut Builder, t: &AnimationTrack, joint_nodes: &[Vec<usize>]) {
    let input = b.f32_accessor(&t.times, "SCALAR", 1, true);
    let (kind, comps) = if t.path == TrackPath::Rotation { ("VEC4", 4) } else { ("VEC3", 3) };
    let data: Vec<f32> = t
        .values
        .iter()
        .flat_map(|v| {
            if comps == 4 {
                Quat::from_vec4(*v).normalize().to_array().to_vec()
            } else {
                v.truncate().to_array().to_vec()
            }
        })
        .collect();
    let output = b.f32_accessor(&data, kind, comps, false);
    let node = joint_nodes[t.character][t.joint];
    let anims = b.arr("animations");
    let ai = match anims
        .iter()
        .position(|a| a.get("name").and_then(Value::as_str) == Some(t.animation.as_str()))
    {
        Some(i) => i,
        None => {
            anims.push(json!({"name": t.animation, "channels": [], "samplers": []}));
            anims.len() - 1
        }
    };
    let anim = &mut anims[ai];
    let samplers = anim["samplers"].as_array_mut().expect("animation samplers are an array");
    samplers.push(json!({"input": input, "output": output, "interpolation": "LINEAR"}));
    let si = samplers.len() - 1;
    let channels = anim["channels"].as_array_mut().expect("animation channels are an array");
    channels.retain(|c| {
        !(c["target"]["node"].as_u64() == Some(node as u64)
            && c["target"]["path"].as_str() == Some(t.path.as_str()))
    });
    channels.push(json!({"sampler": si, "target": {"node": node, "path": t.path.as_str()}}));
}

/// New JOINTS_n/WEIGHTS_n for every primitive of `ch` whose influences
/// changed in `rig` (or whose file weights did not sum to one).
fn write_weights(
    b: &mut Builder,
    ch: &Character,
    rig: &Rig,
    skin_joints: &[Vec<usize>],
) -> Result<()> {
    let old = &ch.rig;
    for p in &ch.primitives {
        let range = p.vertex_offset..p.vertex_offset + p.vertex_count;
        let changed = range.clone().any(|v| rig.influences().of(v) != old.influences().of(v));
        // Weights that break the glTF rule (sum 1) are stored normalised, as
        // the rig holds them.
        if !changed && p.weights_normalized {
            continue;
        }
        let Some(s) = p.skin else {
            return Err(CaudalError::param(
                "rig",
                format!("weights of mesh {} (a node parented to a joint, not skinned) cannot be rewritten", p.mesh),
            ));
        };
        let local: std::collections::HashMap<usize, usize> =
            skin_joints[s].iter().enumerate().map(|(i, &j)| (j, i)).collect();
        let max_count =
            range.clone().map(|v| rig.influences().of(v).0.len()).max().unwrap_or(1).max(1);
        let sets = max_count.div_ceil(4);
        let k = sets * 4;
        let mut js = vec![0u16; p.vertex_count * k];
        let mut ws = vec![0f32; p.vertex_count * k];
        for (row, v) in range.clone().enumerate() {
            let (jj, ww) = rig.influences().of(v);
            // The rig's own order: reading the file back gives the same rows.
            let pairs: Vec<(u32, f32)> = jj.iter().copied().zip(ww.iter().copied()).collect();
            for (slot, &(j, w)) in pairs.iter().enumerate() {
                let Some(&l) = local.get(&(j as usize)) else {
                    return Err(CaudalError::param(
                        "rig",
                        format!(
                            "vertex {v} uses joint {:?}, which is not in skin {s}",
                            rig.joint_names()[j as usize]
                        ),
                    ));
                };
                js[row * k + slot] = l as u16;
                ws[row * k + slot] = w;
            }
            normalize_weights(&mut ws[row * k..row * k + pairs.len()]);
        }
        let wide = skin_joints[s].len() > 255;
        let attrs = b.json["meshes"][p.mesh]["primitives"][p.primitive]["attributes"]
            .as_object()
            .cloned()
            .unwrap_or_default();
        let mut new_attrs: Map<String, Value> = attrs
            .into_iter()
            .filter(|(name, _)| !(name.starts_with("JOINTS_") || name.starts_with("WEIGHTS_")))
            .collect();
        for set in 0..sets {
            let mut jbytes = Vec::with_capacity(p.vertex_count * 4 * if wide { 2 } else { 1 });
            let mut wbytes = Vec::with_capacity(p.vertex_count * 16);
            for row in 0..p.vertex_count {
                for c in 0..4 {
                    let i = row * k + set * 4 + c;
                    if wide {
                        jbytes.extend(js[i].to_le_bytes());
                    } else {
                        jbytes.push(js[i] as u8);
                    }
                    wbytes.extend(ws[i].to_le_bytes());
                }
            }
            let ja = b.accessor(
                &jbytes,
                if wide { UNSIGNED_SHORT } else { UNSIGNED_BYTE },
                p.vertex_count,
                "VEC4",
                Some(ARRAY_BUFFER),
                None,
            );
            let wa = b.accessor(&wbytes, FLOAT, p.vertex_count, "VEC4", Some(ARRAY_BUFFER), None);
            new_attrs.insert(format!("JOINTS_{set}"), json!(ja));
            new_attrs.insert(format!("WEIGHTS_{set}"), json!(wa));
        }
        b.json["meshes"][p.mesh]["primitives"][p.primitive]["attributes"] =
            Value::Object(new_attrs);
    }
    Ok(())
}

/// One buffer out of every buffer view's bytes: each view is copied (at a
/// 16-byte boundary, which keeps every accessor aligned), so bytes no view
/// uses (a meshopt file's compressed data, an unused buffer) are not
/// carried into the output.
fn compact_buffers(b: &mut Builder, model: &GltfModel) -> Result<()> {
    let n_views = b.json.get("bufferViews").and_then(Value::as_array).map_or(0, Vec::len);
    for i in 0..n_views {
        let v = &b.json["bufferViews"][i];
        let buf = v["buffer"].as_u64().unwrap_or(u64::MAX) as usize;
        let off = v.get("byteOffset").and_then(Value::as_u64).unwrap_or(0) as usize;
        let len = v.get("byteLength").and_then(Value::as_u64).unwrap_or(0) as usize;
        let bytes =
            model.buffers.get(buf).and_then(|d| d.get(off..off.checked_add(len)?)).ok_or_else(
                || {
                    CaudalError::gltf(
                        &model.label,
                        format!("bufferViews[{i}] lies outside buffer {buf}"),
                    )
                },
            )?;
        while !b.bin.len().is_multiple_of(16) {
            b.bin.push(0);
        }
        let base = b.bin.len();
        b.bin.extend_from_slice(bytes);
        let v = &mut b.json["bufferViews"][i];
        v["buffer"] = json!(0);
        v["byteOffset"] = json!(base);
    }
    let mut first =
        model.json.get("buffers").and_then(|b| b.get(0)).cloned().unwrap_or_else(|| json!({}));
    if let Some(o) = first.as_object_mut() {
        o.remove("uri");
        o.remove("extensions");
    }
    b.json["buffers"] = json!([first]);
    Ok(())
}

/// glTF allows `byteStride` only on views of vertex attributes; exporters
/// (Sketchfab's among them) set it on animation and skin data too, which
/// the validator rejects. A view no vertex attribute reads loses its
/// stride: dropped when its accessors are tightly packed anyway, and an
/// accessor whose elements really are spread out is copied into a packed
/// view of its own. Runs after [`compact_buffers`] (every view in `b.bin`).
fn drop_forbidden_strides(b: &mut Builder, label: &str) -> Result<()> {
    let mut attribute_views = std::collections::HashSet::new();
    let accessor_view = |j: &Value, a: &Value| {
        a.as_u64().and_then(|a| j["accessors"][a as usize]["bufferView"].as_u64())
    };
    for mesh in b.json.get("meshes").and_then(Value::as_array).into_iter().flatten() {
        for p in mesh.get("primitives").and_then(Value::as_array).into_iter().flatten() {
            let targets = p.get("targets").and_then(Value::as_array).into_iter().flatten();
            for set in p.get("attributes").into_iter().chain(targets) {
                for a in set.as_object().into_iter().flat_map(|o| o.values()) {
                    attribute_views.extend(accessor_view(&b.json, a));
                }
            }
        }
    }
    let n_acc = b.json.get("accessors").and_then(Value::as_array).map_or(0, Vec::len);
    let mut loose: Vec<(usize, usize, usize, usize)> = Vec::new(); // accessor, view, element size, stride
    let mut strided_views = std::collections::HashSet::new();
    for i in 0..n_acc {
        let a = &b.json["accessors"][i];
        let Some(v) = a.get("bufferView").and_then(Value::as_u64).map(|v| v as usize) else {
            continue;
        };
        let Some(stride) =
            b.json["bufferViews"][v].get("byteStride").and_then(Value::as_u64).map(|s| s as usize)
        else {
            continue;
        };
        if attribute_views.contains(&(v as u64)) {
            continue;
        }
        strided_views.insert(v);
        let comp = match a["componentType"].as_u64() {
            Some(5120 | 5121) => 1,
            Some(5122 | 5123) => 2,
            _ => 4,
        };
        let n = match a["type"].as_str() {
            Some("VEC2") => 2,
            Some("VEC3") => 3,
            Some("VEC4" | "MAT2") => 4,
            Some("MAT3") => 9,
            Some("MAT4") => 16,
            _ => 1,
        };
        if comp * n != stride {
            loose.push((i, v, comp * n, stride));
        }
    }
    for (i, v, size, stride) in loose {
        let view = &b.json["bufferViews"][v];
        let start = (view.get("byteOffset").and_then(Value::as_u64).unwrap_or(0) as usize)
            .saturating_add(
                b.json["accessors"][i].get("byteOffset").and_then(Value::as_u64).unwrap_or(0)
                    as usize,
            );
        let count = b.json["accessors"][i]["count"].as_u64().unwrap_or(0) as usize;
        let view_end = (view.get("byteOffset").and_then(Value::as_u64).unwrap_or(0) as usize)
            .saturating_add(view.get("byteLength").and_then(Value::as_u64).unwrap_or(0) as usize);
        let fits = count == 0
            || (count - 1)
                .checked_mul(stride)
                .and_then(|x| x.checked_add(start.saturating_add(size)))
                .is_some_and(|end| end <= view_end.min(b.bin.len()));
        if !fits {
            return Err(CaudalError::gltf(
                label,
                format!(
                    "accessors[{i}]: {count} elements of stride {stride} run past bufferViews[{v}]"
                ),
            ));
        }
        let packed: Vec<u8> = (0..count)
            .flat_map(|k| b.bin[start + k * stride..start + k * stride + size].to_vec())
            .collect();
        let nv = b.view(&packed, None);
        let a = &mut b.json["accessors"][i];
        a["bufferView"] = json!(nv);
        if let Some(o) = a.as_object_mut() {
            o.remove("byteOffset");
        }
    }
    for v in strided_views {
        if let Some(o) = b.json["bufferViews"][v].as_object_mut() {
            o.remove("byteStride");
        }
    }
    Ok(())
}

/// Samplers left without a channel (a replaced track) would fail validation.
fn prune_unused_samplers(json: &mut Value) {
    let Some(anims) = json.get_mut("animations").and_then(Value::as_array_mut) else { return };
    for a in anims {
        let used: Vec<u64> = a["channels"]
            .as_array()
            .map(|c| c.iter().filter_map(|c| c["sampler"].as_u64()).collect())
            .unwrap_or_default();
        let Some(samplers) = a["samplers"].as_array() else { continue };
        if samplers.len() == used.len() {
            continue;
        }
        let mut remap = vec![None; samplers.len()];
        let mut kept = Vec::new();
        for (i, s) in samplers.iter().enumerate() {
            if used.contains(&(i as u64)) {
                remap[i] = Some(kept.len());
                kept.push(s.clone());
            }
        }
        a["samplers"] = Value::Array(kept);
        if let Some(chs) = a["channels"].as_array_mut() {
            for c in chs {
                let old = c["sampler"].as_u64().unwrap_or(0) as usize;
                c["sampler"] = json!(remap[old]);
            }
        }
    }
}

fn finish_json(b: &mut Builder) {
    while !b.bin.len().is_multiple_of(4) {
        b.bin.push(0);
    }
    b.json["buffers"][0]["byteLength"] = json!(b.bin.len());
}

fn encode_glb(mut b: Builder) -> Vec<u8> {
    finish_json(&mut b);
    glb_container(&b.json, b.bin)
}

/// A GLB container around a document and its binary chunk (which the
/// document's buffer 0 must describe).
pub fn glb_container(json: &Value, mut bin: Vec<u8>) -> Vec<u8> {
    while !bin.len().is_multiple_of(4) {
        bin.push(0);
    }
    let mut js = serde_json::to_vec(json).expect("JSON values always serialise");
    while !js.len().is_multiple_of(4) {
        js.push(b' ');
    }
    let total = 12 + 8 + js.len() + 8 + bin.len();
    let mut out = Vec::with_capacity(total);
    out.extend(b"glTF");
    out.extend(2u32.to_le_bytes());
    out.extend((total as u32).to_le_bytes());
    out.extend((js.len() as u32).to_le_bytes());
    out.extend(b"JSON");
    out.extend(js);
    out.extend((bin.len() as u32).to_le_bytes());
    out.extend(b"BIN\0");
    out.extend(bin);
    out
}

fn encode_gltf(mut b: Builder) -> Vec<u8> {
    finish_json(&mut b);
    let uri = format!(
        "data:application/octet-stream;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(&b.bin)
    );
    b.json["buffers"][0]["uri"] = json!(uri);
    serde_json::to_vec_pretty(&b.json).expect("JSON values always serialise")
}
