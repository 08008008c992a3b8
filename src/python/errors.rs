//! Every core error variant maps to exactly one Python exception here; the
//! match is exhaustive, so a new variant forces a decision. Package
//! exceptions subclass ValueError; I/O errors become the builtin OSError
//! subclasses a Python user expects.

use pyo3::create_exception;
use pyo3::exceptions::{PyFileNotFoundError, PyOSError, PyPermissionError, PyValueError};
use pyo3::prelude::*;

use crate::error::CaudalError as CoreError;

create_exception!(
    caudal,
    CaudalError,
    PyValueError,
    "Base class of caudal's errors (a ValueError)."
);
create_exception!(
    caudal,
    RigError,
    CaudalError,
    "Malformed rig input: shapes, NaN, indices, weights, parents, names."
);
create_exception!(caudal, UnknownJointError, CaudalError, "A joint name the rig does not have.");
create_exception!(caudal, ParameterError, CaudalError, "A parameter outside its documented range.");
create_exception!(caudal, GltfError, CaudalError, "A malformed or unsupported glTF file.");
create_exception!(
    caudal,
    NotFoundError,
    CaudalError,
    "A named clip, part or role that is not present."
);

pub fn to_py(e: CoreError) -> PyErr {
    let msg = e.to_string();
    match e {
        CoreError::Shape { .. }
        | CoreError::NonFinite { .. }
        | CoreError::IndexOutOfRange { .. }
        | CoreError::Weights { .. }
        | CoreError::CyclicParents { .. }
        | CoreError::DuplicateName { .. }
        | CoreError::EmptyMesh { .. } => RigError::new_err(msg),
        CoreError::UnknownJoint { .. } => UnknownJointError::new_err(msg),
        CoreError::Parameter { .. } => ParameterError::new_err(msg),
        CoreError::Gltf { .. } => GltfError::new_err(msg),
        CoreError::NotFound { .. } => NotFoundError::new_err(msg),
        CoreError::Internal { .. } => CaudalError::new_err(msg),
        CoreError::Io { source, .. } => match source.kind() {
            std::io::ErrorKind::NotFound => PyFileNotFoundError::new_err(msg),
            std::io::ErrorKind::PermissionDenied => PyPermissionError::new_err(msg),
            _ => PyOSError::new_err(msg),
        },
    }
}

/// Core work behind the boundary: the GIL released, a panic caught and
/// turned into a core error ([`crate::guard`]), core errors mapped.
pub trait Guarded {
    fn core<T: Send, F: FnOnce() -> crate::error::Result<T> + Send>(self, f: F) -> PyResult<T>;
}

impl Guarded for Python<'_> {
    fn core<T: Send, F: FnOnce() -> crate::error::Result<T> + Send>(self, f: F) -> PyResult<T> {
        self.detach(move || crate::guard::catch(f)).map_err(to_py)
    }
}

/// Core work that keeps the GIL (it touches Python objects), guarded the same way.
pub fn guarded<T>(f: impl FnOnce() -> crate::error::Result<T>) -> PyResult<T> {
    crate::guard::catch(f).map_err(to_py)
}

/// `?`-friendly conversion for core results.
pub trait IntoPy<T> {
    fn py_err(self) -> PyResult<T>;
}

impl<T> IntoPy<T> for crate::error::Result<T> {
    fn py_err(self) -> PyResult<T> {
        self.map_err(to_py)
    }
}

/// Panics inside the guard, for the tests of the guard itself: a panic
/// must come back as a `CaudalError`, never pyo3's `PanicException`.
#[pyfunction]
fn _selftest_panic(py: Python<'_>, message: String) -> PyResult<()> {
    py.core(move || -> crate::error::Result<()> { panic!("{message}") })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_function(wrap_pyfunction!(_selftest_panic, m)?)?;
    m.add("CaudalError", py.get_type::<CaudalError>())?;
    m.add("RigError", py.get_type::<RigError>())?;
    m.add("UnknownJointError", py.get_type::<UnknownJointError>())?;
    m.add("ParameterError", py.get_type::<ParameterError>())?;
    m.add("GltfError", py.get_type::<GltfError>())?;
    m.add("NotFoundError", py.get_type::<NotFoundError>())?;
    Ok(())
}
