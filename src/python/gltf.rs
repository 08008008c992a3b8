//! `caudal.load` and `caudal.Model`: glTF files in and out.

use std::path::PathBuf;
use std::sync::Arc;

use glam::Vec4;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use super::convert::*;
use super::errors::IntoPy;
use super::rig::{PyClip, PyRig};
use crate::error::CaudalError;
use crate::gltf_io::{self, AnimationTrack, GltfModel, TrackPath, WriteOptions, DEFAULT_SAMPLE_RATE};
use crate::rig::{Clip, Rig};

/// A loaded glTF file: its rig, its animations, and what writing it back needs.
#[pyclass(name = "Model", module = "caudal._core", frozen)]
pub struct PyModel {
    pub inner: Arc<GltfModel>,
}

#[pymethods]
impl PyModel {
    /// The file's rig table: every skinned mesh and joint-parented mesh of
    /// the file as one rig, Y-up in bind space.
    #[getter]
    fn rig(&self) -> PyRig {
        PyRig::wrap(self.inner.rig.clone())
    }
    /// The file it was loaded from (or the label given to `load_bytes`).
    #[getter]
    fn path(&self) -> String {
        self.inner.label.clone()
    }
    /// `asset.generator` of the file (the exporter), if it names one.
    #[getter]
    fn generator(&self) -> Option<String> {
        self.inner.generator.clone()
    }
    /// Animation names in file order.
    #[getter]
    fn clip_names(&self) -> Vec<String> {
        self.inner.animations.iter().map(|a| a.name.clone()).collect()
    }
    /// One dict per animation: name, duration, channels, paths, animated joints.
    fn animations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let out = PyList::empty(py);
        for a in &self.inner.animations {
            let d = PyDict::new(py);
            d.set_item("index", a.index)?;
            d.set_item("name", &a.name)?;
            d.set_item("duration", a.duration)?;
            d.set_item("channels", a.channels)?;
            d.set_item("paths", a.paths.clone())?;
            d.set_item("joints", a.animated_joints.iter().map(|&j| self.inner.rig.joint_names()[j].clone()).collect::<Vec<_>>())?;
            out.append(d)?;
        }
        Ok(out)
    }
    /// One dict per primitive in the rig: mesh, primitive, node, skin (None for
    /// a rigid node-parented mesh), vertex_offset, vertex_count, max_influences.
    fn primitives<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let out = PyList::empty(py);
        for p in &self.inner.primitives {
            let d = PyDict::new(py);
            d.set_item("mesh", p.mesh)?;
            d.set_item("primitive", p.primitive)?;
            d.set_item("node", p.node)?;
            d.set_item("skin", p.skin)?;
            d.set_item("rigid_joint", p.rigid_joint.map(|j| self.inner.rig.joint_names()[j].clone()))?;
            d.set_item("vertex_offset", p.vertex_offset)?;
            d.set_item("vertex_count", p.vertex_count)?;
            d.set_item("max_influences", p.max_influences)?;
            out.append(d)?;
        }
        Ok(out)
    }
    /// One dict per skin: index, name, joints (names).
    fn skins<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let out = PyList::empty(py);
        for s in &self.inner.skins {
            let d = PyDict::new(py);
            d.set_item("index", s.index)?;
            d.set_item("name", s.name.clone())?;
            d.set_item("joints", s.joints.iter().map(|&j| self.inner.rig.joint_names()[j].clone()).collect::<Vec<_>>())?;
            out.append(d)?;
        }
        Ok(out)
    }
    /// Node index of each rig joint.
    #[getter]
    fn joint_nodes(&self) -> Vec<usize> {
        self.inner.joint_nodes.clone()
    }
    /// f32[4, 4]: the similarity carrying the first skin's mesh space into the
    /// rig's Y-up bind space (identity for most files).
    #[getter]
    fn bind_from_file<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let m = self.inner.skins.first().map(|s| s.bind_from_file).unwrap_or(glam::Mat4::IDENTITY);
        mat4s_to_py(py, &[m])?.get_item(0)
    }

    /// Samples the animation `name` at about `rate` frames per second
    /// (default 30; the rate is adjusted so the last frame lands on the
    /// clip's end). With `rig` (this model's rig with grown joints, as
    /// `grow_chains` returns it) the clip covers every joint of `rig`, the
    /// grown ones held at their bind pose (`Clip.for_rig`).
    #[pyo3(signature = (name, rate=None, rig=None))]
    fn clip(&self, py: Python<'_>, name: String, rate: Option<f32>, rig: Option<&PyRig>) -> PyResult<PyClip> {
        let rate = rate.unwrap_or(DEFAULT_SAMPLE_RATE);
        let (m, r) = (self.inner.clone(), rig.map(|r| r.inner.clone()));
        m.animation_index(&name).map_err(|e| e.with_field("name")).py_err()?;
        let c = py.detach(move || sample_for(&m, r.as_deref(), |m| m.sample_clip(&name, rate))).py_err()?;
        Ok(PyClip::wrap(c))
    }

    /// Samples several animations played together (files that store one
    /// motion as one animation per joint, like CesiumMan); `rig` as in
    /// `Model.clip`.
    #[pyo3(signature = (names=None, rate=None, name=None, rig=None))]
    fn clip_together(&self, py: Python<'_>, names: Option<Vec<String>>, rate: Option<f32>, name: Option<String>, rig: Option<&PyRig>) -> PyResult<PyClip> {
        let rate = rate.unwrap_or(DEFAULT_SAMPLE_RATE);
        let name = name.unwrap_or_else(|| "combined".to_string());
        let (m, r) = (self.inner.clone(), rig.map(|r| r.inner.clone()));
        let idx: Vec<usize> = match names {
            Some(ns) => ns.iter().map(|n| m.animation_index(n).map_err(|e| e.with_field("names"))).collect::<Result<_, _>>().py_err()?,
            None => (0..m.animations.len()).collect(),
        };
        let c = py.detach(move || sample_for(&m, r.as_deref(), |m| m.sample_together(&idx, rate, &name))).py_err()?;
        Ok(PyClip::wrap(c))
    }

    /// Writes the file back with `rig` (default: the loaded one; it may add
    /// joints and change weights) and animation `tracks`, atomically. Tracks
    /// are dicts {animation, joint (name), path ('rotation' | 'translation' |
    /// 'scale'), times f32[K], values f32[K, 4 or 3]}.
    #[pyo3(signature = (path, rig=None, tracks=None, gltf_json=None))]
    fn write(&self, py: Python<'_>, path: PathBuf, rig: Option<&PyRig>, tracks: Option<&Bound<'_, PyList>>, gltf_json: Option<bool>) -> PyResult<()> {
        let rig = rig.map(|r| r.inner.clone()).unwrap_or_else(|| Arc::new(self.inner.rig.clone()));
        let mut parsed = Vec::new();
        if let Some(ts) = tracks {
            for (i, t) in ts.iter().enumerate() {
                let d = t.cast::<PyDict>().map_err(|_| CaudalError::shape("tracks", format!("track {i} is not a dict"))).py_err()?;
                let get = |k: &str| -> PyResult<Bound<'_, PyAny>> {
                    d.get_item(k)?.ok_or_else(|| super::errors::to_py(CaudalError::shape("tracks", format!("track {i} has no {k:?}"))))
                };
                let animation: String = get("animation")?.extract()?;
                let joint_name: String = get("joint")?.extract()?;
                let joint = rig.require_joint("tracks.joint", &joint_name).py_err()?;
                let path_s: String = get("path")?.extract()?;
                let (path, comps) = match path_s.as_str() {
                    "rotation" => (TrackPath::Rotation, 4),
                    "translation" => (TrackPath::Translation, 3),
                    "scale" => (TrackPath::Scale, 3),
                    other => return Err(CaudalError::param("tracks.path", format!("unknown path {other:?}"))).py_err(),
                };
                let (times, _) = f32_flat(&get("times")?, "tracks.times", &[None])?;
                let (vals, _) = f32_flat(&get("values")?, "tracks.values", &[Some(times.len()), Some(comps)])?;
                let values = vals.chunks_exact(comps).map(|c| if comps == 4 { Vec4::new(c[0], c[1], c[2], c[3]) } else { Vec4::new(c[0], c[1], c[2], 0.0) }).collect();
                parsed.push(AnimationTrack { animation, joint, path, times, values });
            }
        }
        let m = self.inner.clone();
        py.detach(move || gltf_io::write(&m, &rig, &parsed, &path, &WriteOptions { force_gltf_json: gltf_json })).py_err()
    }

    fn __repr__(&self) -> String {
        format!("Model({:?}, {} joints, {} vertices, {} clips)", self.inner.label, self.inner.rig.joint_count(), self.inner.rig.vertex_count(), self.inner.animations.len())
    }
}

