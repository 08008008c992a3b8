//! The built-in demo creature.

use pyo3::prelude::*;
use pyo3::types::PyBytes;

use super::gltf::PyModel;

/// The demo creature (Mixamo-named biped, tail skinned to the legs, walk
/// clip) as GLB bytes.
#[pyfunction]
fn demo_creature_glb<'py>(py: Python<'py>) -> Bound<'py, PyBytes> {
    let bytes = py.detach(crate::demo::creature_glb);
    PyBytes::new(py, &bytes)
}

/// The demo creature as a loaded model.
#[pyfunction]
fn demo_creature(py: Python<'_>) -> PyModel {
    PyModel::wrap(py.detach(crate::demo::creature))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(demo_creature_glb, m)?)?;
    m.add_function(wrap_pyfunction!(demo_creature, m)?)?;
    Ok(())
}
