//! `caudal.load`, `caudal.Model` and `caudal.Character`: glTF files in and
//! out, one `Character` per skeleton of the file.

use std::path::PathBuf;
use std::sync::Arc;

use glam::Vec4;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use super::convert::*;
use super::errors::Guarded;
use super::errors::{to_py, IntoPy};
use super::rig::{PyClip, PyRig};
use crate::error::CaudalError;
use crate::gltf_io::{
    self, AnimationTrack, Character, GltfModel, LoadOptions, TrackPath, WriteOptions,
    DEFAULT_MAX_KEY_RATE, DEFAULT_SAMPLE_RATE,
};
use crate::limits::DEFAULT_MAX_BYTES;
use crate::rig::{Clip, Rig};

/// A loaded glTF file: its characters, its animations, and what writing it
/// back needs.
#[pyclass(name = "Model", module = "caudal._core", frozen)]
pub struct PyModel {
    pub inner: Arc<GltfModel>,
}

/// One character of a loaded file: a skeleton with the meshes it moves.
#[pyclass(name = "Character", module = "caudal._core", frozen)]
pub struct PyCharacter {
    pub model: Arc<GltfModel>,
    pub index: usize,
}

/// A model (its only character) or one character of it: what the
/// functions that work on one character of a file accept.
#[derive(FromPyObject)]
pub enum ModelOrCharacter<'py> {
    Model(PyRef<'py, PyModel>),
    Character(PyRef<'py, PyCharacter>),
}

impl ModelOrCharacter<'_> {
    /// The file and the character meant: a model must hold exactly one.
    pub fn resolve(&self) -> PyResult<(Arc<GltfModel>, usize)> {
        match self {
            ModelOrCharacter::Model(m) => Ok((m.inner.clone(), m.inner.single().py_err()?.index)),
            ModelOrCharacter::Character(c) => Ok((c.model.clone(), c.index)),
        }
    }
}

fn primitive_dicts<'py>(py: Python<'py>, c: &Character, out: &Bound<'py, PyList>) -> PyResult<()> {
    for p in &c.primitives {
        let d = PyDict::new(py);
        d.set_item("character", c.index)?;
        d.set_item("mesh", p.mesh)?;
        d.set_item("primitive", p.primitive)?;
        d.set_item("node", p.node)?;
        d.set_item("skin", p.skin)?;
        d.set_item("rigid_joint", p.rigid_joint.map(|j| c.rig.joint_names()[j].clone()))?;
        d.set_item("vertex_offset", p.vertex_offset)?;
        d.set_item("file_vertex_offset", p.file_vertex_offset)?;
        d.set_item("vertex_count", p.vertex_count)?;
        d.set_item("max_influences", p.max_influences)?;
        out.append(d)?;
    }
    Ok(())
}

/// Samples at about `rate` frames per second (default 30), or with `keys`
/// at the animation's own key times (the union of its channels' times, at
/// most `DEFAULT_MAX_KEY_RATE` keys a second): what a transfer keys its
/// solved clip at. With `rig`, padded for that grown rig (`for_rig`).
fn sample(
    py: Python<'_>,
    m: &Arc<GltfModel>,
    c: usize,
    name: String,
    rate: Option<f32>,
    keys: bool,
    rig: Option<&PyRig>,
) -> PyResult<PyClip> {
    if keys && rate.is_some() {
        return Err(CaudalError::param("rate", "give either rate or keys=True, not both")).py_err();
    }
    m.animation_index(&name).map_err(|e| e.with_field("name")).py_err()?;
    let (m, r) = (m.clone(), rig.map(|r| r.inner.clone()));
    let clip = py.core(move || {
        let sampled = if keys {
            m.sample_clip_at_keys(c, &name, DEFAULT_MAX_KEY_RATE)?
        } else {
            m.sample_clip(c, &name, rate.unwrap_or(DEFAULT_SAMPLE_RATE))?
        };
        for_rig(&m, c, r.as_deref(), sampled)
    })?;
    Ok(PyClip::wrap(clip))
}

