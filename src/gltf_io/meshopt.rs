//! `EXT_meshopt_compression` (and its ratified twin
//! `KHR_meshopt_compression`): compressed buffer views decoded by
//! meshoptimizer's own decoder (the `meshopt` crate) into the places their
//! uncompressed data belongs, so the rest of caudal reads, and the writer
//! writes, an ordinary file. The extension is then dropped from the JSON:
//! a written file holds plain buffers and needs no meshopt decoder.
//!
//! Each compressed view names its encoded bytes (`buffer`, `byteOffset`,
//! `byteLength`), what they decode to (`count` elements of `byteStride`
//! bytes, by `mode` and `filter`), and the view's own `buffer`/`byteOffset`
//! say where the decoded bytes go (usually a "fallback" buffer that has no
//! data in the file). Everything is checked before the decoder runs: the
//! decoder's own preconditions are asserts, not errors.

use serde_json::Value;

use super::budget::Budget;
use super::extensions;
use crate::error::{CaudalError, Result};

/// The two names of the extension (one bitstream).
pub const NAMES: [&str; 2] = ["EXT_meshopt_compression", "KHR_meshopt_compression"];

/// Most bytes one encoded byte can decode to. The vertex codec's densest
/// case is a 256-vertex block of 4-byte vertices whose four byte channels
/// are all zero: one control byte for 1024 output bytes (index codecs are
/// far below). A view claiming more is corrupt, and is refused before any
/// memory is set aside for it.
pub const MAX_EXPANSION: usize = 1024;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Attributes,
    Triangles,
    Indices,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Filter {
    None,
    Octahedral,
    Quaternion,
    Exponential,
    Color,
}

/// One compressed view, validated.
struct Job {
    view: usize,
    source: usize,
    source_offset: usize,
    source_length: usize,
    stride: usize,
    count: usize,
    mode: Mode,
    filter: Filter,
    target: usize,
    target_offset: usize,
}

impl Job {
    fn decoded_len(&self) -> usize {
        self.count * self.stride
    }
}

fn field(v: &Value, key: &str, default: Option<usize>, at: &str) -> Result<usize> {
    match v.get(key) {
        None => default.ok_or_else(|| CaudalError::gltf("", format!("{at}: missing {key}"))),
        Some(x) => x.as_u64().and_then(|n| usize::try_from(n).ok()).ok_or_else(|| {
            CaudalError::gltf("", format!("{at}.{key}: {x} is not a non-negative integer"))
        }),
    }
}

fn parse_job(view: usize, v: &Value, ext: &Value, name: &str) -> Result<Job> {
    let at = format!("bufferViews[{view}].extensions.{name}");
    let mode = match ext.get("mode").and_then(Value::as_str) {
        Some("ATTRIBUTES") => Mode::Attributes,
        Some("TRIANGLES") => Mode::Triangles,
        Some("INDICES") => Mode::Indices,
        other => {
            return Err(CaudalError::gltf(
                "",
                format!("{at}.mode: {other:?} is not ATTRIBUTES, TRIANGLES or INDICES"),
            ))
        }
    };
    let filter = match ext.get("filter").and_then(Value::as_str) {
        None | Some("NONE") => Filter::None,
        Some("OCTAHEDRAL") => Filter::Octahedral,
        Some("QUATERNION") => Filter::Quaternion,
        Some("EXPONENTIAL") => Filter::Exponential,
        Some("COLOR") => Filter::Color,
        Some(other) => {
            return Err(CaudalError::gltf("", format!("{at}.filter: unknown filter {other:?}")))
        }
    };
    let job = Job {
        view,
        source: field(ext, "buffer", None, &at)?,
        source_offset: field(ext, "byteOffset", Some(0), &at)?,
        source_length: field(ext, "byteLength", None, &at)?,
        stride: field(ext, "byteStride", None, &at)?,
        count: field(ext, "count", None, &at)?,
        mode,
        filter,
        target: field(v, "buffer", None, &format!("bufferViews[{view}]"))?,
        target_offset: field(v, "byteOffset", Some(0), &format!("bufferViews[{view}]"))?,
    };
    // The decoder's preconditions (asserts in meshoptimizer), as the
    // extension specifies them.
    let stride_ok = match (job.mode, job.filter) {
        (Mode::Attributes, Filter::None) => {
            job.stride.is_multiple_of(4) && (4..=256).contains(&job.stride)
        }
        (Mode::Attributes, Filter::Octahedral | Filter::Color) => {
            job.stride == 4 || job.stride == 8
        }
        (Mode::Attributes, Filter::Quaternion) => job.stride == 8,
        (Mode::Attributes, Filter::Exponential) => {
            job.stride.is_multiple_of(4) && (4..=256).contains(&job.stride)
        }
        (_, Filter::None) => job.stride == 2 || job.stride == 4,
        (_, _) => {
            return Err(CaudalError::gltf("", format!("{at}: a filter applies only to ATTRIBUTES")))
        }
    };
    if !stride_ok {
        return Err(CaudalError::gltf(
            "",
            format!(
                "{at}.byteStride: {} is not allowed for {:?} with filter {:?}",
                job.stride, job.mode, job.filter
            ),
        ));
    }
    if job.mode == Mode::Triangles && !job.count.is_multiple_of(3) {
        return Err(CaudalError::gltf(
            "",
            format!("{at}.count: {} is not a multiple of 3 for TRIANGLES", job.count),
        ));
    }
    let view_length = field(v, "byteLength", None, &format!("bufferViews[{view}]"))?;
    let decoded = job
        .count
        .checked_mul(job.stride)
        .ok_or_else(|| CaudalError::gltf("", format!("{at}: count x byteStride overflows")))?;
    if decoded > view_length {
        return Err(CaudalError::gltf(
            "",
            format!("{at}: decodes to {decoded} bytes but the view holds {view_length}"),
        ));
    }
    if decoded > MAX_EXPANSION.saturating_mul(job.source_length.max(1)) {
        return Err(CaudalError::gltf(
            "",
            format!("{at}: {decoded} bytes from {} encoded bytes is more than meshopt can encode ({MAX_EXPANSION}x)", job.source_length),
        ));
    }
    Ok(job)
}

