//! Assembles the demo creature as a GLB file.

use glam::{Mat4, Vec3};
use serde_json::json;

use super::mesh::{tube, Tube};
use super::skeleton::*;
use super::walk::walk;
use super::TailShape;

/// A deterministic share in [0, 1) from a position, the same for every copy
/// of a vertex, like a learned predictor's output.
fn jitter(p: Vec3) -> f32 {
    let mut h: u32 = 2166136261;
    for x in [p.x, p.y, p.z] {
        h = (h ^ x.to_bits()).wrapping_mul(16777619);
    }
    (h >> 8) as f32 / (1u32 << 24) as f32
}

struct Part {
    tube: Tube,
    weights: Vec<Vec<(usize, f32)>>,
}

/// A body tube along a joint chain (plus an end point), weighted to the
/// bone of each segment with a blend into the previous bone near joints.
fn limb(chain: &[usize], end: [f32; 3], r0: f32, r1: f32) -> Part {
    let mut line: Vec<Vec3> = chain.iter().map(|&j| head(j)).collect();
    line.push(Vec3::from(end));
    let lengths: Vec<f32> = line.windows(2).map(|w| (w[1] - w[0]).length()).collect();
    let total: f32 = lengths.iter().sum();
    let tube = tube(&line, |u| r0 + (r1 - r0) * u, 4);
    let weights = tube
        .u
        .iter()
        .map(|&u| {
            let mut s = u * total;
            let mut seg = 0;
            while seg + 1 < lengths.len() && s > lengths[seg] {
                s -= lengths[seg];
                seg += 1;
            }
            let t = (s / lengths[seg]).clamp(0.0, 1.0);
            let bone = chain[seg];
            let prev = if seg > 0 { Some(chain[seg - 1]) } else { BONES[chain[0]].parent };
            let w_prev = (0.5 - 2.5 * t).clamp(0.0, 0.5);
            match prev {
                Some(p) if w_prev > 0.0 => vec![(bone, 1.0 - w_prev), (p, w_prev)],
                _ => vec![(bone, 1.0)],
            }
        })
        .collect();
    Part { tube, weights }
}

/// Rings per segment of the tail's centre line.
const TAIL_RINGS_PER_SEGMENT: usize = 5;

fn tail_tube(shape: &TailShape) -> Tube {
    let line: Vec<Vec3> = shape.line.iter().map(|p| Vec3::from(*p)).collect();
    let (r0, r1) = (shape.root_radius, shape.tip_radius);
    tube(&line, |u| r0 + (r1 - r0) * u, TAIL_RINGS_PER_SEGMENT)
}

/// How many vertices the tail adds (it is written last).
pub fn tail_vertex_count(shape: &TailShape) -> usize {
    tail_tube(shape).positions.len()
}

/// The tail, weighted as a template rigger does it: distal part mostly to
/// the left shin, proximal part to the thigh on the vertex's side.
fn tail(shape: &TailShape) -> Part {
    let tube = tail_tube(shape);
    let weights = tube
        .positions
        .iter()
        .zip(&tube.u)
        .map(|(p, &u)| {
            let main = 0.7 + 0.2 * jitter(*p);
            if u > 1.0 - TAIL_LENGTH_SHARE_OF_TAIL_TO_SHIN {
                vec![(LEFT_SHIN, main), (LEFT_THIGH, 1.0 - main)]
            } else if p.x >= 0.0 {
                vec![(LEFT_THIGH, main), (RIGHT_THIGH, 1.0 - main)]
            } else {
                vec![(RIGHT_THIGH, main), (LEFT_THIGH, 1.0 - main)]
            }
        })
        .collect();
    Part { tube, weights }
}

fn idx(name: &str) -> usize {
    BONES.iter().position(|b| b.name == name).expect("demo bone exists")
}

fn parts(shape: &TailShape) -> Vec<Part> {
    let i = idx;
    let mut out = vec![
        limb(
            &[
                i("mixamorig:Hips"),
                i("mixamorig:Spine"),
                i("mixamorig:Spine1"),
                i("mixamorig:Spine2"),
            ],
            [0.0, 1.5, 0.0],
            0.15,
            0.13,
        ),
        limb(&[i("mixamorig:Neck"), i("mixamorig:Head")], [0.0, 1.8, 0.03], 0.06, 0.1),
    ];
    for side in ["Left", "Right"] {
        let n = |s: &str| i(&format!("mixamorig:{side}{s}"));
        let x = if side == "Left" { 1.0 } else { -1.0 };
        out.push(limb(
            &[n("Shoulder"), n("Arm"), n("ForeArm"), n("Hand")],
            [0.27 * x, 0.83, 0.03],
            0.05,
            0.035,
        ));
        out.push(limb(&[n("UpLeg"), n("Leg")], BONES[n("Foot")].head, 0.08, 0.05));
        out.push(limb(&[n("Foot"), n("ToeBase")], [0.1 * x, 0.03, 0.2], 0.045, 0.03));
    }
    out.push(tail(shape));
    out
}