#[allow(clippy::too_many_arguments)]
fn sample_together(
    py: Python<'_>,
    m: &Arc<GltfModel>,
    c: usize,
    names: Option<Vec<String>>,
    rate: Option<f32>,
    name: Option<String>,
    rig: Option<&PyRig>,
) -> PyResult<PyClip> {
    let rate = rate.unwrap_or(DEFAULT_SAMPLE_RATE);
    let name = name.unwrap_or_else(|| "combined".to_string());
    let (m, r) = (m.clone(), rig.map(|r| r.inner.clone()));
    let idx: Vec<usize> = match names {
        Some(ns) => ns
            .iter()
            .map(|n| m.animation_index(n).map_err(|e| e.with_field("names")))
            .collect::<Result<_, _>>()
            .py_err()?,
        None => (0..m.animations.len()).collect(),
    };
    let clip =
        py.core(move || for_rig(&m, c, r.as_deref(), m.sample_together(c, &idx, rate, &name)?))?;
    Ok(PyClip::wrap(clip))
}

/// `clip` of character `c`, padded for `rig` when one is given (which must
/// be that character's rig with joints appended).
fn for_rig(
    model: &GltfModel,
    c: usize,
    rig: Option<&Rig>,
    clip: Clip,
) -> crate::error::Result<Clip> {
    match rig {
        None => Ok(clip),
        Some(r) if r.appends_to(&model.characters[c].rig) => clip.for_rig(r),
        Some(_) => Err(CaudalError::shape("rig", "must be this character's rig (same vertices, its joints first and in order) with joints appended")),
    }
}

#[pymethods]
impl PyCharacter {
    /// Position in `Model.characters` (the file's order of first skins).
    #[getter]
    fn index(&self) -> usize {
        self.index
    }
    /// A label, unique in the file: the first skin's name, else the named
    /// node above the skeleton.
    #[getter]
    fn name(&self) -> String {
        self.model.characters[self.index].name.clone()
    }
    /// Only this character's joints and vertices, Y-up, in its bind pose.
    #[getter]
    fn rig(&self) -> PyRig {
        PyRig::wrap(self.model.characters[self.index].rig.clone())
    }
    /// Bind-pose extent along up (Y) of this character alone.
    #[getter]
    fn height(&self) -> f32 {
        self.model.characters[self.index].rig.height()
    }
    /// The file's skins (indices) that bind this character.
    #[getter]
    fn skins(&self) -> Vec<usize> {
        self.model.characters[self.index].skins.clone()
    }
    /// Node index of each rig joint.
    #[getter]
    fn joint_nodes(&self) -> Vec<usize> {
        self.model.characters[self.index].joint_nodes.clone()
    }
    /// One dict per primitive of this character (see `Model.primitives`).
    fn primitives<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let out = PyList::empty(py);
        primitive_dicts(py, &self.model.characters[self.index], &out)?;
        Ok(out)
    }
    /// Samples the animation `name` for this character's joints (at
    /// `rate`, or with `keys=True` at the animation's own key times); `rig`
    /// as in `Model.clip`.
    #[pyo3(signature = (name, rate=None, rig=None, *, keys=false))]
    fn clip(
        &self,
        py: Python<'_>,
        name: String,
        rate: Option<f32>,
        rig: Option<&PyRig>,
        keys: bool,
    ) -> PyResult<PyClip> {
        sample(py, &self.model, self.index, name, rate, keys, rig)
    }
    /// Samples several animations played together for this character;
    /// `rig` as in `Model.clip`.
    #[pyo3(signature = (names=None, rate=None, name=None, rig=None))]
    fn clip_together(
        &self,
        py: Python<'_>,
        names: Option<Vec<String>>,
        rate: Option<f32>,
        name: Option<String>,
        rig: Option<&PyRig>,
    ) -> PyResult<PyClip> {
        sample_together(py, &self.model, self.index, names, rate, name, rig)
    }
    fn __repr__(&self) -> String {
        let c = &self.model.characters[self.index];
        format!(
            "Character({}, {:?}, {} joints, {} vertices, height {:.4})",
            c.index,
            c.name,
            c.rig.joint_count(),
            c.rig.vertex_count(),
            c.rig.height()
        )
    }
}