/// Decodes one view; the result is `count * stride` bytes.
fn decode(job: &Job, encoded: &[u8]) -> std::result::Result<Vec<u8>, String> {
    let fail = |e: meshopt::Error| format!("{e:?}");
    match job.mode {
        Mode::Triangles | Mode::Indices => {
            let tri = job.mode == Mode::Triangles;
            Ok(if job.stride == 2 {
                let v: Vec<u16> = if tri {
                    meshopt::decode_index_buffer(encoded, job.count)
                } else {
                    meshopt::decode_index_sequence(encoded, job.count)
                }
                .map_err(fail)?;
                v.iter().flat_map(|x| x.to_le_bytes()).collect()
            } else {
                let v: Vec<u32> = if tri {
                    meshopt::decode_index_buffer(encoded, job.count)
                } else {
                    meshopt::decode_index_sequence(encoded, job.count)
                }
                .map_err(fail)?;
                v.iter().flat_map(|x| x.to_le_bytes()).collect()
            })
        }
        Mode::Attributes => {
            // u32 storage: the filters read 2- and 4-byte components in
            // place, so the buffer must be aligned for them.
            let mut words = vec![0u32; job.count * job.stride / 4];
            // SAFETY: `words` holds exactly count * stride bytes; stride is a
            // multiple of 4 in 4..=256 and every filter's stride rule was
            // checked in `parse_job`, which are the decoder's preconditions.
            // The decoder reads only `encoded` and writes only `words`.
            let rc = unsafe {
                meshopt::ffi::meshopt_decodeVertexBuffer(
                    words.as_mut_ptr().cast(),
                    job.count,
                    job.stride,
                    encoded.as_ptr(),
                    encoded.len(),
                )
            };
            if rc != 0 {
                return Err(format!("meshopt vertex decoder error {rc}"));
            }
            if job.count > 0 {
                let data = words.as_mut_ptr().cast();
                // SAFETY: as above; the filters rewrite count * stride bytes in place.
                unsafe {
                    match job.filter {
                        Filter::None => {}
                        Filter::Octahedral => {
                            meshopt::ffi::meshopt_decodeFilterOct(data, job.count, job.stride)
                        }
                        Filter::Quaternion => {
                            meshopt::ffi::meshopt_decodeFilterQuat(data, job.count, job.stride)
                        }
                        Filter::Exponential => {
                            meshopt::ffi::meshopt_decodeFilterExp(data, job.count, job.stride)
                        }
                        Filter::Color => {
                            meshopt::ffi::meshopt_decodeFilterColor(data, job.count, job.stride)
                        }
                    }
                }
            }
            Ok(words.iter().flat_map(|w| w.to_le_bytes()).collect())
        }
    }
}

/// True when buffer `i` is a meshopt fallback: it has no data of its own.
pub fn is_fallback(buffer: &Value) -> bool {
    NAMES.iter().any(|n| {
        buffer
            .get("extensions")
            .and_then(|e| e.get(n))
            .and_then(|e| e.get("fallback"))
            .and_then(Value::as_bool)
            == Some(true)
    })
}

