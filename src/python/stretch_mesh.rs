//! `caudal.stretch_table(..., truth=)`'s whole-mesh view and
//! `caudal.crouch_stretch` (issue 13): core results into dicts.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use super::bake::rate_and_spring;
use super::convert::*;
use super::errors::{Guarded, IntoPy};
use super::gltf::ModelOrCharacter;
use crate::chain::ChainParams;
use crate::measure::stretch::{MeshStretch, RigRows, StretchStats, TailMotion, WorstEdge};
use crate::pipeline::StretchHarness;

pub(crate) fn stats_into(d: &Bound<'_, PyDict>, s: &StretchStats) -> PyResult<()> {
    let fields = super::serde_py::to_py_object(d.py(), s)?;
    d.update(fields.cast::<PyDict>()?.as_mapping())
}

pub(crate) fn motion<'py>(py: Python<'py>, m: &TailMotion) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("amplitude_deg", m.amplitude_deg)?;
    d.set_item("max_deg", m.max_deg)?;
    d.set_item("mean_deg", m.mean_deg)?;
    d.set_item("swing_deg", m.swing_deg)?;
    Ok(d)
}

fn worst<'py>(py: Python<'py>, w: &[WorstEdge]) -> PyResult<Bound<'py, PyList>> {
    let out = PyList::empty(py);
    for e in w {
        let d = PyDict::new(py);
        d.set_item("vertices", (e.vertices.0, e.vertices.1))?;
        d.set_item("ratio", e.ratio)?;
        d.set_item("frame", e.frame)?;
        d.set_item("joint", &e.joint)?;
        out.append(d)?;
    }
    Ok(out)
}

/// One rig's region rows as a list of dicts.
pub(crate) fn rows_list<'py>(
    py: Python<'py>,
    r: &RigRows,
    ratios: bool,
) -> PyResult<Bound<'py, PyList>> {
    let rows = PyList::empty(py);
    for row in &r.rows {
        let x = PyDict::new(py);
        x.set_item("region", &row.region)?;
        x.set_item("edges", row.edges)?;
        stats_into(&x, &row.stats)?;
        x.set_item("torn_edges", row.torn_edges)?;
        x.set_item("worst", worst(py, &row.worst)?)?;
        if ratios {
            x.set_item("ratios", array(py, row.ratios.clone(), &[row.ratios.len()])?)?;
        }
        rows.append(x)?;
    }
    Ok(rows)
}

/// The whole-mesh view as a dict; `ratios` adds every sampled ratio
/// (sorted) to each row.
pub(crate) fn mesh_dict<'py>(
    py: Python<'py>,
    m: &MeshStretch,
    truth: bool,
    ratios: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let rigs = PyList::empty(py);
    for r in &m.rigs {
        let rd = PyDict::new(py);
        rd.set_item("rig", &r.rig)?;
        rd.set_item("rows", rows_list(py, r, ratios)?)?;
        rigs.append(rd)?;
    }
    d.set_item("rigs", rigs)?;
    let t = PyDict::new(py);
    let tb = &m.torn_by_repair;
    t.set_item("edges", tb.edges)?;
    t.set_item("samples", tb.samples)?;
    let by = PyDict::new(py);
    for (name, n) in ["tail", "collar", "body"].iter().zip(tb.by_region) {
        by.set_item(name, n)?;
    }
    t.set_item("by_region", by)?;
    t.set_item("worst", worst(py, &tb.worst)?)?;
    d.set_item("torn_by_repair", t)?;
    let b = PyDict::new(py);
    b.set_item("vertices", m.drift.vertices)?;
    b.set_item("max", m.drift.max)?;
    b.set_item("share_h", m.drift.share_h)?;
    b.set_item("vertex", m.drift.vertex)?;
    b.set_item("frame", m.drift.frame)?;
    d.set_item("body_drift", b)?;
    d.set_item("band_width", m.band_width)?;
    d.set_item("band_width_share_h", m.band_width_share_h)?;
    d.set_item("root_radius", m.root_radius)?;
    d.set_item("seam", m.seam)?;
    d.set_item("truth", truth)?;
    d.set_item("tail_vertices", m.tail_vertices)?;
    d.set_item("motion", motion(py, &m.motion)?)?;
    let low = PyDict::new(py);
    for (name, y) in ["rigid", "rigger", "repaired"].iter().zip(m.tail_lowest) {
        low.set_item(name, y)?;
    }
    d.set_item("tail_lowest", low)?;
    d.set_item("frames", m.frames.clone())?;
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
#[pyfunction]
#[pyo3(signature = (model, *, truth=None, rate=None, spring=None, ratios=false))]
fn crouch_stretch<'py>(
    py: Python<'py>,
    model: ModelOrCharacter<'py>,
    truth: Option<&Bound<'py, PyAny>>,
    rate: Option<f32>,
    spring: Option<&Bound<'py, PyDict>>,
    ratios: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let params = rate_and_spring(py, rate, spring)?;
    let (m, character) = model.resolve()?;
    let n = m.character(character).py_err()?.rig.vertex_count();
    let truth = truth_vertices(truth, n)?;
    let has_truth = truth.is_some();
    let c = py.core(move || {
        let h = StretchHarness::new(&m, character, &ChainParams::default(), &params)?;
        h.crouch(truth.as_deref())
    })?;
    let d = PyDict::new(py);
    d.set_item("depth", c.depth)?;
    d.set_item("floor", c.floor)?;
    d.set_item("mesh", mesh_dict(py, &c.mesh, has_truth, ratios)?)?;
    Ok(d)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(crouch_stretch, m)?)?;
    Ok(())
}
