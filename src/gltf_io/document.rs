//! From bytes to a checked document: the GLB container or JSON, the
//! extension policy ([`super::extensions`]), the buffers (inside the
//! reader's sandbox, [`super::uri`], and its budget, [`super::budget`]),
//! meshopt views decoded ([`super::meshopt`]), and every index, stride and
//! range validated ([`super::structure`], then the `gltf` crate's own
//! validation behind a panic guard). After this, the JSON describes a plain
//! file that the writer can write back as it is.

use std::path::Path;

use serde_json::Value;

use super::budget::Budget;
use super::{buffers, extensions, meshopt, structure};
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
            let msgs: Vec<String> =
                v.iter().take(5).map(|(p, e)| format!("{} {e}", p.as_str())).collect();
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
            format!(
                "the header declares {length} bytes but the file has {length_read} (truncated?)"
            )
        }
        Error::ChunkLength { ty, length, length_read } => format!(
            "the {} chunk declares {length} bytes but only {length_read} follow (truncated?)",
            chunk(ty)
        ),
        Error::ChunkType(ty) => {
            format!("unexpected {} chunk (JSON must come first, then at most one BIN)", chunk(ty))
        }
        Error::UnknownChunkType(t) => {
            format!("unknown chunk type {:?}", String::from_utf8_lossy(t))
        }
    }
}

pub fn parse(
    bytes: &[u8],
    base_dir: Option<&Path>,
    label: &str,
    budget: &Budget,
) -> Result<Parsed> {
    let is_glb = bytes.starts_with(b"glTF");
    if !is_glb && bytes.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        return Err(CaudalError::gltf(label, "not a glTF file (no 'glTF' magic and not JSON)"));
    }
    let (mut json, blob): (Value, Option<Vec<u8>>) = if is_glb {
        let glb = gltf::binary::Glb::from_slice(bytes)
            .map_err(|e| CaudalError::gltf(label, describe(e)))?;
        let json = serde_json::from_slice(&glb.json)
            .map_err(|e| CaudalError::gltf(label, format!("bad JSON: {e}")))?;
        (json, glb.bin.map(|b| b.into_owned()))
    } else {
        (
            serde_json::from_slice(bytes)
                .map_err(|e| CaudalError::gltf(label, format!("bad JSON: {e}")))?,
            None,
        )
    };
    if !json.is_object() {
        return Err(CaudalError::gltf(label, "bad JSON: the document is not an object"));
    }
    let warnings = extensions::check_required(&json, label)?;
    buffers::check_images(&json, base_dir, label)?;
    let mut buffers = buffers::resolve(&json, blob, base_dir, label, budget)?;
    meshopt::decompress(&mut json, &mut buffers, label, budget)?;
    structure::index_width(&json, label)?;
    let root = <gltf::json::Root as serde::Deserialize>::deserialize(&json)
        .map_err(|e| CaudalError::gltf(label, format!("bad JSON: {e}")))?;
    structure::before_crate(&root, label)?;
    let doc = gltf::Document::from_json_without_validation(root);
    validate(&doc, label)?;
    structure::layout(doc.as_json(), label)?;
    Ok(Parsed { doc, json, buffers, warnings })
}

/// The `gltf` crate's checks of every index and enum, except its list of
/// supported required extensions: [`extensions::check_required`] decided.
fn validate(doc: &gltf::Document, label: &str) -> Result<()> {
    use gltf::json::validation::{Error, Validate};
    let root = doc.as_json();
    let mut errors = Vec::new();
    // The crate's validation indexes some collections unchecked;
    // [`structure::before_crate`] checked those, and a panic left in it is
    // still a refusal of the file, not a crash.
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        root.validate(root, gltf::json::Path::new, &mut |path, error| {
            let p = path();
            if !(matches!(error, Error::Unsupported)
                && p.as_str().starts_with("extensionsRequired"))
            {
                errors.push((p, error));
            }
        })
    }));
    if let Err(panic) = outcome {
        return Err(CaudalError::gltf(
            label,
            format!(
                "invalid document (the validator stopped: {})",
                crate::guard::panic_message(&*panic)
            ),
        ));
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(CaudalError::gltf(label, describe(gltf::Error::Validation(errors))))
    }
}
