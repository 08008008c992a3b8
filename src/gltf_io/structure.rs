//! Validation before use: the checks a file passes before anything reads
//! it, each refusal a `GltfError` naming the field and the rule.
//!
//! The `gltf` crate's own validation is not enough and is not safe on
//! hostile input: it indexes `accessors[POSITION]` before checking the
//! index (a panic), and it checks neither an animation channel's target
//! node nor its path (the crate's accessors then `unwrap` them: a panic).
//! So [`before_crate`] checks those indices first, the crate's validation
//! runs behind a panic guard as a last line, and [`layout`] then checks the
//! byte layout glTF 2.0 requires of every buffer view and accessor:
//!
//! - a view lies inside its buffer's **declared** `byteLength` (a GLB whose
//!   buffer declares 0 bytes is refused, not loaded and written back broken);
//! - `byteStride` is a multiple of 4 in 4..=252, and no shorter than the
//!   elements read through it;
//! - an accessor has at least one element, its offsets are multiples of its
//!   component size, and all its elements lie inside its view;
//! - a sparse accessor's indices and values lie inside their views.
//!
//! What an accessor is used for (indices must be unsigned scalars, joints
//! unsigned VEC4, ...) is checked where it is read, before a byte is read.

use gltf::json::accessor::{ComponentType, Type};
use gltf::json::validation::Checked;
use gltf::json::Root;

use crate::error::{CaudalError, Result};

/// Keys whose values (or array elements) are indices into a collection.
const INDEX_KEYS: &[&str] = &[
    "scene",
    "nodes",
    "camera",
    "children",
    "skin",
    "mesh",
    "indices",
    "material",
    "bufferView",
    "buffer",
    "inverseBindMatrices",
    "skeleton",
    "joints",
    "sampler",
    "node",
    "input",
    "output",
    "source",
    "index",
];

/// What a JSON value is, for [`index_width`].
#[derive(Clone, Copy, PartialEq, Eq)]
enum Slot {
    Other,
    /// An index, or an array of them.
    Index,
    /// An object whose every value is an index (`attributes`, a morph
    /// target), or an array of such objects (`targets`).
    Map,
}

/// Every index of the raw JSON fits 32 bits. The `gltf` crate reads an
/// index as `value as u32`: 2^32 would become 0 in the checked document
/// while the JSON the writer keeps still says 2^32 (a fuzzed channel
/// sampler of 2^32 passed validation as sampler 0 and panicked the writer).
pub fn index_width(json: &serde_json::Value, label: &str) -> Result<()> {
    use serde_json::Value;
    fn walk(v: &Value, path: &mut String, slot: Slot, label: &str) -> Result<()> {
        match v {
            Value::Number(n)
                if slot == Slot::Index && n.as_u64().is_some_and(|x| x > u32::MAX as u64) =>
            {
                return Err(CaudalError::gltf(
                    label,
                    format!(
                        "{}: index {n} is out of range (indices are 32-bit)",
                        path.trim_start_matches('.')
                    ),
                ));
            }
            Value::Array(a) => {
                for (i, c) in a.iter().enumerate() {
                    let len = path.len();
                    path.push_str(&format!("[{i}]"));
                    walk(c, path, slot, label)?;
                    path.truncate(len);
                }
            }
            Value::Object(o) => {
                for (k, c) in o {
                    if k == "extras" {
                        continue;
                    }
                    let inner = match (slot, k.as_str()) {
                        (Slot::Map, _) => Slot::Index,
                        (_, "attributes" | "targets") => Slot::Map,
                        (_, key) if INDEX_KEYS.contains(&key) => Slot::Index,
                        _ => Slot::Other,
                    };
                    let len = path.len();
                    path.push('.');
                    path.push_str(k);
                    walk(c, path, inner, label)?;
                    path.truncate(len);
                }
            }
            _ => {}
        }
        Ok(())
    }
    walk(json, &mut String::new(), Slot::Other, label)
}

