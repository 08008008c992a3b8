//! What a file's URIs may point at: the sandbox of the reader.
//!
//! A glTF names its external buffers and images by URI. caudal reads a URI
//! only when it is
//!
//! - a base64 `data:` URI, or
//! - a relative path that, after percent-decoding and with every symlink
//!   resolved, names a **regular file inside the glTF's own folder** (or a
//!   folder below it).
//!
//! Everything else is refused with a `GltfError` naming the field: a
//! scheme (`file:`, `http:`), an absolute path, a path that climbs out
//! (`../`, `%2e%2e/`, `..%2F`), a backslash, a symlink leading out of the
//! folder, and anything that is not a regular file (a folder, `/dev/zero`,
//! a FIFO, which would block for ever): the kind is checked before the
//! file is opened. A buffer's declared `byteLength` is checked against the
//! file's size before a byte is read, and only that many bytes are read.
//!
//! Images are never read (caudal computes nothing from textures), but an
//! image URI that breaks the same rule is refused too: the written file
//! would carry it to the next reader.

use std::fs;
use std::io::Read;
use std::path::{Component, Path, PathBuf};

use super::budget::Budget;
use crate::error::{CaudalError, Result};

/// Bytes of `s` with every `%XX` escape decoded.
pub fn percent_decode(s: &str) -> Vec<u8> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let Some(v) = std::str::from_utf8(&bytes[i + 1..i + 3])
                .ok()
                .and_then(|h| u8::from_str_radix(h, 16).ok())
            {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    out
}

#[cfg(unix)]
fn path_of(bytes: Vec<u8>) -> Option<PathBuf> {
    use std::os::unix::ffi::OsStringExt;
    Some(PathBuf::from(std::ffi::OsString::from_vec(bytes)))
}

#[cfg(not(unix))]
fn path_of(bytes: Vec<u8>) -> Option<PathBuf> {
    String::from_utf8(bytes).ok().map(PathBuf::from)
}

/// The relative path a URI names, checked by its text alone: no scheme,
/// not absolute, no backslash or NUL, never above its folder.
pub fn relative_path(uri: &str, field: &str, label: &str) -> Result<PathBuf> {
    let refuse = |why: &str| {
        CaudalError::gltf(label, format!("{field}: {uri:?} {why}; caudal reads only data: URIs and files inside the glTF's own folder"))
    };
    // RFC 3986: a relative reference has no ':' before its first '/'.
    let first_segment = uri.split('/').next().unwrap_or("");
    if first_segment.contains(':') {
        return Err(refuse("has a scheme"));
    }
    let decoded = percent_decode(uri);
    if decoded.is_empty() {
        return Err(refuse("is empty"));
    }
    if decoded.contains(&0) {
        return Err(refuse("holds a NUL byte"));
    }
    if decoded.contains(&b'\\') {
        return Err(refuse("holds a backslash (not a URI path separator)"));
    }
    if decoded[0] == b'/' {
        return Err(refuse("is an absolute path"));
    }
    let path = path_of(decoded).ok_or_else(|| refuse("is not valid UTF-8"))?;
    let mut depth = 0i64;
    for c in path.components() {
        match c {
            Component::Normal(_) => depth += 1,
            Component::CurDir => {}
            Component::ParentDir => {
                depth -= 1;
                if depth < 0 {
                    return Err(refuse("climbs out of the file's folder"));
                }
            }
            Component::RootDir | Component::Prefix(_) => return Err(refuse("is an absolute path")),
        }
    }
    Ok(path)
}

/// The canonical path of a file a URI names, inside `base_dir` and a
/// regular file; `Ok(None)` when it does not exist and `must_exist` is false.
fn resolve(
    uri: &str,
    base_dir: &Path,
    field: &str,
    label: &str,
    must_exist: bool,
) -> Result<Option<PathBuf>> {
    let rel = relative_path(uri, field, label)?;
    let base = base_dir.canonicalize().map_err(|e| CaudalError::io(base_dir, e))?;
    let joined = base.join(&rel);
    let canonical = match joined.canonicalize() {
        Ok(p) => p,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            if must_exist {
                return Err(CaudalError::gltf(
                    label,
                    format!("{field}: missing buffer file {}", joined.display()),
                ));
            }
            return Ok(None);
        }
        Err(e) => return Err(CaudalError::io(joined, e)),
    };
    if !canonical.starts_with(&base) {
        return Err(CaudalError::gltf(
            label,
            format!(
                "{field}: {uri:?} resolves to {}, outside the file's folder {} (through a symlink); caudal reads only files inside the glTF's own folder",
                canonical.display(),
                base.display()
            ),
        ));
    }
    let meta = fs::metadata(&canonical).map_err(|e| CaudalError::io(&canonical, e))?;
    if !meta.is_file() {
        return Err(CaudalError::gltf(
            label,
            format!("{field}: {} is not a regular file (a folder, device or FIFO); caudal reads only regular files", canonical.display()),
        ));
    }
    Ok(Some(canonical))
}

/// Exactly `declared` bytes of the external buffer `uri` (field `field`),
/// read from a regular file inside `base_dir` whose size was checked first.
pub fn read_buffer(
    uri: &str,
    base_dir: &Path,
    declared: usize,
    field: &str,
    label: &str,
    budget: &Budget,
) -> Result<Vec<u8>> {
    let path = resolve(uri, base_dir, field, label, true)?.expect("must_exist");
    let file = fs::File::open(&path).map_err(|e| CaudalError::io(&path, e))?;
    // The kind again, on the file actually opened.
    let meta = file.metadata().map_err(|e| CaudalError::io(&path, e))?;
    if !meta.is_file() {
        return Err(CaudalError::gltf(
            label,
            format!("{field}: {} is not a regular file", path.display()),
        ));
    }
    let len = meta.len();
    if len < declared as u64 {
        let length_field = field.trim_end_matches(".uri");
        return Err(CaudalError::gltf(
            label,
            format!("{length_field}.byteLength: declares {declared} bytes but {} holds {len} (truncated file?)", path.display()),
        ));
    }
    budget.charge(label, field, declared)?;
    let mut data = Vec::with_capacity(declared);
    file.take(declared as u64).read_to_end(&mut data).map_err(|e| CaudalError::io(&path, e))?;
    if data.len() < declared {
        return Err(CaudalError::gltf(
            label,
            format!("{field}: {} shrank while it was read", path.display()),
        ));
    }
    Ok(data)
}

/// Checks an image URI by the same rule (images are not read): a data
/// URI, or a relative path inside the folder; a missing file is allowed.
pub fn check_image(uri: &str, base_dir: Option<&Path>, field: &str, label: &str) -> Result<()> {
    if uri.starts_with("data:") {
        return Ok(());
    }
    match base_dir {
        Some(d) => resolve(uri, d, field, label, false).map(|_| ()),
        None => relative_path(uri, field, label).map(|_| ()),
    }
}

/// Size of the bytes a base64 payload of `len` characters decodes to, at most.
pub fn base64_decoded_len(len: usize) -> usize {
    len / 4 * 3 + 3
}
