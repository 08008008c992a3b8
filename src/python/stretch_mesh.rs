//! `caudal.stretch_table(..., truth=)`'s whole-mesh view and
//! `caudal.crouch_stretch` (issue 13): core results into dicts.

use pyo3::exceptions::PyKeyError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use super::bake::rate_and_spring;
use super::convert::*;
use super::errors::{Guarded, IntoPy};
use super::gltf::ModelOrCharacter;
use super::serde_py::to_py_object;
use crate::measure::stretch::{MeshStretch, RegionRow};
use crate::pipeline::StretchHarness;

/// One rig's region rows as a list of dicts; `ratios` adds every sampled
/// ratio (sorted) to each row, as an array.
pub(crate) fn rows_list<'py>(
    py: Python<'py>,
    rows: &[RegionRow],
    ratios: bool,
) -> PyResult<Bound<'py, PyList>> {
    let out = to_py_object(py, rows)?.cast_into::<PyList>()?;
    if ratios {
        for (row, d) in rows.iter().zip(out.iter()) {
            d.set_item("ratios", array(py, row.ratios.clone(), &[row.ratios.len()])?)?;
        }
    }
    Ok(out)
}

/// The whole-mesh view as a dict (the core's field names; `truth`: whether
/// the tail rows follow a true tail); `ratios` as in [`rows_list`].
pub(crate) fn mesh_dict<'py>(
    py: Python<'py>,
    m: &MeshStretch,
    truth: bool,
    ratios: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let d = to_py_object(py, m)?.cast_into::<PyDict>()?;
    d.set_item("truth", truth)?;
    let rigs = d.get_item("rigs")?.ok_or_else(|| PyKeyError::new_err("rigs"))?;
    for (r, rd) in m.rigs.iter().zip(rigs.try_iter()?) {
        rd?.set_item("rows", rows_list(py, &r.rows, ratios)?)?;
    }
    Ok(d)
}

/// Vertex ids of the true tail, checked against the model's vertex count.
pub(crate) fn truth_vertices(
    truth: Option<&Bound<'_, PyAny>>,
    vertex_count: usize,
) -> PyResult<Option<Vec<u32>>> {
    truth.map(|t| indices(t, "truth", &[None], Some(vertex_count)).map(|(v, _)| v)).transpose()
}

/// The whole-mesh view of a generated crouch (a quarter of the height, the
/// tail pressing on the floor), baked as a one-shot, every frame sampled.
/// `grow`: `grow_chains`' keywords for the repair measured (as `stretch_table`).
#[pyfunction]
#[pyo3(signature = (model, *, truth=None, rate=None, spring=None, ratios=false, grow=None))]
fn crouch_stretch<'py>(
    py: Python<'py>,
    model: ModelOrCharacter<'py>,
    truth: Option<&Bound<'py, PyAny>>,
    rate: Option<f32>,
    spring: Option<&Bound<'py, PyDict>>,
    ratios: bool,
    grow: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    let params = rate_and_spring(py, rate, spring)?;
    let growth = super::appendage::chain_params(py, grow)?;
    let (m, character) = model.resolve()?;
    let n = m.character(character).py_err()?.rig.vertex_count();
    let truth = truth_vertices(truth, n)?;
    let has_truth = truth.is_some();
    let c = py.core(move || {
        let h = StretchHarness::new(&m, character, &growth, &params)?;
        h.crouch(truth.as_deref())
    })?;
    let d = to_py_object(py, &c)?.cast_into::<PyDict>()?;
    d.set_item("mesh", mesh_dict(py, &c.mesh, has_truth, ratios)?)?;
    Ok(d)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(crouch_stretch, m)?)?;
    Ok(())
}
