//! `caudal.TailSpring`, `caudal.step_springs` and `caudal.simulate`: the
//! tail spring chain (SPEC S). Parameters are keyword arguments with the
//! core's defaults; matrices are numpy `[4, 4]` row-major with column
//! vectors, quaternions `x, y, z, w`.

use glam::{Mat4, Quat};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use super::convert::*;
use super::errors::Guarded;
use super::errors::IntoPy;
use super::rig::{PyClip, PyRig};
use super::serde_py::{from_py, to_py_object};
use crate::error::CaudalError;
use crate::rig::Rig;
use crate::spring::{
    output_offsets, simulate as simulate_core, step_many, SpringParams, TailChain, TailSpring,
};

/// Parameters from keyword arguments (or a dict of overrides) with the
/// core's defaults; errors name the field as `{prefix}{name}` (bake takes
/// the settings as a `spring=` dict: `spring.carry_deg`). Shared by every
/// binding that takes spring settings.
pub(super) fn params_named(
    kwargs: Option<&Bound<'_, PyDict>>,
    prefix: &str,
) -> PyResult<SpringParams> {
    let p: SpringParams = from_py(prefix, kwargs.map(|k| k.as_any()))?;
    // Named as passed: `carry_deg` to TailSpring, `spring.carry_deg` to bake.
    p.validate()
        .map_err(|e| match prefix.strip_suffix('.') {
            Some(parent) => e.within(parent),
            None => e,
        })
        .py_err()?;
    Ok(p)
}

/// The chain from None (find Tail_1..Tail_K and Tail_End by name) or a list
/// of joint names or indices, root first (a trailing weightless joint is the
/// end helper).
pub(super) fn chain_from(rig: &Rig, chain: Option<&Bound<'_, PyAny>>) -> PyResult<TailChain> {
    let Some(c) = chain.filter(|c| !c.is_none()) else {
        return super::errors::guarded(|| TailChain::find(rig));
    };
    let list = c.cast::<PyList>().map_err(|_| {
        super::errors::to_py(CaudalError::shape(
            "chain",
            "expected a list of joint names or indices",
        ))
    })?;
    let mut joints = Vec::with_capacity(list.len());
    for (i, item) in list.iter().enumerate() {
        if let Ok(name) = item.extract::<String>() {
            joints.push(rig.require_joint("chain", &name).py_err()?);
        } else if let Ok(j) = item.extract::<i64>() {
            if j < 0 || j as usize >= rig.joint_count() {
                return Err(CaudalError::IndexOutOfRange {
                    field: "chain".into(),
                    index: i,
                    value: j,
                    bound: rig.joint_count(),
                })
                .py_err();
            }
            joints.push(j as usize);
        } else {
            return Err(CaudalError::shape(
                "chain",
                format!("item {i} is neither a joint name nor an index"),
            ))
            .py_err();
        }
    }
    super::errors::guarded(|| TailChain::from_joints(rig, &joints))
}

