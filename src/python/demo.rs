//! The built-in demo creature.

use pyo3::prelude::*;
use pyo3::types::PyBytes;

use super::errors::Guarded;
use super::gltf::PyModel;

/// The demo creature (Mixamo-named biped, tail skinned to the legs, walk
/// clip) as GLB bytes.
#[pyfunction]
fn demo_creature_glb<'py>(py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
    let bytes = py.core(|| Ok(crate::demo::creature_glb()))?;
    Ok(PyBytes::new(py, &bytes))
}

/// The demo creature as a loaded model.
#[pyfunction]
fn demo_creature(py: Python<'_>) -> PyResult<PyModel> {
    Ok(PyModel::wrap(py.core(|| Ok(crate::demo::creature()))?))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(demo_creature_glb, m)?)?;
    m.add_function(wrap_pyfunction!(demo_creature, m)?)?;
    Ok(())
}
