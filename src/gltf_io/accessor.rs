//! Accessor data, read with every offset, stride and index checked against
//! the bytes the file actually holds before anything is read.
//!
//! Integer components are converted as glTF says: a `normalized` accessor
//! maps its integers onto [0, 1] (unsigned) or [-1, 1] (signed), which is
//! how `KHR_mesh_quantization` stores positions and weights in 8 or 16 bits;
//! the dequantizing scale and offset then sit in the node (or, for a skin,
//! in the inverse bind matrices) and reach the rig with them. Sparse
//! accessors are applied over their base values.

use gltf::accessor::{DataType, Dimensions};

use super::budget::Budget;
use crate::error::{CaudalError, Result};

/// The file's buffers, its name for error messages, and the load's byte
/// budget every read is charged to before it allocates.
#[derive(Clone, Copy)]
pub struct Source<'a> {
    pub buffers: &'a [Vec<u8>],
    pub label: &'a str,
    pub budget: &'a Budget,
}

/// One component at the start of `bytes`, as f32.
fn component(bytes: &[u8], ty: DataType, normalized: bool) -> f32 {
    match ty {
        DataType::F32 => f32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]),
        DataType::U32 => u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]) as f32,
        DataType::U16 => {
            let v = u16::from_le_bytes([bytes[0], bytes[1]]) as f32;
            if normalized {
                v / 65535.0
            } else {
                v
            }
        }
        DataType::I16 => {
            let v = i16::from_le_bytes([bytes[0], bytes[1]]) as f32;
            if normalized {
                (v / 32767.0).max(-1.0)
            } else {
                v
            }
        }
        DataType::U8 => {
            let v = bytes[0] as f32;
            if normalized {
                v / 255.0
            } else {
                v
            }
        }
        DataType::I8 => {
            let v = bytes[0] as i8 as f32;
            if normalized {
                (v / 127.0).max(-1.0)
            } else {
                v
            }
        }
    }
}

fn uint(bytes: &[u8], ty: DataType) -> Option<u32> {
    match ty {
        DataType::U8 => Some(bytes[0] as u32),
        DataType::U16 => Some(u16::from_le_bytes([bytes[0], bytes[1]]) as u32),
        DataType::U32 => Some(u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]])),
        _ => None,
    }
}

/// A checked window on strided elements: element `i` starts at
/// `start + i * stride` and is `size` bytes long.
struct Strided<'a> {
    data: &'a [u8],
    stride: usize,
    size: usize,
}

impl<'a> Strided<'a> {
    /// The elements `count` of `size` bytes at `offset` in `view`.
    fn new(
        view: &gltf::buffer::View,
        src: &Source<'a>,
        offset: usize,
        count: usize,
        size: usize,
        strided: bool,
        what: &str,
    ) -> Result<Self> {
        let buffer = src.buffers.get(view.buffer().index()).ok_or_else(|| {
            CaudalError::gltf(
                src.label,
                format!("{what}: bufferView {} reads a missing buffer", view.index()),
            )
        })?;
        let bad = |m: String| CaudalError::gltf(src.label, format!("{what}: {m}"));
        let view_end = view
            .offset()
            .checked_add(view.length())
            .ok_or_else(|| bad("bufferView range overflows".into()))?;
        let view_bytes = buffer.get(view.offset()..view_end).ok_or_else(|| {
            bad(format!(
                "bufferView {} (bytes {}..{view_end}) lies outside its buffer of {} bytes",
                view.index(),
                view.offset(),
                buffer.len()
            ))
        })?;
        let stride = if strided { view.stride().unwrap_or(size) } else { size };
        if stride < size {
            return Err(bad(format!(
                "byteStride {stride} of bufferView {} is shorter than one element ({size} bytes)",
                view.index()
            )));
        }
        if count > 0 {
            let end = (count - 1)
                .checked_mul(stride)
                .and_then(|x| x.checked_add(offset))
                .and_then(|x| x.checked_add(size))
                .ok_or_else(|| bad("element range overflows".into()))?;
            if end > view_bytes.len() {
                return Err(bad(format!("{count} elements of {size} bytes (stride {stride}) from offset {offset} need {end} bytes, bufferView {} has {}", view.index(), view_bytes.len())));
            }
        }
        Ok(Strided { data: view_bytes.get(offset..).unwrap_or(&[]), stride, size })
    }

    fn element(&self, i: usize) -> &'a [u8] {
        &self.data[i * self.stride..i * self.stride + self.size]
    }
}

/// Element size in bytes; matrices of 1- and 2-byte components carry
/// column padding that caudal never needs, so they are refused.
fn element_size(src: &Source, ty: DataType, dims: Dimensions, what: &str) -> Result<usize> {
    if matches!(dims, Dimensions::Mat2 | Dimensions::Mat3) && ty.size() < 4 {
        return Err(CaudalError::gltf(
            src.label,
            format!("{what}: padded {dims:?} of {ty:?} is not supported"),
        ));
    }
    Ok(ty.size() * dims.multiplicity())
}

/// Zero bytes for the base of a sparse accessor without a view (the
/// largest element, a MAT4 of f32, is 64 bytes).
const ZEROS: [u8; 64] = [0; 64];