#[pymethods]
impl PyModel {
    /// The rig of the file's only character. A file with several
    /// characters raises ParameterError naming them: use
    /// `model.characters[i].rig`.
    #[getter]
    fn rig(&self) -> PyResult<PyRig> {
        Ok(PyRig::wrap(self.inner.rig().py_err()?.clone()))
    }
    /// Every skinned character of the file, by first skin in file order.
    #[getter]
    fn characters(&self) -> Vec<PyCharacter> {
        (0..self.inner.characters.len())
            .map(|index| PyCharacter { model: self.inner.clone(), index })
            .collect()
    }
    /// What the reader let through but you should know (for example a
    /// required material extension it ignored).
    #[getter]
    fn warnings(&self) -> Vec<String> {
        self.inner.warnings.clone()
    }
    /// Every node name of the file: what new joints must not be called
    /// for names to stay unique (`grow_chains(..., reserved_names=...)`).
    #[getter]
    fn node_names(&self) -> Vec<String> {
        self.inner.node_names()
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
    /// One dict per animation: name, duration, channels, paths, animated
    /// joints (names, of any character).
    fn animations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let out = PyList::empty(py);
        for a in &self.inner.animations {
            let d = PyDict::new(py);
            d.set_item("index", a.index)?;
            d.set_item("name", &a.name)?;
            d.set_item("duration", a.duration)?;
            d.set_item("channels", a.channels)?;
            d.set_item("paths", a.paths.clone())?;
            let joints: Vec<String> = a
                .animated_joints
                .iter()
                .map(|&(c, j)| self.inner.characters[c].rig.joint_names()[j].clone())
                .collect();
            d.set_item("joints", joints)?;
            out.append(d)?;
        }
        Ok(out)
    }
    /// One dict per primitive of every character: character, mesh,
    /// primitive, node, skin (None for a rigid node-parented mesh),
    /// rigid_joint, vertex_offset (in the character's rig),
    /// file_vertex_offset (in the file's global order), vertex_count,
    /// max_influences.
    fn primitives<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let out = PyList::empty(py);
        for c in &self.inner.characters {
            primitive_dicts(py, c, &out)?;
        }
        Ok(out)
    }
    /// One dict per skin: index, name, character, joints (names).
    fn skins<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let out = PyList::empty(py);
        for s in &self.inner.skins {
            let d = PyDict::new(py);
            d.set_item("index", s.index)?;
            d.set_item("name", s.name.clone())?;
            let ch = self.inner.characters.get(s.character);
            d.set_item("character", ch.map(|c| c.index))?;
            let joints: Vec<String> = ch
                .map(|c| s.joints.iter().map(|&j| c.rig.joint_names()[j].clone()).collect())
                .unwrap_or_default();
            d.set_item("joints", joints)?;
            out.append(d)?;
        }
        Ok(out)
    }
    /// Node index of each rig joint of the only character.
    #[getter]
    fn joint_nodes(&self) -> PyResult<Vec<usize>> {
        Ok(self.inner.single().py_err()?.joint_nodes.clone())
    }
    /// f32[4, 4]: the similarity carrying the first skin's mesh space into
    /// its character's Y-up bind space (identity for most files).
    #[getter]
    fn bind_from_file<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let m = self.inner.skins.first().map(|s| s.bind_from_file).unwrap_or(glam::Mat4::IDENTITY);
        mat4s_to_py(py, &[m])?.get_item(0)
    }

    /// Samples the animation `name` for the only character at about `rate`
    /// frames per second (default 30; the rate is adjusted so the last
    /// frame lands on the clip's end), or with `keys=True` at the
    /// animation's own key times (the union of its channels' times, at most
    /// 120 a second): what a transfer keys its solved clip at. With several
    /// characters use `Character.clip`. With `rig` (the character's rig
    /// with grown joints, as `grow_chains` returns it) the clip covers every
    /// joint of `rig`, the grown ones held at their bind pose (`Clip.for_rig`).
    #[pyo3(signature = (name, rate=None, rig=None, *, keys=false))]
    fn clip(
        &self,
        py: Python<'_>,
        name: String,
        rate: Option<f32>,
        rig: Option<&PyRig>,
        keys: bool,
    ) -> PyResult<PyClip> {
        let c = self.inner.single().py_err()?.index;
        sample(py, &self.inner, c, name, rate, keys, rig)
    }

    /// Samples several animations played together (files that store one
    /// motion as one animation per joint, like CesiumMan); `rig` as in
    /// `Model.clip`.
    #[pyo3(signature = (names=None, rate=None, name=None, rig=None))]
    fn clip_together(
        &self,
        py: Python<'_>,
        names: Option<Vec<String>>,
        rate: Option<f32>,
        name: Option<String>,
        rig: Option<&PyRig>,
    ) -> PyResult<PyClip> {
        let c = self.inner.single().py_err()?.index;
        sample_together(py, &self.inner, c, names, rate, name, rig)
    }

    /// Writes the file back, atomically. `rig` (one-character files) or
    /// `rigs` (one Rig or None per character; None keeps the loaded one)
    /// may add joints and change weights. `tracks` are dicts {animation,
    /// joint (name), path ('rotation' | 'translation' | 'scale'), times
    /// f32[K], values f32[K, 4 or 3], character (index; needed when the
    /// file has several)}. `sidecars` maps other paths to their bytes (a
    /// report): they are committed together with the model, all or none.
    /// An output path that is a symlink is refused.
    #[pyo3(signature = (path, rig=None, tracks=None, gltf_json=None, *, rigs=None, sidecars=None))]
    #[allow(clippy::too_many_arguments)]
    fn write(
        &self,
        py: Python<'_>,
        path: PathBuf,
        rig: Option<&PyRig>,
        tracks: Option<&Bound<'_, PyList>>,
        gltf_json: Option<bool>,
        rigs: Option<Vec<Option<PyRef<'_, PyRig>>>>,
        sidecars: Option<Vec<(PathBuf, Vec<u8>)>>,
    ) -> PyResult<()> {
        let m = &self.inner;
        let n = m.characters.len();
        let chosen: Vec<Arc<Rig>> = match (rig, rigs) {
            (Some(_), Some(_)) => {
                return Err(to_py(CaudalError::param("rig", "pass rig or rigs, not both")))
            }
            (Some(r), None) => {
                let c = m.single().py_err()?.index;
                (0..n)
                    .map(|i| {
                        if i == c {
                            r.inner.clone()
                        } else {
                            Arc::new(m.characters[i].rig.clone())
                        }
                    })
                    .collect()
            }
            (None, Some(rs)) => {
                if rs.len() != n {
                    return Err(to_py(CaudalError::shape(
                        "rigs",
                        format!("{} rigs for {n} characters", rs.len()),
                    )));
                }
                rs.iter()
                    .enumerate()
                    .map(|(i, r)| {
                        r.as_ref()
                            .map(|r| r.inner.clone())
                            .unwrap_or_else(|| Arc::new(m.characters[i].rig.clone()))
                    })
                    .collect()
            }
            (None, None) => m.characters.iter().map(|c| Arc::new(c.rig.clone())).collect(),
        };
        let parsed = match tracks {
            Some(ts) => parse_tracks(m, &chosen, ts)?,
            None => Vec::new(),
        };
        let m = m.clone();
        py.core(move || {
            let refs: Vec<&Rig> = chosen.iter().map(|r| r.as_ref()).collect();
            gltf_io::write(
                &m,
                &refs,
                &parsed,
                &path,
                &WriteOptions {
                    force_gltf_json: gltf_json,
                    sidecars: sidecars.unwrap_or_default(),
                },
            )
        })
    }

    fn __repr__(&self) -> String {
        let m = &self.inner;
        match m.characters.as_slice() {
            [c] => format!(
                "Model({:?}, {} joints, {} vertices, {} clips)",
                m.label,
                c.rig.joint_count(),
                c.rig.vertex_count(),
                m.animations.len()
            ),
            cs => format!(
                "Model({:?}, {} characters, {} clips)",
                m.label,
                cs.len(),
                m.animations.len()
            ),
        }
    }
}

