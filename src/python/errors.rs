//! Every core error variant maps to exactly one Python exception here; the
//! match is exhaustive, so a new variant forces a decision. Package
//! exceptions subclass ValueError; I/O errors become the builtin OSError
//! subclasses a Python user expects.

use pyo3::create_exception;
use pyo3::exceptions::{PyFileNotFoundError, PyOSError, PyPermissionError, PyValueError};
use pyo3::prelude::*;

use crate::error::CaudalError;

create_exception!(caudal, CaudalError_, PyValueError, "Base class of caudal's errors (a ValueError).");
create_exception!(caudal, RigError, CaudalError_, "Malformed rig input: shapes, NaN, indices, weights, parents, names.");
create_exception!(caudal, UnknownJointError, CaudalError_, "A joint name the rig does not have.");
create_exception!(caudal, ParameterError, CaudalError_, "A parameter outside its documented range.");
create_exception!(caudal, GltfError, CaudalError_, "A malformed or unsupported glTF file.");
create_exception!(caudal, NotFoundError, CaudalError_, "A named clip, part or role that is not present.");

pub fn to_py(e: CaudalError) -> PyErr {
    let msg = e.to_string();
    match e {
        CaudalError::Shape { .. }
        | CaudalError::NonFinite { .. }
        | CaudalError::IndexOutOfRange { .. }
        | CaudalError::Weights { .. }
        | CaudalError::CyclicParents { .. }
        | CaudalError::DuplicateName { .. }
        | CaudalError::EmptyMesh { .. } => RigError::new_err(msg),
        CaudalError::UnknownJoint { .. } => UnknownJointError::new_err(msg),
        CaudalError::Parameter { .. } => ParameterError::new_err(msg),
        CaudalError::Gltf { .. } => GltfError::new_err(msg),
        CaudalError::NotFound { .. } => NotFoundError::new_err(msg),
        CaudalError::Io { source, .. } => match source.kind() {
            std::io::ErrorKind::NotFound => PyFileNotFoundError::new_err(msg),
            std::io::ErrorKind::PermissionDenied => PyPermissionError::new_err(msg),
            _ => PyOSError::new_err(msg),
        },
    }
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

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("CaudalError", py.get_type::<CaudalError_>())?;
    m.add("RigError", py.get_type::<RigError>())?;
    m.add("UnknownJointError", py.get_type::<UnknownJointError>())?;
    m.add("ParameterError", py.get_type::<ParameterError>())?;
    m.add("GltfError", py.get_type::<GltfError>())?;
    m.add("NotFoundError", py.get_type::<NotFoundError>())?;
    Ok(())
}
