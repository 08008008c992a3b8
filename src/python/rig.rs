//! `caudal.Rig`, `caudal.Clip` and skinning evaluation.

use std::sync::Arc;

use glam::Vec3;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use super::convert::*;
use super::errors::Guarded;
use super::errors::IntoPy;
use crate::error::CaudalError;
use crate::rig::{
    skin_frames, skin_matrices, skin_vertices, world_matrices, Clip, Influences, JointRoles, Rig,
    RigParts, RoleOverrides, RoleRule, Trs,
};

/// A validated rig table in bind space (immutable; every operation returns
/// new data): `Rig(vertices f32[N, 3], triangles [M, 3], skin_joints [N, K],
/// skin_weights [N, K], joint_names, parents [J] (-1 for a root), *,
/// bind_matrices [J, 4, 4] or inverse_bind_matrices [J, 4, 4] (one of the
/// two), rest_translations / rest_rotations / rest_scales (default: the bind
/// pose), normalize=False)`. Errors name the argument at fault.
#[pyclass(name = "Rig", module = "caudal._core", frozen)]
pub struct PyRig {
    pub inner: Arc<Rig>,
}

impl PyRig {
    pub fn wrap(rig: Rig) -> Self {
        PyRig { inner: Arc::new(rig) }
    }
}

#[allow(clippy::too_many_arguments)]
#[pymethods]
impl PyRig {
    #[new]
    #[pyo3(signature = (vertices, triangles, skin_joints, skin_weights, joint_names, parents, *, bind_matrices=None, inverse_bind_matrices=None, rest_translations=None, rest_rotations=None, rest_scales=None, normalize=false))]
    fn new(
        py: Python<'_>,
        vertices: &Bound<'_, PyAny>,
        triangles: Option<&Bound<'_, PyAny>>,
        skin_joints: &Bound<'_, PyAny>,
        skin_weights: &Bound<'_, PyAny>,
        joint_names: Vec<String>,
        parents: &Bound<'_, PyAny>,
        bind_matrices: Option<&Bound<'_, PyAny>>,
        inverse_bind_matrices: Option<&Bound<'_, PyAny>>,
        rest_translations: Option<&Bound<'_, PyAny>>,
        rest_rotations: Option<&Bound<'_, PyAny>>,
        rest_scales: Option<&Bound<'_, PyAny>>,
        normalize: bool,
    ) -> PyResult<Self> {
        let verts = vec3s(vertices, "vertices")?;
        let n = verts.len();
        // None: a point cloud (skinning and the surface solve need no triangles).
        let tris = match triangles {
            Some(t) => indices(t, "triangles", &[None, Some(3)], None)?.0,
            None => Vec::new(),
        };
        let (wj, jshape) = indices(skin_joints, "skin_joints", &[Some(n), None], None)?;
        let (ww, wshape) = f32_flat(skin_weights, "skin_weights", &[Some(n), None])?;
        if jshape != wshape {
            return Err(CaudalError::shape(
                "skin_weights",
                format!("shape {wshape:?} differs from skin_joints {jshape:?}"),
            ))
            .py_err();
        }
        let jn = joint_names.len();
        let (par, _) = i64_flat(parents, "parents", &[Some(jn)])?;
        let mut parent_list = Vec::with_capacity(jn);
        for (i, &p) in par.iter().enumerate() {
            parent_list.push(match p {
                -1 => None,
                p if p >= 0 && (p as usize) < jn => Some(p as usize),
                p => {
                    return Err(CaudalError::IndexOutOfRange {
                        field: "parents".into(),
                        index: i,
                        value: p,
                        bound: jn,
                    })
                    .py_err()
                }
            });
        }
        let bind_world = bind_matrices.map(|m| mat4s(m, "bind_matrices")).transpose()?;
        let inverse_bind =
            inverse_bind_matrices.map(|m| mat4s(m, "inverse_bind_matrices")).transpose()?;
        let rest_local = match (rest_translations, rest_rotations, rest_scales) {
            (None, None, None) => None,
            (t, r, s) => {
                let t = t
                    .map(|t| vec3s(t, "rest_translations"))
                    .transpose()?
                    .unwrap_or_else(|| vec![Vec3::ZERO; jn]);
                let r = r
                    .map(|r| quats(r, "rest_rotations"))
                    .transpose()?
                    .unwrap_or_else(|| vec![glam::Quat::IDENTITY; jn]);
                let s = s
                    .map(|s| vec3s(s, "rest_scales"))
                    .transpose()?
                    .unwrap_or_else(|| vec![Vec3::ONE; jn]);
                if t.len() != jn || r.len() != jn || s.len() != jn {
                    return Err(CaudalError::shape(
                        "rest_translations",
                        format!("rest pose arrays must have {jn} rows"),
                    ))
                    .py_err();
                }
                Some((0..jn).map(|j| Trs::new(t[j], r[j], s[j])).collect())
            }
        };
        let k = jshape.get(1).copied().unwrap_or(0);
        let parts = RigParts {
            vertices: verts,
            triangles: tris.chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect(),
            influences: Influences::from_padded(&wj, &ww, k),
            joint_names,
            parents: parent_list,
            bind_world,
            inverse_bind,
            rest_local,
            normalize,
        };
        let rig = py.core(|| Rig::new(parts))?;
        Ok(PyRig::wrap(rig))
    }