/// Track dicts into core tracks; joints are looked up by name in their
/// character's rig.
fn parse_tracks(
    m: &GltfModel,
    rigs: &[Arc<Rig>],
    ts: &Bound<'_, PyList>,
) -> PyResult<Vec<AnimationTrack>> {
    let mut parsed = Vec::new();
    for (i, t) in ts.iter().enumerate() {
        let d = t
            .cast::<PyDict>()
            .map_err(|_| to_py(CaudalError::shape("tracks", format!("track {i} is not a dict"))))?;
        let get = |k: &str| -> PyResult<Bound<'_, PyAny>> {
            d.get_item(k)?.ok_or_else(|| {
                to_py(CaudalError::shape("tracks", format!("track {i} has no {k:?}")))
            })
        };
        let character = match d.get_item("character")? {
            Some(c) if !c.is_none() => {
                let c: usize = c.extract()?;
                m.character(c).py_err()?;
                c
            }
            _ => {
                m.single()
                    .map_err(|e| {
                        to_py(CaudalError::param("tracks.character", format!("track {i}: {e}")))
                    })?
                    .index
            }
        };
        let rig = &rigs[character];
        let animation: String = get("animation")?.extract()?;
        let joint_name: String = get("joint")?.extract()?;
        let joint = rig.require_joint("tracks.joint", &joint_name).py_err()?;
        let path_s: String = get("path")?.extract()?;
        let (path, comps) = match path_s.as_str() {
            "rotation" => (TrackPath::Rotation, 4),
            "translation" => (TrackPath::Translation, 3),
            "scale" => (TrackPath::Scale, 3),
            other => {
                return Err(CaudalError::param("tracks.path", format!("unknown path {other:?}")))
                    .py_err()
            }
        };
        let (times, _) = f32_flat(&get("times")?, "tracks.times", &[None])?;
        let (vals, _) =
            f32_flat(&get("values")?, "tracks.values", &[Some(times.len()), Some(comps)])?;
        let values = vals
            .chunks_exact(comps)
            .map(|c| {
                if comps == 4 {
                    Vec4::new(c[0], c[1], c[2], c[3])
                } else {
                    Vec4::new(c[0], c[1], c[2], 0.0)
                }
            })
            .collect();
        parsed.push(AnimationTrack { animation, character, joint, path, times, values });
    }
    Ok(parsed)
}

