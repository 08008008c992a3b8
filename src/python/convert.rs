//! numpy <-> core conversions. Shapes and kinds are checked here so errors
//! name the field; nothing is coerced silently:
//!
//! - geometry (positions, weights, matrices, times) takes real numbers:
//!   any float or integer dtype, converted once to f32; complex values
//!   (numpy would drop the imaginary part with only a warning), booleans,
//!   strings and objects are refused;
//! - indices (triangles, joints, parents, vertex lists) take integers:
//!   any integer dtype; floats (numpy would truncate 1.7 to 1), booleans
//!   and unsigned values past 2^63 (numpy would wrap 2^64-1 to -1, a root
//!   parent) are refused. An empty array of any real dtype is accepted: it
//!   holds no value to coerce (numpy makes `[]` float64).

use glam::{Mat4, Quat, Vec3};
use numpy::{PyArray1, PyArrayDyn, PyArrayMethods, PyReadonlyArrayDyn, PyUntypedArrayMethods};
use pyo3::prelude::*;

use super::errors::to_py;
use crate::error::CaudalError;

/// What a field accepts (see the module doc).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Real,
    Integer,
}

/// Checks the numpy kind of `obj` (as `numpy.asarray` sees it) against `kind`.
fn check_kind(obj: &Bound<'_, PyAny>, kind: Kind, field: &str) -> PyResult<()> {
    let np = obj.py().import("numpy")?;
    let arr = np.call_method1("asarray", (obj,)).map_err(|e| {
        to_py(CaudalError::shape(field, format!("not convertible to an array ({e})")))
    })?;
    let dtype = arr.getattr("dtype")?;
    let k: String = dtype.getattr("kind")?.extract()?;
    let size: usize = arr.getattr("size")?.extract()?;
    let name: String = dtype.getattr("name")?.extract()?;
    match (kind, k.as_str()) {
        (Kind::Real, "f" | "i" | "u") => Ok(()),
        (Kind::Real, "c") => Err(to_py(CaudalError::shape(
            field,
            format!("holds complex values ({name}); geometry must be real numbers"),
        ))),
        (Kind::Real, _) => Err(to_py(CaudalError::shape(
            field,
            format!("holds {name} values; geometry must be real numbers"),
        ))),
        (Kind::Integer, "i") => Ok(()),
        (Kind::Integer, "u") => {
            if size > 0 && dtype.getattr("itemsize")?.extract::<usize>()? >= 8 {
                let max: u64 = arr.call_method0("max")?.extract()?;
                if max > i64::MAX as u64 {
                    return Err(to_py(CaudalError::shape(
                        field,
                        format!("value {max} ({name}) is not a valid index"),
                    )));
                }
            }
            Ok(())
        }
        (Kind::Integer, "f") if size == 0 => Ok(()),
        (Kind::Integer, _) => Err(to_py(CaudalError::shape(
            field,
            format!("holds {name} values; indices must be integer arrays (they are not rounded)"),
        ))),
    }
}

fn coerce<'py, T: numpy::Element>(
    obj: &Bound<'py, PyAny>,
    dtype: &str,
    field: &str,
) -> PyResult<PyReadonlyArrayDyn<'py, T>> {
    let np = obj.py().import("numpy")?;
    let arr = np.call_method1("ascontiguousarray", (obj, dtype)).map_err(|e| {
        to_py(CaudalError::shape(field, format!("not convertible to a {dtype} array ({e})")))
    })?;
    let arr = arr
        .cast_into::<PyArrayDyn<T>>()
        .map_err(|_| to_py(CaudalError::shape(field, format!("expected a {dtype} array"))))?;
    Ok(arr.readonly())
}

/// Checks `shape` against `want` (None = any length) and names the field.
fn check_shape(shape: &[usize], want: &[Option<usize>], field: &str) -> PyResult<()> {
    let ok =
        shape.len() == want.len() && shape.iter().zip(want).all(|(s, w)| w.is_none_or(|w| *s == w));
    if ok {
        return Ok(());
    }
    let want_s: Vec<String> =
        want.iter().map(|w| w.map_or("N".to_string(), |w| w.to_string())).collect();
    Err(to_py(CaudalError::shape(
        field,
        format!("expected shape [{}], got {:?}", want_s.join(", "), shape),
    )))
}

pub fn f32_flat(
    obj: &Bound<'_, PyAny>,
    field: &str,
    want: &[Option<usize>],
) -> PyResult<(Vec<f32>, Vec<usize>)> {
    real_flat(obj, "float32", field, want, |x: &f32| x.is_finite())
}