/// Indices the `gltf` crate's validation or accessors would use unchecked.
pub fn before_crate(root: &Root, label: &str) -> Result<()> {
    let bad = |m: String| CaudalError::gltf(label, m);
    let n_acc = root.accessors.len();
    let n_nodes = root.nodes.len();
    for (m, mesh) in root.meshes.iter().enumerate() {
        for (p, prim) in mesh.primitives.iter().enumerate() {
            let at = format!("meshes[{m}].primitives[{p}]");
            for (semantic, acc) in &prim.attributes {
                if acc.value() >= n_acc {
                    let name = match semantic {
                        Checked::Valid(s) => s.to_string(),
                        Checked::Invalid => "<invalid semantic>".into(),
                    };
                    return Err(bad(format!(
                        "{at}.attributes.{name}: accessor {} does not exist ({n_acc} accessors)",
                        acc.value()
                    )));
                }
            }
            if let Some(i) = prim.indices.filter(|i| i.value() >= n_acc) {
                return Err(bad(format!(
                    "{at}.indices: accessor {} does not exist ({n_acc} accessors)",
                    i.value()
                )));
            }
        }
    }
    for (a, anim) in root.animations.iter().enumerate() {
        for (c, ch) in anim.channels.iter().enumerate() {
            let at = format!("animations[{a}].channels[{c}]");
            if ch.sampler.value() >= anim.samplers.len() {
                return Err(bad(format!(
                    "{at}.sampler: {} does not exist ({} samplers)",
                    ch.sampler.value(),
                    anim.samplers.len()
                )));
            }
            if ch.target.node.value() >= n_nodes {
                return Err(bad(format!(
                    "{at}.target.node: node {} does not exist ({n_nodes} nodes)",
                    ch.target.node.value()
                )));
            }
            if matches!(ch.target.path, Checked::Invalid) {
                return Err(bad(format!(
                    "{at}.target.path: not one of translation, rotation, scale, weights"
                )));
            }
        }
        for (s, sampler) in anim.samplers.iter().enumerate() {
            let at = format!("animations[{a}].samplers[{s}]");
            for (what, i) in [("input", sampler.input), ("output", sampler.output)] {
                if i.value() >= n_acc {
                    return Err(bad(format!(
                        "{at}.{what}: accessor {} does not exist ({n_acc} accessors)",
                        i.value()
                    )));
                }
            }
            if matches!(sampler.interpolation, Checked::Invalid) {
                return Err(bad(format!(
                    "{at}.interpolation: not one of LINEAR, STEP, CUBICSPLINE"
                )));
            }
        }
    }
    Ok(())
}

fn component_size(t: ComponentType) -> usize {
    match t {
        ComponentType::I8 | ComponentType::U8 => 1,
        ComponentType::I16 | ComponentType::U16 => 2,
        ComponentType::U32 | ComponentType::F32 => 4,
    }
}

fn multiplicity(t: Type) -> usize {
    match t {
        Type::Scalar => 1,
        Type::Vec2 => 2,
        Type::Vec3 => 3,
        Type::Vec4 | Type::Mat2 => 4,
        Type::Mat3 => 9,
        Type::Mat4 => 16,
    }
}

/// `u64` field as `usize`, or an error naming it.
fn size(field: &str, v: u64, label: &str) -> Result<usize> {
    usize::try_from(v).map_err(|_| CaudalError::gltf(label, format!("{field}: {v} is too large")))
}

