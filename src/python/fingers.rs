//! `caudal.merge_fingers`: the rig with its finger weights on the hands
//! (the core's `Rig::merge_fingers`), and which finger went to which hand.

use pyo3::prelude::*;

use super::errors::Guarded;
use super::rig::PyRig;

/// `(new_rig, merges)`: a rig whose finger joints' skin weights belong to
/// their hands (the joints stay, weightless), and `(finger, hand)` joint
/// name pairs in joint order. `rig` is not changed.
#[pyfunction]
fn merge_fingers(py: Python<'_>, rig: &PyRig) -> PyResult<(PyRig, Vec<(String, String)>)> {
    let r = rig.inner.clone();
    let (out, merges) = py.core(move || r.merge_fingers())?;
    let names = rig.inner.joint_names();
    let pairs = merges.iter().map(|m| (names[m.finger].clone(), names[m.hand].clone())).collect();
    Ok((PyRig::wrap(out), pairs))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(merge_fingers, m)?)?;
    Ok(())
}