fn one_mat4(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<Mat4> {
    let (d, _) = f32_flat(obj, field, &[Some(4), Some(4)])?;
    Ok(Mat4::from_cols_slice(&d).transpose())
}

/// One tail chain with its spring state. `step(parent_world, dt)` takes the
/// world matrix of the chain's parent (the pelvis) and returns the local
/// rotations of the tail bones, root first, as f32[K, 4] (x, y, z, w).
#[pyclass(name = "TailSpring", module = "caudal._core")]
pub struct PyTailSpring {
    inner: TailSpring,
    names: Vec<String>,
    end: Option<String>,
    anchor: String,
}

#[pymethods]
impl PyTailSpring {
    #[new]
    #[pyo3(signature = (rig, chain=None, **params))]
    fn new(
        rig: &PyRig,
        chain: Option<&Bound<'_, PyAny>>,
        params: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let p = params_named(params, "")?;
        let chain = chain_from(&rig.inner, chain)?;
        let names = rig.inner.joint_names();
        let bones = chain.bones.iter().map(|&j| names[j].clone()).collect();
        let end = chain.end.map(|j| names[j].clone());
        let anchor = names[chain.anchor].clone();
        let inner = super::errors::guarded(|| TailSpring::new(&rig.inner, chain, p))?;
        Ok(PyTailSpring { inner, names: bones, end, anchor })
    }

    /// Advances by `dt` seconds; the first call after construction or
    /// `reset()` only places the tail at rest under `parent_world`.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        parent_world: &Bound<'py, PyAny>,
        dt: f64,
    ) -> PyResult<Bound<'py, PyAny>> {
        let m = one_mat4(parent_world, "parent_world")?;
        let inner = &mut self.inner;
        let out = py.core(move || inner.step(m, dt as f32).map(|o| o.to_vec()))?;
        quats_to_py(py, &out)
    }

    /// Forgets all motion: the next step starts at rest.
    fn reset(&mut self) {
        self.inner.reset();
    }

    /// Starts at rest under `parent_world` now; returns the rest rotations.
    fn reset_to<'py>(
        &mut self,
        py: Python<'py>,
        parent_world: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let m = one_mat4(parent_world, "parent_world")?;
        let inner = &mut self.inner;
        let out = super::errors::guarded(|| inner.reset_to(m).map(|q| q.to_vec()))?;
        quats_to_py(py, &out)
    }

    /// Simulated bones, root first.
    #[getter]
    fn joints(&self) -> Vec<String> {
        self.names.clone()
    }
    /// The end helper (Tail_End) or None.
    #[getter]
    fn end(&self) -> Option<String> {
        self.end.clone()
    }
    /// The joint whose world matrix `step` takes (the pelvis).
    #[getter]
    fn parent(&self) -> String {
        self.anchor.clone()
    }
    /// f32[K, 4]: the last output.
    #[getter]
    fn rotations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        quats_to_py(py, self.inner.output())
    }
    /// f32[K, 4]: local rotations at rest (carry and rest arc, no motion).
    #[getter]
    fn rest_rotations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        quats_to_py(py, &self.inner.rest_locals())
    }
    /// f32[K, 3]: world tip of every link (last substep).
    #[getter]
    fn particles<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        vec3s_to_py(py, self.inner.particles())
    }
    /// f32[K, 3]: world velocity of every tip (last substep).
    #[getter]
    fn velocities<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        vec3s_to_py(py, self.inner.velocities())
    }
    /// f32[K, 4]: each joint's bend beyond its rest direction, hips frame.
    #[getter]
    fn bends<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        quats_to_py(py, self.inner.bends())
    }
    /// list[bool]: which links touched the floor in the last substep.
    #[getter]
    fn grounded(&self) -> Vec<bool> {
        self.inner.grounded().to_vec()
    }
    /// f32[K]: link frequencies in Hz after the length scaling.
    #[getter]
    fn frequencies<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let f = self.inner.frequencies();
        let n = f.len();
        array(py, f, &[n])
    }
    /// f32[K]: link lengths in the parent's local units.
    #[getter]
    fn lengths<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let l = self.inner.lengths();
        let n = l.len();
        array(py, l, &[n])
    }
    /// World units per metre used for gravity, floor, clearance, teleport.
    #[getter]
    fn units_per_metre(&self) -> f32 {
        self.inner.units_per_metre()
    }
    /// How many times a jump of the parent restarted the chain.
    #[getter]
    fn teleports(&self) -> u64 {
        self.inner.teleports()
    }
    /// This chain's bend capacity κ: carry and stop in force are the
    /// parameters' times this (1 for a slender tail).
    #[getter]
    fn bend_capacity(&self) -> f32 {
        self.inner.bend_capacity()
    }
    /// The parameters in force, as a dict of the keyword names.
    fn params<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py_object(py, self.inner.params())
    }
    fn __len__(&self) -> usize {
        self.inner.len()
    }
    fn __repr__(&self) -> String {
        format!(
            "TailSpring({} bones {:?}..{:?} under {:?})",
            self.names.len(),
            self.names[0],
            self.names[self.names.len() - 1],
            self.anchor
        )
    }
}

/// Steps many springs (characters) at once on all cores: `parent_worlds`
/// f32[S, 4, 4], one per spring. Returns the rotations of all chains
/// concatenated in order, f32[sum K, 4]. Deterministic on any thread count.
#[pyfunction]
fn step_springs<'py>(
    py: Python<'py>,
    springs: Vec<PyRefMut<'py, PyTailSpring>>,
    parent_worlds: &Bound<'py, PyAny>,
    dt: f64,
) -> PyResult<Bound<'py, PyAny>> {
    let worlds = mat4s(parent_worlds, "parent_worlds")?;
    let mut springs = springs;
    let mut refs: Vec<&mut TailSpring> = springs.iter_mut().map(|s| &mut s.inner).collect();
    let total = *output_offsets(&refs).last().unwrap_or(&0);
    let out = py.core(|| -> crate::error::Result<Vec<Quat>> {
        let mut out = vec![Quat::IDENTITY; total];
        step_many(&mut refs, &worlds, dt as f32, &mut out)?;
        Ok(out)
    })?;
    quats_to_py(py, &out)
}

/// Plays `clip` through the rig and the spring from rest: f32[F, K, 4] local
/// rotations of the tail bones (root first; `TailSpring(rig, chain).joints`
/// names them) at every clip frame.
#[pyfunction]
#[pyo3(signature = (rig, clip, chain=None, **params))]
fn simulate<'py>(
    py: Python<'py>,
    rig: &PyRig,
    clip: &PyClip,
    chain: Option<&Bound<'py, PyAny>>,
    params: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyAny>> {
    let p = params_named(params, "")?;
    let chain = chain_from(&rig.inner, chain)?;
    let (r, c) = (rig.inner.clone(), clip.inner.clone());
    let k = chain.bones.len();
    let track = py.core(move || simulate_core(&r, &c, &chain, &p))?;
    let frames = track.frame_count();
    array(py, track.rotations.iter().flat_map(|q| q.to_array()).collect(), &[frames, k, 4])
}

/// The spring's default parameters (SPEC S1-S8), as a dict of the keyword
/// names `TailSpring`, `simulate` and `bake(spring=...)` take.
#[pyfunction]
fn spring_defaults(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    to_py_object(py, &SpringParams::default())
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyTailSpring>()?;
    m.add_function(wrap_pyfunction!(step_springs, m)?)?;
    m.add_function(wrap_pyfunction!(simulate, m)?)?;
    m.add_function(wrap_pyfunction!(spring_defaults, m)?)?;
    Ok(())
}