impl PyModel {
    pub fn wrap(m: GltfModel) -> Self {
        PyModel { inner: Arc::new(m) }
    }
}

fn load_options(max_bytes: Option<usize>) -> LoadOptions {
    LoadOptions { max_bytes: max_bytes.unwrap_or(DEFAULT_MAX_BYTES) }
}

/// Loads a .glb or .gltf file. `max_bytes` caps what reading it (and each
/// clip sampled from it) may allocate (default `DEFAULT_MAX_BYTES`).
#[pyfunction]
#[pyo3(signature = (path, *, max_bytes=None))]
fn load(py: Python<'_>, path: PathBuf, max_bytes: Option<usize>) -> PyResult<PyModel> {
    let m = py.core(move || gltf_io::load_with(&path, &load_options(max_bytes)))?;
    Ok(PyModel::wrap(m))
}

/// Loads glTF from bytes; `base_dir` resolves external buffers.
#[pyfunction]
#[pyo3(signature = (data, base_dir=None, label=None, *, max_bytes=None))]
fn load_bytes(
    py: Python<'_>,
    data: Vec<u8>,
    base_dir: Option<PathBuf>,
    label: Option<String>,
    max_bytes: Option<usize>,
) -> PyResult<PyModel> {
    let label = label.unwrap_or_else(|| "<bytes>".to_string());
    let m = py.core(move || {
        gltf_io::load_bytes_with(&data, base_dir.as_deref(), &label, &load_options(max_bytes))
    })?;
    Ok(PyModel::wrap(m))
}

/// Writes `data` to `path` the way caudal writes its GLBs: through a
/// temporary file in the same folder and a rename, so a failed or killed
/// write never leaves a partial file under `path` (`caudal batch` writes
/// its reports and summaries with it too).
#[pyfunction]
fn write_atomic(py: Python<'_>, path: PathBuf, data: &[u8]) -> PyResult<()> {
    py.core(move || gltf_io::write_atomic(&path, data))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyModel>()?;
    m.add_class::<PyCharacter>()?;
    m.add_function(wrap_pyfunction!(load, m)?)?;
    m.add_function(wrap_pyfunction!(load_bytes, m)?)?;
    m.add("DEFAULT_MAX_BYTES", DEFAULT_MAX_BYTES)?;
    m.add_function(wrap_pyfunction!(write_atomic, m)?)?;
    Ok(())
}
