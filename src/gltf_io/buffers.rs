use std::path::Path;

use base64::Engine;

use crate::error::{CaudalError, Result};

/// Resolves every buffer of a document: the GLB binary chunk, base64 data
/// URIs, or external files beside the glTF.
pub fn resolve(doc: &gltf::Document, blob: Option<Vec<u8>>, base_dir: Option<&Path>, label: &str) -> Result<Vec<Vec<u8>>> {
    let mut blob = blob;
    let mut out = Vec::new();
    for buffer in doc.buffers() {
        let data = match buffer.source() {
            gltf::buffer::Source::Bin => blob
                .take()
                .ok_or_else(|| CaudalError::gltf(label, format!("buffer {} refers to the GLB binary chunk, which is missing", buffer.index())))?,
            gltf::buffer::Source::Uri(uri) => read_uri(uri, base_dir, label, buffer.index())?,
        };
        if data.len() < buffer.length() {
            return Err(CaudalError::gltf(
                label,
                format!("buffer {} holds {} bytes but declares {} (truncated file?)", buffer.index(), data.len(), buffer.length()),
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
