use std::path::Path;

use base64::Engine;
use serde_json::Value;

use super::meshopt;
use crate::error::{CaudalError, Result};

/// Resolves every buffer of a document's JSON: the GLB binary chunk
/// (buffer 0 without a URI), base64 data URIs, or external files beside
/// the glTF. A meshopt fallback buffer has no data in the file: it starts
/// empty and is filled when its views are decoded.
pub fn resolve(json: &Value, blob: Option<Vec<u8>>, base_dir: Option<&Path>, label: &str) -> Result<Vec<Vec<u8>>> {
    let mut blob = blob;
    let mut out = Vec::new();
    let list = json.get("buffers").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    for (index, buffer) in list.iter().enumerate() {
        let declared = buffer.get("byteLength").and_then(Value::as_u64).unwrap_or(0) as usize;
        let data = match buffer.get("uri").and_then(Value::as_str) {
            Some(uri) => read_uri(uri, base_dir, label, index)?,
            None if meshopt::is_fallback(buffer) => {
                out.push(Vec::new());
                continue;
            }
            None if index == 0 => blob
                .take()
                .ok_or_else(|| CaudalError::gltf(label, "buffer 0 refers to the GLB binary chunk, which is missing"))?,
            None => return Err(CaudalError::gltf(label, format!("buffers[{index}] has no uri (only buffer 0 may be the GLB binary chunk)"))),
        };
        if data.len() < declared {
            return Err(CaudalError::gltf(
                label,
                format!("buffer {index} holds {} bytes but declares {declared} (truncated file?)", data.len()),
            ));
        }
        out.push(data);
    }
    Ok(out)
}

pub fn read_uri(uri: &str, base_dir: Option<&Path>, label: &str, index: usize) -> Result<Vec<u8>> {
    if let Some(rest) = uri.strip_prefix("data:") {
        let comma = rest.find(',').ok_or_else(|| CaudalError::gltf(label, format!("buffer {index}: malformed data URI")))?;
        let (meta, payload) = (&rest[..comma], &rest[comma + 1..]);
        if !meta.ends_with(";base64") {
            return Err(CaudalError::gltf(label, format!("buffer {index}: only base64 data URIs are supported")));
        }
        return base64::engine::general_purpose::STANDARD
            .decode(payload)
            .map_err(|e| CaudalError::gltf(label, format!("buffer {index}: bad base64 data ({e})")));
    }
    let rel = percent_decode(uri);
    let path = match base_dir {
        Some(d) => d.join(&rel),
        None => {
            return Err(CaudalError::gltf(label, format!("buffer {index}: external file {rel:?} but no folder to look in")));
        }
    };
    std::fs::read(&path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => CaudalError::gltf(label, format!("buffer {index}: missing buffer file {}", path.display())),
        _ => CaudalError::io(path, e),
    })
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let Ok(v) = u8::from_str_radix(&s[i + 1..i + 3], 16) {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}
