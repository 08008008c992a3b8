//! From bytes to a checked document: the GLB container or JSON, the
//! extension policy ([`super::extensions`]), the buffers, meshopt views
//! decoded ([`super::meshopt`]), and the `gltf` crate's validation of every
//! index. After this, the JSON describes a plain file that the writer can
//! write back as it is.

use std::path::Path;

use serde_json::Value;

use super::{buffers, extensions, meshopt};
use crate::error::{CaudalError, Result};

pub struct Parsed {
    pub doc: gltf::Document,
    /// The file's JSON, with what caudal decoded (meshopt) removed.
    pub json: Value,
    pub buffers: Vec<Vec<u8>>,
    pub warnings: Vec<String>,
}

pub fn describe(e: gltf::Error) -> String {
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

pub fn parse(bytes: &[u8], base_dir: Option<&Path>, label: &str) -> Result<Parsed> {
    let is_glb = bytes.starts_with(b"glTF");
    if !is_glb && bytes.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        return Err(CaudalError::gltf(label, "not a glTF file (no 'glTF' magic and not JSON)"));
    }
    let (mut json, blob): (Value, Option<Vec<u8>>) = if is_glb {
        let glb = gltf::binary::Glb::from_slice(bytes).map_err(|e| CaudalError::gltf(label, describe(e)))?;
        let json = serde_json::from_slice(&glb.json).map_err(|e| CaudalError::gltf(label, format!("bad JSON: {e}")))?;
        (json, glb.bin.map(|b| b.into_owned()))
    } else {
        (serde_json::from_slice(bytes).map_err(|e| CaudalError::gltf(label, format!("bad JSON: {e}")))?, None)
    };
    if !json.is_object() {
        return Err(CaudalError::gltf(label, "bad JSON: the document is not an object"));
    }
    let warnings = extensions::check_required(&json, label)?;
    let mut buffers = buffers::resolve(&json, blob, base_dir, label)?;
    meshopt::decompress(&mut json, &mut buffers, label)?;
    let root = <gltf::json::Root as serde::Deserialize>::deserialize(&json).map_err(|e| CaudalError::gltf(label, format!("bad JSON: {e}")))?;
    let doc = gltf::Document::from_json_without_validation(root);
    validate(&doc, label)?;
    Ok(Parsed { doc, json, buffers, warnings })
}

/// The `gltf` crate's checks of every index and enum, except its list of
/// supported required extensions: [`extensions::check_required`] decided.
fn validate(doc: &gltf::Document, label: &str) -> Result<()> {
    use gltf::json::validation::{Error, Validate};
    let root = doc.as_json();
    let mut errors = Vec::new();
    root.validate(root, gltf::json::Path::new, &mut |path, error| {
        let p = path();
        if !(matches!(error, Error::Unsupported) && p.as_str().starts_with("extensionsRequired")) {
            errors.push((p, error));
        }
    });
    if errors.is_empty() {
        Ok(())
    } else {
        Err(CaudalError::gltf(label, describe(gltf::Error::Validation(errors))))
    }
}