impl PyModel {
    pub fn wrap(m: GltfModel) -> Self {
        PyModel { inner: Arc::new(m) }
    }
}

/// A clip sampled from `model`, padded for `rig` when one is given (which
/// must be the model's rig with joints appended).
fn sample_for(model: &GltfModel, rig: Option<&Rig>, sample: impl FnOnce(&GltfModel) -> crate::error::Result<Clip>) -> crate::error::Result<Clip> {
    let clip = sample(model)?;
    match rig {
        None => Ok(clip),
        Some(r) if r.appends_to(&model.rig) => clip.for_rig(r),
        Some(_) => Err(CaudalError::shape("rig", "must be this model's rig (same vertices, its joints first and in order) with joints appended")),
    }
}

/// Loads a .glb or .gltf file.
#[pyfunction]
fn load(py: Python<'_>, path: PathBuf) -> PyResult<PyModel> {
    let m = py.detach(move || gltf_io::load(&path)).py_err()?;
    Ok(PyModel::wrap(m))
}

/// Loads glTF from bytes; `base_dir` resolves external buffers.
#[pyfunction]
#[pyo3(signature = (data, base_dir=None, label=None))]
fn load_bytes(py: Python<'_>, data: Vec<u8>, base_dir: Option<PathBuf>, label: Option<String>) -> PyResult<PyModel> {
    let label = label.unwrap_or_else(|| "<bytes>".to_string());
    let m = py.detach(move || gltf_io::load_bytes(&data, base_dir.as_deref(), &label)).py_err()?;
    Ok(PyModel::wrap(m))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyModel>()?;
    m.add_function(wrap_pyfunction!(load, m)?)?;
    m.add_function(wrap_pyfunction!(load_bytes, m)?)?;
    Ok(())
}