    /// f32[N, 3] bind-space positions.
    #[getter]
    fn vertices<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        vec3s_to_py(py, self.inner.vertices())
    }
    /// u32[M, 3].
    #[getter]
    fn triangles<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        array(
            py,
            self.inner.triangles().iter().flatten().copied().collect(),
            &[self.inner.triangles().len(), 3],
        )
    }
    /// u32[N, K] joint indices, heaviest first, K = the largest influence count.
    #[getter]
    fn skin_joints<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let k = self.inner.influences().max_count().max(1);
        let (j, _) = self.inner.influences().to_padded(k);
        array(py, j, &[self.inner.vertex_count(), k])
    }
    /// f32[N, K] weights matching `skin_joints` (0 = unused slot).
    #[getter]
    fn skin_weights<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let k = self.inner.influences().max_count().max(1);
        let (_, w) = self.inner.influences().to_padded(k);
        array(py, w, &[self.inner.vertex_count(), k])
    }
    /// Compressed rows: (offsets u32[N+1], joints u32[E], weights f32[E]).
    fn influences<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let i = self.inner.influences();
        Ok((
            array(py, i.offsets.clone(), &[i.offsets.len()])?,
            array(py, i.joints.clone(), &[i.joints.len()])?,
            array(py, i.weights.clone(), &[i.weights.len()])?,
        ))
    }
    /// Joint names, in joint index order (unique).
    #[getter]
    fn joint_names(&self) -> Vec<String> {
        self.inner.joint_names().to_vec()
    }
    /// i32[J], -1 for roots.
    #[getter]
    fn parents<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let p: Vec<i32> = self.inner.parents().iter().map(|p| p.map_or(-1, |p| p as i32)).collect();
        array(py, p, &[self.inner.joint_count()])
    }
    /// f32[J, 4, 4] joint world matrices at the bind pose (row-major, column vectors).
    #[getter]
    fn bind_matrices<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        mat4s_to_py(py, self.inner.bind_world())
    }
    /// f32[J, 4, 4] inverse bind matrices (row-major): mesh space to joint space.
    #[getter]
    fn inverse_bind_matrices<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        mat4s_to_py(py, self.inner.inverse_bind())
    }
    /// f32[J, 3] rest (node) pose translations.
    #[getter]
    fn rest_translations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        vec3s_to_py(py, &self.inner.rest_local().iter().map(|t| t.translation).collect::<Vec<_>>())
    }
    /// f32[J, 4] rest pose rotations as quaternions x, y, z, w.
    #[getter]
    fn rest_rotations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        quats_to_py(py, &self.inner.rest_local().iter().map(|t| t.rotation).collect::<Vec<_>>())
    }
    /// f32[J, 3] rest pose scales.
    #[getter]
    fn rest_scales<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        vec3s_to_py(py, &self.inner.rest_local().iter().map(|t| t.scale).collect::<Vec<_>>())
    }
    /// N, the number of vertices.
    #[getter]
    fn vertex_count(&self) -> usize {
        self.inner.vertex_count()
    }
    /// J, the number of joints.
    #[getter]
    fn joint_count(&self) -> usize {
        self.inner.joint_count()
    }
    /// Model height H: the bind-pose extent along up (Y).
    #[getter]
    fn height(&self) -> f32 {
        self.inner.height()
    }
    /// Bind-pose bounding-box diagonal.
    #[getter]
    fn diagonal(&self) -> f32 {
        self.inner.diagonal()
    }

    /// Joint roles by name patterns with a topological fallback. `overrides`
    /// maps a role (pelvis, neck, head, thigh_l, thigh_r, shin_l, shin_r,
    /// spine) to joint names.
    #[pyo3(signature = (overrides=None))]
    fn roles<'py>(
        &self,
        py: Python<'py>,
        overrides: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let ov: RoleOverrides =
            super::serde_py::from_py("overrides.", overrides.map(|o| o.as_any()))?;
        let roles = super::errors::guarded(|| JointRoles::find(&self.inner, &ov))?;
        roles_to_py(py, &self.inner, &roles)
    }

    fn __repr__(&self) -> String {
        format!(
            "Rig({} vertices, {} triangles, {} joints, H={:.4})",
            self.inner.vertex_count(),
            self.inner.triangles().len(),
            self.inner.joint_count(),
            self.inner.height()
        )
    }
}