/// Decodes every compressed view of `json` into `buffers` (fallback
/// buffers, empty on entry, are sized here) and rewrites the JSON as an
/// uncompressed file. Returns whether anything was compressed.
pub fn decompress(
    json: &mut Value,
    buffers: &mut [Vec<u8>],
    label: &str,
    budget: &Budget,
) -> Result<bool> {
    let relabel = |e: CaudalError| match e {
        CaudalError::Gltf { message, .. } => CaudalError::gltf(label, message),
        other => other,
    };
    let empty = Vec::new();
    let views = json.get("bufferViews").and_then(Value::as_array).unwrap_or(&empty);
    let mut jobs = Vec::new();
    for (i, v) in views.iter().enumerate() {
        for name in NAMES {
            if let Some(ext) = v.get("extensions").and_then(|e| e.get(name)) {
                jobs.push(parse_job(i, v, ext, name).map_err(relabel)?);
            }
        }
    }
    let fallback: Vec<bool> = json
        .get("buffers")
        .and_then(Value::as_array)
        .map(|b| b.iter().map(is_fallback).collect())
        .unwrap_or_default();
    // A plain view must not read a fallback buffer: it has no bytes.
    for (i, v) in views.iter().enumerate() {
        let b = v.get("buffer").and_then(Value::as_u64).unwrap_or(u64::MAX) as usize;
        if fallback.get(b) == Some(&true) && !jobs.iter().any(|j| j.view == i) {
            return Err(CaudalError::gltf(
                label,
                format!("bufferViews[{i}] reads fallback buffer {b}, which holds no data"),
            ));
        }
    }
    if jobs.is_empty() {
        return Ok(false);
    }
    // Fallback buffers get exactly the bytes their views decode to.
    for j in &jobs {
        if j.target >= buffers.len() || j.source >= buffers.len() {
            return Err(CaudalError::gltf(
                label,
                format!("bufferViews[{}]: buffer index out of range", j.view),
            ));
        }
        if fallback[j.target] {
            let end = j
                .target_offset
                .checked_add(j.decoded_len())
                .ok_or_else(|| CaudalError::gltf(label, "bufferViews: offset overflows"))?;
            let declared = json["buffers"][j.target]["byteLength"].as_u64().unwrap_or(0) as usize;
            if end > declared {
                return Err(CaudalError::gltf(label, format!("bufferViews[{}] ends at byte {end} of fallback buffer {} ({declared} bytes)", j.view, j.target)));
            }
            if buffers[j.target].len() < end {
                budget.charge(
                    label,
                    &format!("bufferViews[{}] (meshopt, decoded)", j.view),
                    end - buffers[j.target].len(),
                )?;
                buffers[j.target].resize(end, 0);
            }
        }
    }
    for j in &jobs {
        let src = &buffers[j.source];
        let encoded = j
            .source_offset
            .checked_add(j.source_length)
            .and_then(|end| src.get(j.source_offset..end))
            .ok_or_else(|| {
                CaudalError::gltf(
                    label,
                    format!(
                        "bufferViews[{}]: compressed bytes lie outside buffer {}",
                        j.view, j.source
                    ),
                )
            })?;
        // The decoder's own output, before it is copied into place.
        budget.charge(
            label,
            &format!("bufferViews[{}] (meshopt, decoding)", j.view),
            j.decoded_len(),
        )?;
        let bytes = decode(j, encoded).map_err(|e| {
            CaudalError::gltf(
                label,
                format!("bufferViews[{}]: meshopt data does not decode ({e})", j.view),
            )
        })?;
        let dst = &mut buffers[j.target];
        let end = j.target_offset + bytes.len();
        if end > dst.len() {
            return Err(CaudalError::gltf(
                label,
                format!("bufferViews[{}]: decoded bytes do not fit buffer {}", j.view, j.target),
            ));
        }
        dst[j.target_offset..end].copy_from_slice(&bytes);
    }
    // The JSON of a plain file: views without the extension, buffers
    // without the fallback flag.
    let views = json["bufferViews"].as_array_mut().expect("checked above");
    for j in &jobs {
        strip_extensions(&mut views[j.view]);
    }
    if let Some(bufs) = json.get_mut("buffers").and_then(Value::as_array_mut) {
        for b in bufs.iter_mut() {
            strip_extensions(b);
        }
    }
    for name in NAMES {
        extensions::forget(json, name);
    }
    Ok(true)
}

fn strip_extensions(v: &mut Value) {
    let Some(o) = v.as_object_mut() else { return };
    let empty = match o.get_mut("extensions").and_then(Value::as_object_mut) {
        Some(ext) => {
            for n in NAMES {
                ext.remove(n);
            }
            ext.is_empty()
        }
        None => false,
    };
    if empty {
        o.remove("extensions");
    }
}