/// The byte layout of every buffer view and accessor (see the module doc).
/// Runs after the crate's validation: every index is in range.
pub fn layout(root: &Root, label: &str) -> Result<()> {
    let bad = |m: String| CaudalError::gltf(label, m);
    let mut view_len = Vec::with_capacity(root.buffer_views.len());
    for (i, v) in root.buffer_views.iter().enumerate() {
        let at = format!("bufferViews[{i}]");
        let b = v.buffer.value();
        let declared = root.buffers[b].byte_length.0;
        let offset = v.byte_offset.map_or(0, |o| o.0);
        let length = v.byte_length.0;
        if length == 0 {
            return Err(bad(format!("{at}.byteLength: must be at least 1")));
        }
        let end = offset
            .checked_add(length)
            .ok_or_else(|| bad(format!("{at}: byteOffset + byteLength overflows")))?;
        if end > declared {
            return Err(bad(format!(
                "{at} (bytes {offset}..{end}) lies outside buffers[{b}].byteLength = {declared}"
            )));
        }
        if let Some(s) = v.byte_stride {
            if s.0 % 4 != 0 || !(4..=252).contains(&s.0) {
                return Err(bad(format!(
                    "{at}.byteStride: {} must be a multiple of 4 in [4, 252] (glTF 2.0)",
                    s.0
                )));
            }
        }
        view_len.push(size(&at, length, label)?);
    }
    for (i, a) in root.accessors.iter().enumerate() {
        let at = format!("accessors[{i}]");
        let (Checked::Valid(ct), Checked::Valid(ty)) = (&a.component_type, &a.type_) else {
            return Err(bad(format!("{at}: invalid componentType or type")));
        };
        let comp = component_size(ct.0);
        let elem = comp * multiplicity(*ty);
        let count = size(&format!("{at}.count"), a.count.0, label)?;
        if count == 0 {
            return Err(bad(format!("{at}.count: must be at least 1")));
        }
        let offset = size(&format!("{at}.byteOffset"), a.byte_offset.map_or(0, |o| o.0), label)?;
        if let Some(v) = a.buffer_view {
            let view = &root.buffer_views[v.value()];
            let view_offset = view.byte_offset.map_or(0, |o| o.0);
            if offset % comp != 0 || !view_offset.is_multiple_of(comp as u64) {
                return Err(bad(format!(
                    "{at}.byteOffset: {offset} (at byte {} of its buffer) is not a multiple of its component size {comp}",
                    view_offset.saturating_add(offset as u64)
                )));
            }
            let stride = view.byte_stride.map_or(elem, |s| s.0);
            if stride < elem {
                return Err(bad(format!("{at}: elements of {elem} bytes do not fit bufferViews[{}].byteStride = {stride}", v.value())));
            }
            let end = (count - 1)
                .checked_mul(stride)
                .and_then(|x| x.checked_add(offset))
                .and_then(|x| x.checked_add(elem))
                .ok_or_else(|| bad(format!("{at}: count x stride overflows")))?;
            if end > view_len[v.value()] {
                return Err(bad(format!(
                    "{at}: {count} elements of {elem} bytes (stride {stride}) from byteOffset {offset} need {end} bytes; bufferViews[{}] has {}",
                    v.value(),
                    view_len[v.value()]
                )));
            }
        } else if a.byte_offset.is_some_and(|o| o.0 != 0) {
            return Err(bad(format!("{at}.byteOffset: set without a bufferView")));
        }
        if let Some(sp) = &a.sparse {
            let n = size(&format!("{at}.sparse.count"), sp.count.0, label)?;
            if n == 0 || n > count {
                return Err(bad(format!("{at}.sparse.count: {n} must be in [1, count = {count}]")));
            }
            let Checked::Valid(it) = &sp.indices.component_type else {
                return Err(bad(format!("{at}.sparse.indices.componentType: invalid")));
            };
            for (what, view, off, el) in [
                ("indices", sp.indices.buffer_view, sp.indices.byte_offset.0, component_size(it.0)),
                ("values", sp.values.buffer_view, sp.values.byte_offset.0, elem),
            ] {
                let off = size(&format!("{at}.sparse.{what}.byteOffset"), off, label)?;
                let end = n
                    .checked_mul(el)
                    .and_then(|x| x.checked_add(off))
                    .ok_or_else(|| bad(format!("{at}.sparse.{what}: size overflows")))?;
                if end > view_len[view.value()] {
                    return Err(bad(format!(
                        "{at}.sparse.{what}: {n} elements of {el} bytes from byteOffset {off} need {end} bytes; bufferViews[{}] has {}",
                        view.value(),
                        view_len[view.value()]
                    )));
                }
            }
        }
    }
    Ok(())
}
