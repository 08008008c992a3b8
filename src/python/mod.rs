//! The pyo3 layer: numpy <-> core types, the GIL released around core work,
//! core errors mapped to Python exceptions in one place (errors.rs). No
//! numerics live here: every function converts, delegates, converts back.
//!
//! One file per pipeline stage registers its classes and functions.

use pyo3::prelude::*;

mod appendage;
mod bake;
mod convert;
mod demo;
mod errors;
mod fingers;
mod gltf;
mod measure;
mod rig;
mod serde_py;
mod solve;
mod spring;
mod stretch_mesh;

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    crate::guard::install_quiet_hook();
    errors::register(m)?;
    rig::register(m)?;
    gltf::register(m)?;
    demo::register(m)?;
    spring::register(m)?;
    bake::register(m)?;
    measure::register(m)?;
    stretch_mesh::register(m)?;
    appendage::register(m)?;
    fingers::register(m)?;
    solve::register(m)?;
    Ok(())
}
