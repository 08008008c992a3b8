//! Which glTF extensions a file may require.
//!
//! A file lists in `extensionsRequired` what a reader must understand to
//! show it correctly. caudal reads skinned geometry, skeletons and
//! animation; what else a file needs to *look* right (materials, textures,
//! lights) does not change what caudal computes, so:
//!
//! - extensions caudal decodes ([`DECODED`]: meshopt compression, mesh
//!   quantization) load;
//! - extensions known to change only appearance ([`APPEARANCE`], any
//!   `KHR_materials_*`/`KHR_texture_*`/`EXT_texture_*`) load with a warning
//!   (the written file still requires them: caudal keeps their JSON);
//! - extensions known to change geometry that caudal cannot decode
//!   ([`GEOMETRY`]: Draco, GPU instancing, ...) are refused, naming them;
//! - an extension caudal has never heard of is judged by where the file
//!   uses it: only on materials, textures, images, samplers or cameras (or
//!   nowhere) is a warning; on anything caudal reads (meshes, accessors,
//!   buffers, nodes, skins, animations) is a refusal naming the place.
//!
//! Extensions a file merely uses (`extensionsUsed`, not required) need no
//! decision: the file is valid without them.

use serde_json::Value;

use crate::error::{CaudalError, Result};

/// Extensions caudal decodes itself.
pub const DECODED: &[&str] =
    &["EXT_meshopt_compression", "KHR_meshopt_compression", "KHR_mesh_quantization"];

/// Extensions that change a mesh's geometry or skinning and that caudal
/// does not decode.
pub const GEOMETRY: &[&str] = &[
    "KHR_draco_mesh_compression",
    "EXT_mesh_gpu_instancing",
    "KHR_gaussian_splatting",
    "KHR_gaussian_splatting_compression_spz",
    "KHR_animation_pointer",
    "EXT_primitive_voxels",
];

/// Extensions known to change only how a model looks (or to carry
/// metadata), never its geometry, skeleton or animation.
pub const APPEARANCE: &[&str] = &[
    "KHR_lights_punctual",
    "EXT_lights_image_based",
    "KHR_xmp_json_ld",
    "KHR_xmp",
    "KHR_node_visibility",
    "MSFT_texture_dds",
    "MSFT_lod",
    "KHR_materials_variants",
];

/// Prefixes of extension families that only change appearance.
const APPEARANCE_PREFIXES: &[&str] =
    &["KHR_materials_", "KHR_texture_", "EXT_texture_", "EXT_materials_"];

/// Top-level collections whose objects only change appearance.
const APPEARANCE_COLLECTIONS: &[&str] = &["materials", "textures", "images", "samplers", "cameras"];

fn is_appearance(name: &str) -> bool {
    APPEARANCE.contains(&name) || APPEARANCE_PREFIXES.iter().any(|p| name.starts_with(p))
}

/// Checks `extensionsRequired` against the policy above: the warnings for
/// required extensions caudal ignores, or an error naming the first one it
/// cannot honour.
pub fn check_required(json: &Value, label: &str) -> Result<Vec<String>> {
    let required: Vec<&str> = json
        .get("extensionsRequired")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut warnings = Vec::new();
    for name in required {
        if DECODED.contains(&name) {
            continue;
        }
        if GEOMETRY.contains(&name) {
            return Err(CaudalError::gltf(
                label,
                format!("extensionsRequired: {name} changes the geometry or animation and caudal cannot decode it (export without it)"),
            ));
        }
        if is_appearance(name) {
            warnings.push(format!("extensionsRequired: {name} only changes appearance; caudal ignores it and keeps it in the written file"));
            continue;
        }
        match geometry_use(json, name) {
            Some(place) => {
                return Err(CaudalError::gltf(
                    label,
                    format!("extensionsRequired: {name} is unknown to caudal and is used on {place}, which caudal reads (export without it)"),
                ));
            }
            None => warnings.push(format!(
                "extensionsRequired: {name} is unknown to caudal but used only on materials, textures or cameras; caudal ignores it and keeps it in the written file"
            )),
        }
    }
    Ok(warnings)
}

/// The first place outside the appearance collections (and outside the
/// root's own `extensions`) where `name` appears as an extension key.
fn geometry_use(json: &Value, name: &str) -> Option<String> {
    let root = json.as_object()?;
    for (key, value) in root {
        if key == "extensions"
            || key == "extensionsUsed"
            || key == "extensionsRequired"
            || APPEARANCE_COLLECTIONS.contains(&key.as_str())
        {
            continue;
        }
        let mut stack = vec![(key.clone(), value)];
        while let Some((path, v)) = stack.pop() {
            match v {
                Value::Object(o) => {
                    if o.get("extensions").and_then(|e| e.get(name)).is_some() {
                        return Some(path);
                    }
                    for (k, c) in o {
                        if k != "extensions" && k != "extras" {
                            stack.push((format!("{path}.{k}"), c));
                        }
                    }
                }
                Value::Array(a) => {
                    stack.extend(a.iter().enumerate().map(|(i, c)| (format!("{path}[{i}]"), c)))
                }
                _ => {}
            }
        }
    }
    None
}

/// Drops `name` from `extensionsUsed` and `extensionsRequired` (after
/// caudal decoded it away), removing lists left empty.
pub fn forget(json: &mut Value, name: &str) {
    let Some(root) = json.as_object_mut() else { return };
    for key in ["extensionsUsed", "extensionsRequired"] {
        let empty = match root.get_mut(key).and_then(Value::as_array_mut) {
            Some(list) => {
                list.retain(|v| v.as_str() != Some(name));
                list.is_empty()
            }
            None => false,
        };
        if empty {
            root.remove(key);
        }
    }
}
