//! `caudal.find_appendages`, `caudal.grow_chains`,
//! `caudal.weighted_bone_distance` (SPEC T1-T10). Parameters are keyword
//! arguments read through serde into the core's `DetectParams` and
//! `ChainParams` (defaults and names theirs); reports come back as plain
//! dicts (the JSON the CLI writes) with each part's vertex indices added.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use super::convert::{array, indices};
use super::errors::Guarded;
use super::rig::PyRig;
use super::serde_py::{from_py, from_py_pair};
use crate::appendage::{find_appendages as core_find, DetectParams, Report};
use crate::chain::{grow_chains as core_grow, ChainParams};
use crate::measure::weighted_bone_distances;

/// The report as a dict (via its JSON), each part with `vertices` (u32).
fn report_to_py<'py>(py: Python<'py>, report: &Report) -> PyResult<Bound<'py, PyAny>> {
    let json = py.import("json")?;
    let obj = json.call_method1("loads", (report.to_json(),))?;
    let parts = obj.get_item("parts")?.cast_into::<PyList>()?;
    for (p, part) in report.parts.iter().zip(parts.iter()) {
        let d = part.cast_into::<PyDict>()?;
        d.set_item("vertices", array(py, p.vertices.clone(), &[p.vertices.len()])?)?;
    }
    Ok(obj)
}

/// Finds the appendages of `rig` (SPEC T1-T6) without changing anything:
/// a report dict with every part found, rejected ones too.
#[pyfunction]
#[pyo3(signature = (rig, **params))]
fn find_appendages<'py>(
    py: Python<'py>,
    rig: &PyRig,
    params: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyAny>> {
    let params: DetectParams = from_py("", params.map(|p| p.as_any()))?;
    let r = rig.inner.clone();
    let report = py.core(move || core_find(&r, &params))?;
    report_to_py(py, &report)
}

/// Finds the appendages and fixes them: a `Tail_1..Tail_K` + `Tail_End`
/// chain per tail (`rigid=True`: all tail weight on the joint it hangs from),
/// carried parts rigid on their bone, broad parts untouched unless
/// `broad="rigid"`. Takes `find_appendages`' keywords and growth's own.
/// `reserved_names`: names new joints must not take (the other characters'
/// joints and chains of the same file, so that chain names stay unique in
/// it). Returns `(new_rig, report)`; `rig` is not changed.
#[pyfunction]
#[pyo3(signature = (rig, **params))]
fn grow_chains<'py>(
    py: Python<'py>,
    rig: &PyRig,
    params: Option<&Bound<'py, PyDict>>,
) -> PyResult<(PyRig, Bound<'py, PyAny>)> {
    let params = chain_params(py, params)?;
    let r = rig.inner.clone();
    let (out, report) = py.core(move || core_grow(&r, &params))?;
    Ok((PyRig::wrap(out), report_to_py(py, &report)?))
}

/// `grow_chains`' keywords (detection's and growth's own) from a dict, the
/// defaults where absent: what the measuring functions take as `grow=` so
/// they measure the chain a repair wrote, not the default one.
pub(super) fn chain_params<'py>(
    py: Python<'py>,
    params: Option<&Bound<'py, PyDict>>,
) -> PyResult<ChainParams> {
    let (detect, growth): (DetectParams, ChainParams) = from_py_pair(py, params)?;
    Ok(ChainParams { detect, ..growth })
}

/// Weighted bone distance (SPEC T10): per vertex `sum_j w_j d(p, bone_j)`.
/// The mean over `vertices` (all when None), or the per-vertex values with
/// `per_vertex=True`.
#[pyfunction]
#[pyo3(signature = (rig, vertices=None, *, per_vertex=false))]
fn weighted_bone_distance<'py>(
    py: Python<'py>,
    rig: &PyRig,
    vertices: Option<&Bound<'py, PyAny>>,
    per_vertex: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let n = rig.inner.vertex_count();
    let vs =
        vertices.map(|v| indices(v, "vertices", &[None], Some(n))).transpose()?.map(|(v, _)| v);
    let r = rig.inner.clone();
    let d = py.core(move || weighted_bone_distances(&r, vs.as_deref()))?;
    if per_vertex {
        let len = d.len();
        return array(py, d, &[len]);
    }
    let mean =
        if d.is_empty() { 0.0 } else { d.iter().map(|&x| x as f64).sum::<f64>() / d.len() as f64 };
    Ok(mean.into_pyobject(py)?.into_any())
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(find_appendages, m)?)?;
    m.add_function(wrap_pyfunction!(grow_chains, m)?)?;
    m.add_function(wrap_pyfunction!(weighted_bone_distance, m)?)?;
    Ok(())
}
