//! Core structs to and from Python objects through serde (pythonize): the
//! one way parameters come in (keyword arguments, a settings dict) and
//! plain results go out (dicts of the struct's field names).

use pyo3::prelude::*;
use pyo3::types::PyDict;
use serde::de::DeserializeOwned;
use serde::Serialize;

use super::errors::to_py;
use crate::error::CaudalError;

/// `T` from `obj` (a dict of field names; None: `T::default()`). A wrong
/// name or type is a ParameterError naming the field as `{prefix}{path}`
/// (`spring.carry_deg`); an unknown name lists the valid ones.
pub fn from_py<T: DeserializeOwned + Default>(
    prefix: &str,
    obj: Option<&Bound<'_, PyAny>>,
) -> PyResult<T> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else { return Ok(T::default()) };
    let plain = plain(obj)?;
    // A keyword given as None takes its default, as an absent one does.
    if let Ok(d) = plain.cast::<PyDict>() {
        for (k, v) in d.copy()?.iter() {
            if v.is_none() {
                d.del_item(k)?;
            }
        }
    }
    let mut de = pythonize::Depythonizer::from_object(&plain);
    serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = e.path().to_string();
        let field = match path.as_str() {
            "." => prefix.trim_end_matches('.').to_string(),
            p => format!("{prefix}{p}"),
        };
        to_py(CaudalError::param(field, e.into_inner().to_string()))
    })
}

/// `value` as Python objects: a struct becomes a dict of its field names.
pub fn to_py_object<'py, T: Serialize>(py: Python<'py>, value: &T) -> PyResult<Bound<'py, PyAny>> {
    Ok(pythonize::pythonize(py, value)?)
}

/// numpy arrays and scalars as the lists and numbers they hold (serde reads
/// Python's own types), inside dicts too.
fn plain<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    if let Ok(d) = obj.cast::<PyDict>() {
        let out = PyDict::new(obj.py());
        for (k, v) in d.iter() {
            out.set_item(k, plain(&v)?)?;
        }
        return Ok(out.into_any());
    }
    if obj.hasattr("dtype")? && obj.hasattr("tolist")? {
        return obj.call_method0("tolist");
    }
    Ok(obj.clone())
}

/// `kwargs` split into the names `T` has (its serde names) and the rest.
pub fn split_keywords<'py, T: Serialize + Default>(
    py: Python<'py>,
    kwargs: Option<&Bound<'py, PyDict>>,
) -> PyResult<(Bound<'py, PyDict>, Bound<'py, PyDict>)> {
    let (mine, rest) = (PyDict::new(py), PyDict::new(py));
    let names = to_py_object(py, &T::default())?.cast_into::<PyDict>()?;
    for (k, v) in kwargs.into_iter().flat_map(|d| d.iter()) {
        let into = if names.contains(&k)? { &mine } else { &rest };
        into.set_item(k, v)?;
    }
    Ok((mine, rest))
}