fn f32_bytes(v: impl IntoIterator<Item = f32>) -> Vec<u8> {
    v.into_iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// The creature with its walk clip as GLB bytes.
pub fn creature_glb() -> Vec<u8> {
    creature_glb_with(&TailShape::default())
}

/// The creature with another tail (same skeleton, body, rigger and walk).
pub fn creature_glb_with(shape: &TailShape) -> Vec<u8> {
    let mut positions: Vec<Vec3> = Vec::new();
    let mut indices: Vec<u32> = Vec::new();
    let mut joints: Vec<u8> = Vec::new();
    let mut weights: Vec<f32> = Vec::new();
    for part in parts(shape) {
        let base = positions.len() as u32;
        positions.extend(&part.tube.positions);
        indices.extend(part.tube.triangles.iter().flat_map(|t| t.map(|i| i + base)));
        for w in &part.weights {
            for k in 0..4 {
                let (j, ww) = w.get(k).copied().unwrap_or((0, 0.0));
                joints.push(j as u8);
                weights.push(ww);
            }
        }
    }
    let bind: Vec<Mat4> = (0..BONES.len()).map(|j| Mat4::from_translation(head(j))).collect();
    let w = walk();

    let mut bin: Vec<u8> = Vec::new();
    let mut views = Vec::new();
    let mut accessors = Vec::new();
    let mut push = |bytes: Vec<u8>, target: Option<u32>, acc: serde_json::Value| -> usize {
        while !bin.len().is_multiple_of(4) {
            bin.push(0);
        }
        let mut v = json!({"buffer": 0, "byteOffset": bin.len(), "byteLength": bytes.len()});
        if let Some(t) = target {
            v["target"] = json!(t);
        }
        bin.extend(bytes);
        views.push(v);
        let mut a = acc;
        a["bufferView"] = json!(views.len() - 1);
        accessors.push(a);
        accessors.len() - 1
    };
    let (lo, hi) = positions
        .iter()
        .fold((Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)), |(l, h), p| (l.min(*p), h.max(*p)));
    let pos = push(
        f32_bytes(positions.iter().flat_map(|p| p.to_array())),
        Some(34962),
        json!({"componentType": 5126, "count": positions.len(), "type": "VEC3", "min": lo.to_array(), "max": hi.to_array()}),
    );
    let idx_acc = push(
        indices.iter().flat_map(|i| i.to_le_bytes()).collect(),
        Some(34963),
        json!({"componentType": 5125, "count": indices.len(), "type": "SCALAR"}),
    );
    let jnt = push(
        joints.clone(),
        Some(34962),
        json!({"componentType": 5121, "count": positions.len(), "type": "VEC4"}),
    );
    let wgt = push(
        f32_bytes(weights.iter().copied()),
        Some(34962),
        json!({"componentType": 5126, "count": positions.len(), "type": "VEC4"}),
    );
    let ibm = push(
        f32_bytes(bind.iter().flat_map(|m| m.inverse().to_cols_array())),
        None,
        json!({"componentType": 5126, "count": bind.len(), "type": "MAT4"}),
    );
    let times = push(
        f32_bytes(w.times.iter().copied()),
        None,
        json!({"componentType": 5126, "count": w.times.len(), "type": "SCALAR", "min": [w.times[0]], "max": [*w.times.last().unwrap()]}),
    );
    let mut samplers = Vec::new();
    let mut channels = Vec::new();
    for (j, rots) in &w.rotations {
        let out = push(
            f32_bytes(rots.iter().flat_map(|q| q.to_array())),
            None,
            json!({"componentType": 5126, "count": rots.len(), "type": "VEC4"}),
        );
        samplers.push(json!({"input": times, "output": out, "interpolation": "LINEAR"}));
        channels.push(
            json!({"sampler": samplers.len() - 1, "target": {"node": j, "path": "rotation"}}),
        );
    }
    let tr = push(
        f32_bytes(w.hips_translation.iter().flat_map(|p| p.to_array())),
        None,
        json!({"componentType": 5126, "count": w.hips_translation.len(), "type": "VEC3"}),
    );
    samplers.push(json!({"input": times, "output": tr, "interpolation": "LINEAR"}));
    channels
        .push(json!({"sampler": samplers.len() - 1, "target": {"node": 0, "path": "translation"}}));

    let mut nodes: Vec<serde_json::Value> = BONES
        .iter()
        .enumerate()
        .map(|(j, b)| {
            let local = match b.parent {
                Some(p) => head(j) - head(p),
                None => head(j),
            };
            let children: Vec<usize> =
                (0..BONES.len()).filter(|&c| BONES[c].parent == Some(j)).collect();
            let mut n = json!({"name": b.name, "translation": local.to_array()});
            if !children.is_empty() {
                n["children"] = json!(children);
            }
            n
        })
        .collect();
    let mesh_node = nodes.len();
    nodes.push(json!({"name": "Creature", "mesh": 0, "skin": 0}));
    let armature = nodes.len();
    nodes.push(json!({"name": "Armature", "children": [0]}));

    let doc = json!({
        "asset": {"version": "2.0", "generator": concat!("caudal ", env!("CARGO_PKG_VERSION"), " demo creature")},
        "scene": 0,
        "scenes": [{"name": "Demo", "nodes": [armature, mesh_node]}],
        "nodes": nodes,
        "meshes": [{"name": "Creature", "primitives": [{"attributes": {"POSITION": pos, "JOINTS_0": jnt, "WEIGHTS_0": wgt}, "indices": idx_acc, "material": 0}]}],
        "materials": [{"name": "Fur", "pbrMetallicRoughness": {"baseColorFactor": [0.8, 0.45, 0.2, 1.0], "metallicFactor": 0.0, "roughnessFactor": 0.8}}],
        "skins": [{"name": "Armature", "joints": (0..BONES.len()).collect::<Vec<_>>(), "inverseBindMatrices": ibm, "skeleton": 0}],
        "animations": [{"name": "Walk", "channels": channels, "samplers": samplers}],
        "accessors": accessors,
        "bufferViews": views,
        "buffers": [{"byteLength": 0}],
    });
    let mut doc = doc;
    while !bin.len().is_multiple_of(4) {
        bin.push(0);
    }
    doc["buffers"][0]["byteLength"] = json!(bin.len());
    crate::gltf_io::glb_container(&doc, bin)
}