pub fn roles_to_py<'py>(
    py: Python<'py>,
    rig: &Rig,
    roles: &JointRoles,
) -> PyResult<Bound<'py, PyDict>> {
    let names = rig.joint_names();
    let name = |j: Option<usize>| j.map(|j| names[j].clone());
    let d = PyDict::new(py);
    d.set_item("pelvis", name(roles.pelvis))?;
    d.set_item("spine", roles.spine.iter().map(|&j| names[j].clone()).collect::<Vec<_>>())?;
    d.set_item("neck", name(roles.neck))?;
    d.set_item("head", name(roles.head))?;
    d.set_item("thighs", [name(roles.thighs[0]), name(roles.thighs[1])])?;
    d.set_item("shins", [name(roles.shins[0]), name(roles.shins[1])])?;
    let sources = PyList::empty(py);
    for s in &roles.sources {
        let e = PyDict::new(py);
        e.set_item("role", &s.role)?;
        e.set_item("joint", &names[s.joint])?;
        let (rule, detail) = match &s.rule {
            RoleRule::Override => ("override", String::new()),
            RoleRule::Name(d) => ("name", d.clone()),
            RoleRule::Topology(d) => ("topology", d.clone()),
        };
        e.set_item("rule", rule)?;
        e.set_item("detail", detail)?;
        e.set_item("overruled", &s.overruled)?;
        sources.append(e)?;
    }
    d.set_item("sources", sources)?;
    let limbs = PyList::empty(py);
    for p in &roles.limbs {
        let e = PyDict::new(py);
        e.set_item("kind", if p.legs { "legs" } else { "pair" })?;
        e.set_item("junction", &names[p.junction])?;
        e.set_item(
            "chains",
            p.limbs
                .iter()
                .map(|l| l.chain.iter().map(|&j| names[j].clone()).collect::<Vec<_>>())
                .collect::<Vec<_>>(),
        )?;
        e.set_item("mirror_error", p.score)?;
        limbs.append(e)?;
    }
    d.set_item("limbs", limbs)?;
    d.set_item("trunk", roles.trunk.iter().map(|&j| names[j].clone()).collect::<Vec<_>>())?;
    d.set_item("facing", roles.facing.map(|f| f.to_array()))?;
    Ok(d)
}