/// Calls `emit` with the bytes of every element in order (base values with
/// sparse ones substituted), after every range was checked and the output
/// (`out_bytes_per_element` each) charged to the load's budget. Nothing is
/// allocated per element.
fn for_each_element<'a>(
    acc: &gltf::Accessor<'a>,
    src: &Source<'a>,
    what: &str,
    out_bytes_per_element: usize,
    mut emit: impl FnMut(&[u8]),
) -> Result<()> {
    let ty = acc.data_type();
    let size = element_size(src, ty, acc.dimensions(), what)?;
    let count = acc.count();
    src.budget.charge_items(src.label, what, count, out_bytes_per_element)?;
    let base = match acc.view() {
        Some(view) => Some(Strided::new(&view, src, acc.offset(), count, size, true, what)?),
        None if acc.sparse().is_none() => {
            return Err(CaudalError::gltf(
                src.label,
                format!(
                    "{what}: accessor {} has neither a bufferView nor sparse values",
                    acc.index()
                ),
            ));
        }
        None => None,
    };
    // Sparse substitutions, in the strictly increasing index order glTF requires.
    let mut subs: Vec<(usize, &'a [u8])> = Vec::new();
    if let Some(sparse) = acc.sparse() {
        let n = sparse.count();
        let idx_ty = match sparse.indices().index_type() {
            gltf::accessor::sparse::IndexType::U8 => DataType::U8,
            gltf::accessor::sparse::IndexType::U16 => DataType::U16,
            gltf::accessor::sparse::IndexType::U32 => DataType::U32,
        };
        src.budget.charge_items(src.label, what, n, std::mem::size_of::<(usize, &[u8])>())?;
        let iv = Strided::new(
            &sparse.indices().view(),
            src,
            sparse.indices().offset(),
            n,
            idx_ty.size(),
            false,
            what,
        )?;
        let vv = Strided::new(
            &sparse.values().view(),
            src,
            sparse.values().offset(),
            n,
            size,
            false,
            what,
        )?;
        subs.reserve_exact(n);
        for k in 0..n {
            let i = uint(iv.element(k), idx_ty).expect("sparse indices are unsigned") as usize;
            if i >= count {
                return Err(CaudalError::gltf(
                    src.label,
                    format!("{what}: sparse index {i} is beyond the accessor's {count} elements"),
                ));
            }
            if subs.last().is_some_and(|&(last, _)| i <= last) {
                return Err(CaudalError::gltf(
                    src.label,
                    format!(
                        "{what}: sparse indices must strictly increase ({i} follows {})",
                        subs.last().map_or(0, |s| s.0)
                    ),
                ));
            }
            subs.push((i, vv.element(k)));
        }
    }
    let mut next = subs.iter().peekable();
    for i in 0..count {
        let bytes = match next.peek() {
            Some(&&(j, v)) if j == i => {
                next.next();
                v
            }
            _ => match &base {
                Some(s) => s.element(i),
                None => &ZEROS[..size],
            },
        };
        emit(bytes);
    }
    Ok(())
}

/// Every element of `acc` as `dims.multiplicity()` f32 components, in
/// order. Integers are dequantized as glTF defines.
pub fn floats(acc: &gltf::Accessor, src: &Source, what: &str) -> Result<Vec<f32>> {
    let ty = acc.data_type();
    let n = acc.dimensions().multiplicity();
    let normalized = acc.normalized();
    let mut out = Vec::new();
    for_each_element(acc, src, what, 4 * n, |e| {
        if out.capacity() == 0 {
            out.reserve_exact(acc.count() * n);
        }
        for c in 0..n {
            out.push(component(&e[c * ty.size()..], ty, normalized));
        }
    })?;
    Ok(out)
}

/// Every element of `acc` as unsigned integers (indices, joint indices).
/// Float or signed accessors are an error naming `what`.
pub fn uints(acc: &gltf::Accessor, src: &Source, what: &str) -> Result<Vec<u32>> {
    let ty = acc.data_type();
    if !matches!(ty, DataType::U8 | DataType::U16 | DataType::U32) || acc.normalized() {
        return Err(CaudalError::gltf(
            src.label,
            format!(
                "{what}: accessor {} holds {ty:?}{}, not unsigned integers",
                acc.index(),
                if acc.normalized() { " (normalized)" } else { "" }
            ),
        ));
    }
    let n = acc.dimensions().multiplicity();
    let mut out = Vec::new();
    for_each_element(acc, src, what, 4 * n, |e| {
        if out.capacity() == 0 {
            out.reserve_exact(acc.count() * n);
        }
        for c in 0..n {
            out.push(uint(&e[c * ty.size()..], ty).expect("checked unsigned"));
        }
    })?;
    Ok(out)
}

/// Checks that `acc` has the expected element type.
pub fn expect_dims(
    acc: &gltf::Accessor,
    src: &Source,
    allowed: &[Dimensions],
    what: &str,
) -> Result<()> {
    if allowed.contains(&acc.dimensions()) {
        Ok(())
    } else {
        Err(CaudalError::gltf(
            src.label,
            format!(
                "{what}: accessor {} is {:?}, expected {:?}",
                acc.index(),
                acc.dimensions(),
                allowed
            ),
        ))
    }
}
