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
pub fn to_py_object<'py, T: Serialize + ?Sized>(
    py: Python<'py>,
    value: &T,
) -> PyResult<Bound<'py, PyAny>> {
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

/// Two parameter structs from one set of keywords (`grow_chains` takes
/// detection's and growth's): each name goes to the struct that has it, and
/// a name neither has is an error listing both structs' names.
pub fn from_py_pair<'py, A, B>(
    py: Python<'py>,
    kwargs: Option<&Bound<'py, PyDict>>,
) -> PyResult<(A, B)>
where
    A: DeserializeOwned + Serialize + Default,
    B: DeserializeOwned + Serialize + Default,
{
    let a_names = to_py_object(py, &A::default())?.cast_into::<PyDict>()?;
    let b_names = to_py_object(py, &B::default())?.cast_into::<PyDict>()?;
    let (a, b) = (PyDict::new(py), PyDict::new(py));
    for (k, v) in kwargs.into_iter().flat_map(|d| d.iter()) {
        if a_names.contains(&k)? {
            a.set_item(k, v)?;
        } else if b_names.contains(&k)? {
            b.set_item(k, v)?;
        } else {
            let valid: Vec<String> = a_names
                .keys()
                .iter()
                .chain(b_names.keys().iter())
                .map(|n| format!("`{n}`"))
                .collect();
            let msg = format!("unknown field `{k}`, expected one of {}", valid.join(", "));
            return Err(to_py(CaudalError::param(k.to_string(), msg)));
        }
    }
    Ok((from_py("", Some(a.as_any()))?, from_py("", Some(b.as_any()))?))
}

/// A ParameterError when `kwargs` holds one of `names`: keywords the
/// parameter struct has but this call has no use for (`why` says so).
pub fn refuse_keywords(
    kwargs: Option<&Bound<'_, PyDict>>,
    names: &[&str],
    why: &str,
) -> PyResult<()> {
    for name in names {
        if kwargs.map(|k| k.contains(name)).transpose()?.unwrap_or(false) {
            return Err(to_py(CaudalError::param(*name, why)));
        }
    }
    Ok(())
}
