//! The built-in demo creature and the generated corpus.

use pyo3::prelude::*;
use pyo3::types::PyBytes;

use super::errors::{Guarded, IntoPy};
use super::gltf::PyModel;
use crate::demo::corpus::{self, FailureClass};

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

/// A generated creature of the corpus: (degraded GLB, artist GLB, truth
/// dict). `force` imposes a failure class (see `corpus_classes()`).
#[pyfunction]
#[pyo3(signature = (seed, force=None))]
fn generated_creature<'py>(
    py: Python<'py>,
    seed: u64,
    force: Option<&str>,
) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>, Bound<'py, PyAny>)> {
    let class = force.map(|f| FailureClass::named("force", f)).transpose().py_err()?;
    let case = py.core(|| {
        Ok(match class {
            Some(c) => corpus::case_forced(seed, c),
            None => corpus::case(seed),
        })
    })?;
    let truth = py.import("json")?.call_method1("loads", (case.truth.to_json(),))?;
    Ok((PyBytes::new(py, &case.glb), PyBytes::new(py, &case.artist_glb), truth))
}

/// The corpus' failure classes, in the order seeds cycle through them.
#[pyfunction]
fn corpus_classes() -> Vec<&'static str> {
    FailureClass::ALL.iter().map(|c| c.name()).collect()
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(demo_creature_glb, m)?)?;
    m.add_function(wrap_pyfunction!(demo_creature, m)?)?;
    m.add_function(wrap_pyfunction!(generated_creature, m)?)?;
    m.add_function(wrap_pyfunction!(corpus_classes, m)?)?;
    Ok(())
}
