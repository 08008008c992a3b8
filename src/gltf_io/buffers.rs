use std::path::Path;

use base64::Engine;
use serde_json::Value;

use super::budget::Budget;
use super::{meshopt, uri};
use crate::error::{CaudalError, Result};

/// The buffers some bufferView reads (directly, or as the source of a
/// meshopt-compressed view). Only these are read: a buffer nothing uses
/// may name anything, and is never opened.
fn used_buffers(json: &Value, n: usize) -> Vec<bool> {
    let mut used = vec![false; n];
    for v in json.get("bufferViews").and_then(Value::as_array).into_iter().flatten() {
        let mut mark = |b: Option<u64>| {
            if let Some(x) = b.and_then(|b| usize::try_from(b).ok()).and_then(|b| used.get_mut(b)) {
                *x = true;
            }
        };
        mark(v.get("buffer").and_then(Value::as_u64));
        for name in meshopt::NAMES {
            mark(
                v.get("extensions")
                    .and_then(|e| e.get(name))
                    .and_then(|e| e.get("buffer"))
                    .and_then(Value::as_u64),
            );
        }
    }
    used
}

/// Resolves every buffer of a document's JSON: the GLB binary chunk
/// (buffer 0 without a URI), base64 data URIs, or external files inside
/// the glTF's folder ([`uri`] has the rule). Each buffer holds exactly its
/// declared `byteLength` (checked against the source first, and charged to
/// `budget` before it is allocated). A buffer no view uses is left empty
/// and never read; a meshopt fallback buffer has no data in the file: it
/// starts empty and is filled when its views are decoded.
pub fn resolve(
    json: &Value,
    blob: Option<Vec<u8>>,
    base_dir: Option<&Path>,
    label: &str,
    budget: &Budget,
) -> Result<Vec<Vec<u8>>> {
    let mut blob = blob;
    let mut out = Vec::new();
    let list = json.get("buffers").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    let used = used_buffers(json, list.len());
    for (index, buffer) in list.iter().enumerate() {
        let field = format!("buffers[{index}]");
        let declared = match buffer.get("byteLength") {
            Some(v) => v.as_u64().and_then(|n| usize::try_from(n).ok()).filter(|&n| n >= 1).ok_or_else(|| {
                CaudalError::gltf(label, format!("{field}.byteLength: {v} is not a whole number of bytes >= 1 (glTF 2.0: buffer.byteLength minimum 1)"))
            })?,
            None => return Err(CaudalError::gltf(label, format!("{field}.byteLength is missing (required)"))),
        };
        let uri_text = buffer.get("uri").and_then(Value::as_str);
        if !used[index] || (uri_text.is_none() && meshopt::is_fallback(buffer)) {
            // Buffer 0 without a URI is the GLB chunk even when unused.
            if index == 0 && uri_text.is_none() {
                blob.take();
            }
            out.push(Vec::new());
            continue;
        }
        let mut data = match uri_text {
            Some(u) => read_uri(u, base_dir, label, index, declared, budget)?,
            None if index == 0 => {
                let chunk = blob.take().ok_or_else(|| {
                    CaudalError::gltf(
                        label,
                        "buffers[0] refers to the GLB binary chunk, which is missing",
                    )
                })?;
                budget.charge(label, &field, chunk.len())?;
                chunk
            }
            None => {
                return Err(CaudalError::gltf(
                    label,
                    format!("{field} has no uri (only buffer 0 may be the GLB binary chunk)"),
                ))
            }
        };
        if data.len() < declared {
            return Err(CaudalError::gltf(
                label,
                format!("{field}.byteLength: declares {declared} bytes but the buffer holds {} (truncated file?)", data.len()),
            ));
        }
        // Bytes past the declared length (a GLB chunk's padding) are not
        // the buffer's: views must fit the declared length.
        data.truncate(declared);
        out.push(data);
    }
    Ok(out)
}

fn read_uri(
    u: &str,
    base_dir: Option<&Path>,
    label: &str,
    index: usize,
    declared: usize,
    budget: &Budget,
) -> Result<Vec<u8>> {
    let field = format!("buffers[{index}].uri");
    if let Some(rest) = u.strip_prefix("data:") {
        let comma = rest
            .find(',')
            .ok_or_else(|| CaudalError::gltf(label, format!("{field}: malformed data URI")))?;
        let (meta, payload) = (&rest[..comma], &rest[comma + 1..]);
        if !meta.ends_with(";base64") {
            return Err(CaudalError::gltf(
                label,
                format!("{field}: only base64 data URIs are supported"),
            ));
        }
        if uri::base64_decoded_len(payload.len()) < declared {
            return Err(CaudalError::gltf(
                label,
                format!("buffers[{index}].byteLength: declares {declared} bytes but its data URI holds at most {}", uri::base64_decoded_len(payload.len())),
            ));
        }
        budget.charge(label, &field, uri::base64_decoded_len(payload.len()))?;
        return base64::engine::general_purpose::STANDARD
            .decode(payload)
            .map_err(|e| CaudalError::gltf(label, format!("{field}: bad base64 data ({e})")));
    }
    let Some(dir) = base_dir else {
        return Err(CaudalError::gltf(
            label,
            format!("{field}: external file {u:?} but no folder to look in"),
        ));
    };
    uri::read_buffer(u, dir, declared, &field, label, budget)
}

/// Every image URI of the document, checked by the reader's rule (images
/// are not read; see [`uri`]).
pub fn check_images(json: &Value, base_dir: Option<&Path>, label: &str) -> Result<()> {
    for (i, image) in json.get("images").and_then(Value::as_array).into_iter().flatten().enumerate()
    {
        if let Some(u) = image.get("uri").and_then(Value::as_str) {
            uri::check_image(u, base_dir, &format!("images[{i}].uri"), label)?;
        }
    }
    Ok(())
}