/// Real numbers of numpy dtype `dtype`, flat, with their shape: the kind,
/// the shape and every value (`finite`) checked.
fn real_flat<T: numpy::Element + Copy>(
    obj: &Bound<'_, PyAny>,
    dtype: &str,
    field: &str,
    want: &[Option<usize>],
    finite: impl Fn(&T) -> bool,
) -> PyResult<(Vec<T>, Vec<usize>)> {
    check_kind(obj, Kind::Real, field)?;
    let a = coerce::<T>(obj, dtype, field)?;
    check_shape(a.shape(), want, field)?;
    let shape = a.shape().to_vec();
    let data =
        a.as_slice().map_err(|_| to_py(CaudalError::shape(field, "not contiguous")))?.to_vec();
    if let Some(i) = data.iter().position(|x| !finite(x)) {
        return Err(to_py(CaudalError::NonFinite {
            field: field.into(),
            index: i / shape.iter().skip(1).product::<usize>().max(1),
        }));
    }
    Ok((data, shape))
}

/// Whether `obj` holds float64 numbers (a float64 array keeps its
/// precision where a core function accepts it; everything else is read as
/// float32).
pub fn is_float64(obj: &Bound<'_, PyAny>) -> PyResult<bool> {
    let np = obj.py().import("numpy")?;
    let dtype = np.call_method1("asarray", (obj,))?.getattr("dtype")?;
    dtype.eq(np.getattr("float64")?)
}

pub fn f64_flat(
    obj: &Bound<'_, PyAny>,
    field: &str,
    want: &[Option<usize>],
) -> PyResult<(Vec<f64>, Vec<usize>)> {
    real_flat(obj, "float64", field, want, |x: &f64| x.is_finite())
}

/// `data` as a numpy array of `shape` (row-major).
pub fn array<'py, T: numpy::Element>(
    py: Python<'py>,
    data: Vec<T>,
    shape: &[usize],
) -> PyResult<Bound<'py, PyAny>> {
    Ok(PyArray1::from_vec(py, data).reshape(shape.to_vec())?.into_any())
}

pub fn i64_flat(
    obj: &Bound<'_, PyAny>,
    field: &str,
    want: &[Option<usize>],
) -> PyResult<(Vec<i64>, Vec<usize>)> {
    check_kind(obj, Kind::Integer, field)?;
    let a = coerce::<i64>(obj, "int64", field)?;
    check_shape(a.shape(), want, field)?;
    let shape = a.shape().to_vec();
    let data =
        a.as_slice().map_err(|_| to_py(CaudalError::shape(field, "not contiguous")))?.to_vec();
    Ok((data, shape))
}

pub fn vec3s(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<Vec<Vec3>> {
    let (d, _) = f32_flat(obj, field, &[None, Some(3)])?;
    Ok(d.chunks_exact(3).map(|c| Vec3::new(c[0], c[1], c[2])).collect())
}

pub fn quats(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<Vec<Quat>> {
    let (d, _) = f32_flat(obj, field, &[None, Some(4)])?;
    Ok(d.chunks_exact(4).map(|c| Quat::from_xyzw(c[0], c[1], c[2], c[3]).normalize()).collect())
}

/// `[J, 4, 4]` row-major numpy matrices (numpy's `m[row, col]`).
pub fn mat4s(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<Vec<Mat4>> {
    let (d, _) = f32_flat(obj, field, &[None, Some(4), Some(4)])?;
    Ok(d.chunks_exact(16).map(|c| Mat4::from_cols_slice(c).transpose()).collect())
}

/// Non-negative indices below 2^32, each checked against `bound` if given.
pub fn indices(
    obj: &Bound<'_, PyAny>,
    field: &str,
    want: &[Option<usize>],
    bound: Option<usize>,
) -> PyResult<(Vec<u32>, Vec<usize>)> {
    let (d, shape) = i64_flat(obj, field, want)?;
    let limit = bound.map_or(u32::MAX as i64, |b| b as i64);
    if let Some(i) = d.iter().position(|&x| x < 0 || x >= limit) {
        return Err(to_py(CaudalError::IndexOutOfRange {
            field: field.into(),
            index: i,
            value: d[i],
            bound: limit as usize,
        }));
    }
    Ok((d.into_iter().map(|x| x as u32).collect(), shape))
}

pub fn vec3s_to_py<'py>(py: Python<'py>, v: &[Vec3]) -> PyResult<Bound<'py, PyAny>> {
    array(py, v.iter().flat_map(|p| p.to_array()).collect(), &[v.len(), 3])
}

pub fn quats_to_py<'py>(py: Python<'py>, v: &[Quat]) -> PyResult<Bound<'py, PyAny>> {
    array(py, v.iter().flat_map(|q| q.to_array()).collect(), &[v.len(), 4])
}

pub fn mat4s_to_py<'py>(py: Python<'py>, v: &[Mat4]) -> PyResult<Bound<'py, PyAny>> {
    array(py, v.iter().flat_map(|m| m.transpose().to_cols_array()).collect(), &[v.len(), 4, 4])
}