/// An animation sampled at a fixed rate: local TRS of every joint per frame,
/// `Clip(name, rate, translations f32[F, J, 3], rotations f32[F, J, 4]
/// (x, y, z, w), scales f32[F, J, 3] = ones)`. `Model.clip` samples one
/// from a file; `Clip.for_rig` adds a grown rig's joints.
#[pyclass(name = "Clip", module = "caudal._core", frozen)]
pub struct PyClip {
    pub inner: Arc<Clip>,
}

impl PyClip {
    pub fn wrap(c: Clip) -> Self {
        PyClip { inner: Arc::new(c) }
    }
}

#[pymethods]
impl PyClip {
    /// translations f32[F,J,3], rotations f32[F,J,4] (x, y, z, w), scales f32[F,J,3].
    #[new]
    #[pyo3(signature = (name, rate, translations, rotations, scales=None))]
    fn new(
        name: String,
        rate: f32,
        translations: &Bound<'_, PyAny>,
        rotations: &Bound<'_, PyAny>,
        scales: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let (t, ts) = f32_flat(translations, "translations", &[None, None, Some(3)])?;
        let (r, _) = f32_flat(rotations, "rotations", &[Some(ts[0]), Some(ts[1]), Some(4)])?;
        let s = match scales {
            Some(s) => f32_flat(s, "scales", &[Some(ts[0]), Some(ts[1]), Some(3)])?.0,
            None => vec![1.0; t.len()],
        };
        let locals = (0..ts[0] * ts[1])
            .map(|i| {
                Trs::new(
                    Vec3::new(t[3 * i], t[3 * i + 1], t[3 * i + 2]),
                    glam::Quat::from_xyzw(r[4 * i], r[4 * i + 1], r[4 * i + 2], r[4 * i + 3])
                        .normalize(),
                    Vec3::new(s[3 * i], s[3 * i + 1], s[3 * i + 2]),
                )
            })
            .collect();
        Ok(PyClip::wrap(Clip::at_rate(name, rate, ts[1], locals).py_err()?))
    }
    /// The clip's name (the animation it was sampled from).
    #[getter]
    fn name(&self) -> String {
        self.inner.name.clone()
    }
    /// Frames per second.
    #[getter]
    fn rate(&self) -> f32 {
        self.inner.rate
    }
    /// Seconds from the first frame to the last.
    #[getter]
    fn duration(&self) -> f32 {
        self.inner.duration
    }
    /// F, the number of frames.
    #[getter]
    fn frame_count(&self) -> usize {
        self.inner.frame_count()
    }
    /// J, the number of joints (the rig's, in the rig's order).
    #[getter]
    fn joint_count(&self) -> usize {
        self.inner.joint_count()
    }
    /// f32[F] frame times in seconds.
    #[getter]
    fn times<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let n = self.inner.frame_count();
        array(py, (0..n).map(|f| self.inner.time(f)).collect(), &[n])
    }
    /// f32[F, J, 3] local translations.
    #[getter]
    fn translations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let c = &self.inner;
        array(
            py,
            c.locals().iter().flat_map(|t| t.translation.to_array()).collect(),
            &[c.frame_count(), c.joint_count(), 3],
        )
    }
    /// f32[F, J, 4] local rotations as quaternions x, y, z, w.
    #[getter]
    fn rotations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let c = &self.inner;
        array(
            py,
            c.locals().iter().flat_map(|t| t.rotation.to_array()).collect(),
            &[c.frame_count(), c.joint_count(), 4],
        )
    }
    /// f32[F, J, 3] local scales.
    #[getter]
    fn scales<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let c = &self.inner;
        array(
            py,
            c.locals().iter().flat_map(|t| t.scale.to_array()).collect(),
            &[c.frame_count(), c.joint_count(), 3],
        )
    }
    /// This clip for `rig`, a rig with joints appended to the clip's own
    /// (a rig from `grow_chains`): the appended joints are held at their
    /// bind pose, every other value is the clip's. What `simulate`,
    /// `bake_clip` and `skin` need for a grown rig. A clip knows its joints
    /// by index only, so the rig's first joints must be the clip's;
    /// `Model.clip(name, rig=rig)` samples, checks that against the file,
    /// and pads in one call.
    fn for_rig(&self, py: Python<'_>, rig: &PyRig) -> PyResult<Self> {
        let (c, r) = (self.inner.clone(), rig.inner.clone());
        Ok(PyClip::wrap(py.core(move || c.for_rig(&r))?))
    }
    fn __repr__(&self) -> String {
        format!(
            "Clip({:?}, {} frames at {:.3}/s, {:.3} s, {} joints)",
            self.inner.name,
            self.inner.frame_count(),
            self.inner.rate,
            self.inner.duration,
            self.inner.joint_count()
        )
    }
}

