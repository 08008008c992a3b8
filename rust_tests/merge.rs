//! Test helper: two GLB files side by side in one, as a scene with two
//! characters (disjoint skeletons, two skins) would be exported.
#![allow(dead_code)]

use serde_json::{json, Value};

/// The JSON and binary chunk of a GLB.
pub fn split_glb(bytes: &[u8]) -> (Value, Vec<u8>) {
    let u32_at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().unwrap()) as usize;
    assert_eq!(&bytes[..4], b"glTF");
    let json_len = u32_at(12);
    let json: Value = serde_json::from_slice(&bytes[20..20 + json_len]).unwrap();
    let bin_at = 20 + json_len;
    let bin = if bin_at + 8 <= bytes.len() {
        bytes[bin_at + 8..bin_at + 8 + u32_at(bin_at)].to_vec()
    } else {
        Vec::new()
    };
    (json, bin)
}

fn shift(v: &mut Value, by: usize) {
    if let Some(i) = v.as_u64() {
        *v = json!(i as usize + by);
    }
}

fn shift_key(o: &mut Value, key: &str, by: usize) {
    if let Some(v) = o.get_mut(key) {
        shift(v, by);
    }
}

fn len(j: &Value, key: &str) -> usize {
    j.get(key).and_then(Value::as_array).map_or(0, Vec::len)
}

/// `a` and `b` in one GLB: `b`'s scene roots go under a new node
/// `wrapper_name` translated by `offset`; every index of `b` is shifted
/// past `a`'s; animations of the same name are merged into one (as
/// Blender exports two armatures playing actions of one name). Textures
/// and images are carried over; `b` must not use extensions that index
/// into the document.
pub fn merge_glbs(a: &[u8], b: &[u8], offset: [f32; 3], wrapper_name: &str) -> Vec<u8> {
    let (mut ja, mut bin_a) = split_glb(a);
    let (jb, bin_b) = split_glb(b);
    let n = |k: &str| len(&ja, k);
    let (nodes, meshes, skins, accessors, views, materials, textures, images, samplers, cameras) = (
        n("nodes"),
        n("meshes"),
        n("skins"),
        n("accessors"),
        n("bufferViews"),
        n("materials"),
        n("textures"),
        n("images"),
        n("samplers"),
        n("cameras"),
    );
    while bin_a.len() % 16 != 0 {
        bin_a.push(0);
    }
    let bin_base = bin_a.len();
    bin_a.extend_from_slice(&bin_b);
    let mut jb = jb;
    for node in jb["nodes"].as_array_mut().into_iter().flatten() {
        if let Some(cs) = node.get_mut("children").and_then(Value::as_array_mut) {
            cs.iter_mut().for_each(|c| shift(c, nodes));
        }
        shift_key(node, "mesh", meshes);
        shift_key(node, "skin", skins);
        shift_key(node, "camera", cameras);
    }
    for skin in jb["skins"].as_array_mut().into_iter().flatten() {
        skin["joints"].as_array_mut().unwrap().iter_mut().for_each(|j| shift(j, nodes));
        shift_key(skin, "skeleton", nodes);
        shift_key(skin, "inverseBindMatrices", accessors);
    }
    for mesh in jb["meshes"].as_array_mut().into_iter().flatten() {
        for p in mesh["primitives"].as_array_mut().unwrap() {
            for (_, v) in p["attributes"].as_object_mut().unwrap().iter_mut() {
                shift(v, accessors);
            }
            shift_key(p, "indices", accessors);
            shift_key(p, "material", materials);
            for t in p.get_mut("targets").and_then(Value::as_array_mut).into_iter().flatten() {
                for (_, v) in t.as_object_mut().unwrap().iter_mut() {
                    shift(v, accessors);
                }
            }
        }
    }
    for acc in jb["accessors"].as_array_mut().into_iter().flatten() {
        shift_key(acc, "bufferView", views);
        if let Some(s) = acc.get_mut("sparse") {
            shift_key(&mut s["indices"], "bufferView", views);
            shift_key(&mut s["values"], "bufferView", views);
        }
    }
    for v in jb["bufferViews"].as_array_mut().into_iter().flatten() {
        v["buffer"] = json!(0);
        let off = v.get("byteOffset").and_then(Value::as_u64).unwrap_or(0) as usize;
        v["byteOffset"] = json!(off + bin_base);
    }
    for m in jb["materials"].as_array_mut().into_iter().flatten() {
        let mut stack = vec![&mut *m];
        while let Some(v) = stack.pop() {
            // In a material only a textureInfo has an `index`.
            if let Some(o) = v.as_object_mut() {
                if let Some(i) = o.get_mut("index") {
                    shift(i, textures);
                }
                stack.extend(o.values_mut());
            }
        }
    }
    for t in jb["textures"].as_array_mut().into_iter().flatten() {
        shift_key(t, "source", images);
        shift_key(t, "sampler", samplers);
    }
    for im in jb["images"].as_array_mut().into_iter().flatten() {
        shift_key(im, "bufferView", views);
    }
    for anim in jb["animations"].as_array_mut().into_iter().flatten() {
        for s in anim["samplers"].as_array_mut().unwrap() {
            shift_key(s, "input", accessors);
            shift_key(s, "output", accessors);
        }
        for c in anim["channels"].as_array_mut().unwrap() {
            shift_key(&mut c["target"], "node", nodes);
        }
    }
    let roots_b: Vec<Value> = jb["scenes"]
        [jb.get("scene").and_then(Value::as_u64).unwrap_or(0) as usize]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| json!(r.as_u64().unwrap() as usize + nodes))
        .collect();
    for key in [
        "nodes",
        "meshes",
        "skins",
        "accessors",
        "bufferViews",
        "materials",
        "textures",
        "images",
        "samplers",
        "cameras",
    ] {
        if let Some(items) = jb.get(key).and_then(Value::as_array).cloned() {
            let dst = ja.as_object_mut().unwrap().entry(key).or_insert_with(|| json!([]));
            dst.as_array_mut().unwrap().extend(items);
        }
    }
    for anim in jb.get("animations").and_then(Value::as_array).cloned().unwrap_or_default() {
        let list = ja.as_object_mut().unwrap().entry("animations").or_insert_with(|| json!([]));
        let list = list.as_array_mut().unwrap();
        match list.iter_mut().find(|x| x.get("name").is_some() && x.get("name") == anim.get("name"))
        {
            Some(same) => {
                let base = same["samplers"].as_array().unwrap().len();
                let mut chans = anim["channels"].as_array().unwrap().clone();
                for c in chans.iter_mut() {
                    shift_key(c, "sampler", base);
                }
                same["samplers"]
                    .as_array_mut()
                    .unwrap()
                    .extend(anim["samplers"].as_array().unwrap().iter().cloned());
                same["channels"].as_array_mut().unwrap().extend(chans);
            }
            None => list.push(anim),
        }
    }
    let wrapper = len(&ja, "nodes");
    ja["nodes"]
        .as_array_mut()
        .unwrap()
        .push(json!({"name": wrapper_name, "translation": offset, "children": roots_b}));
    let scene = ja.get("scene").and_then(Value::as_u64).unwrap_or(0) as usize;
    ja["scenes"][scene]["nodes"].as_array_mut().unwrap().push(json!(wrapper));
    ja["buffers"] = json!([{"byteLength": bin_a.len()}]);
    caudal::gltf_io::glb_container(&ja, bin_a)
}