/// Joint world matrices of every frame: f32[F, J, 4, 4].
#[pyfunction]
fn world_matrices_of<'py>(
    py: Python<'py>,
    rig: &PyRig,
    clip: &PyClip,
) -> PyResult<Bound<'py, PyAny>> {
    let (r, c) = (rig.inner.clone(), clip.inner.clone());
    let data = py.core(move || -> crate::error::Result<Vec<f32>> {
        c.check_joints(&r)?;
        Ok((0..c.frame_count())
            .flat_map(|f| world_matrices(r.parents(), r.topological_order(), c.frame(f)))
            .flat_map(|m| m.transpose().to_cols_array())
            .collect())
    })?;
    array(py, data, &[clip.inner.frame_count(), rig.inner.joint_count(), 4, 4])
}

/// Linear blend skinning of every frame: f32[F, N, 3]. `frames` selects
/// frame indices (default all). The output may take at most `max_bytes`
/// (default `DEFAULT_MAX_BYTES`).
#[pyfunction]
#[pyo3(signature = (rig, clip, frames=None, *, max_bytes=None))]
fn skin<'py>(
    py: Python<'py>,
    rig: &PyRig,
    clip: &PyClip,
    frames: Option<Vec<usize>>,
    max_bytes: Option<usize>,
) -> PyResult<Bound<'py, PyAny>> {
    let (r, c) = (rig.inner.clone(), clip.inner.clone());
    let max_bytes = max_bytes.unwrap_or(crate::limits::DEFAULT_MAX_BYTES);
    let nf = frames.as_ref().map_or(c.frame_count(), Vec::len);
    let posed = py.core(move || skin_frames(&r, &c, frames.as_deref(), max_bytes))?;
    let data = posed.iter().flat_map(|p| p.to_array()).collect();
    array(py, data, &[nf, rig.inner.vertex_count(), 3])
}

/// Skinning with the rig's bind pose (the identity: a self-check).
#[pyfunction]
fn skin_bind_pose<'py>(py: Python<'py>, rig: &PyRig) -> PyResult<Bound<'py, PyAny>> {
    let r = rig.inner.clone();
    let v = py.core(move || Ok(skin_vertices(&r, &skin_matrices(&r, r.bind_world()))))?;
    vec3s_to_py(py, &v)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyRig>()?;
    m.add_class::<PyClip>()?;
    m.add_function(wrap_pyfunction!(world_matrices_of, m)?)?;
    m.add_function(wrap_pyfunction!(skin, m)?)?;
    m.add_function(wrap_pyfunction!(skin_bind_pose, m)?)?;
    Ok(())
}
