//! `caudal.bake`, `caudal.Bake`, `caudal.BakedClip`, `caudal.tail_chains`:
//! tails baked into loop-closed keys (SPEC B).

use std::path::PathBuf;
use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use super::convert::*;
use super::errors::Guarded;
use super::errors::{to_py, IntoPy};
use super::gltf::ModelOrCharacter;
use super::rig::{PyClip, PyRig};
use super::serde_py::{from_py, refuse_keywords};
use crate::bake::{
    bake_character, bake_clip as core_bake_clip, baked_tracks, find_chains, tracks, BakeParams,
    BakedClip, LoopMode, ModelBake,
};
use crate::chain::ChainParams;
use crate::error::CaudalError;
use crate::gltf_io::{self, AnimationTrack, GltfModel, WriteOptions};
use crate::rig::Rig;

/// Bake parameters from keyword arguments (or a dict of them) through
/// serde, with the core's defaults and names; errors name the field
/// (`rate`, `loops.Walk`, `spring.carry_deg`).
pub fn bake_params(kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<BakeParams> {
    let p: BakeParams = from_py("", kwargs.map(|k| k.as_any()))?;
    p.validate().py_err()?;
    Ok(p)
}

/// Bake parameters from a key rate and spring overrides (None: defaults),
/// for the calls that take only those two.
pub fn rate_and_spring(
    py: Python<'_>,
    rate: Option<f32>,
    spring: Option<&Bound<'_, PyDict>>,
) -> PyResult<BakeParams> {
    let kw = PyDict::new(py);
    kw.set_item("rate", rate)?;
    kw.set_item("spring", spring)?;
    bake_params(Some(&kw))
}

/// One clip baked through one chain: keys and how they were obtained.
#[pyclass(name = "BakedClip", module = "caudal._core", frozen)]
pub struct PyBakedClip {
    inner: BakedClip,
    bones: Vec<String>,
    /// The file's character it was baked for, when it came from `bake`.
    character: Option<usize>,
}

#[pymethods]
impl PyBakedClip {
    /// The clip's name (the animation the keys belong to).
    #[getter]
    fn name(&self) -> String {
        self.inner.name.clone()
    }
    /// Names of the baked bones, root first.
    #[getter]
    fn bones(&self) -> Vec<String> {
        self.bones.clone()
    }
    /// f32[F]: key times in seconds.
    #[getter]
    fn times<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        array(py, self.inner.times.clone(), &[self.inner.times.len()])
    }
    /// f32[F, K, 4]: local rotations (x, y, z, w) of the bones at every key.
    #[getter]
    fn rotations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let k = self.inner.track.joints.len();
        let f = self.inner.track.frame_count();
        array(
            py,
            self.inner.track.rotations.iter().flat_map(|q| q.to_array()).collect(),
            &[f, k, 4],
        )
    }
    /// Baked as a loop (warm-up passes) or a one-shot (settled).
    #[getter]
    fn looping(&self) -> bool {
        self.inner.looping
    }
    /// Warm-up and loop-closure figures as a dict.
    fn summary<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        summary(py, &self.inner)
    }
    /// The keys as track dicts for `Model.write(..., tracks=...)`: one
    /// rotation track per baked bone, into the animation `animation`
    /// (default: the clip's name, which replaces that clip's keys for these
    /// bones in the written file). A clip from `bake` names its character;
    /// one from `bake_clip` goes to a one-character file's character.
    #[pyo3(signature = (animation=None))]
    fn tracks<'py>(
        &self,
        py: Python<'py>,
        animation: Option<String>,
    ) -> PyResult<Bound<'py, PyList>> {
        let animation = animation.unwrap_or_else(|| self.inner.name.clone());
        // baked_tracks keeps the order of the track's joints, which `bones` names.
        let ts = baked_tracks(&self.inner, &animation, self.character.unwrap_or(0));
        tracks_to_py(py, &ts, &self.bones, self.character.is_some())
    }
    fn __repr__(&self) -> String {
        let b = &self.inner;
        match &b.seam {
            Some(s) if b.seam_blend_deg > 0.0 => format!(
                "BakedClip({:?}, loop, no repeat in {} passes: {:.3}° blended shut, seam ratio {:.2})",
                b.name,
                b.warmup.passes,
                b.seam_blend_deg,
                s.ratio()
            ),
            Some(s) => format!(
                "BakedClip({:?}, loop, {} passes, closure {:.3}°, seam ratio {:.2})",
                b.name,
                b.warmup.passes,
                s.closure_deg,
                s.ratio()
            ),
            None => format!("BakedClip({:?}, one-shot, settled {:.1} s)", b.name, b.warmup.seconds),
        }
    }
}

pub fn summary<'py>(py: Python<'py>, b: &BakedClip) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("name", &b.name)?;
    d.set_item("frames", b.times.len())?;
    d.set_item("duration", b.times.last().copied().unwrap_or(0.0))?;
    d.set_item("looping", b.looping)?;
    d.set_item("loop_detected", b.loop_check.loops)?;
    d.set_item("loop_pose_angle_deg", b.loop_check.angle_deg)?;
    d.set_item("root_travel", b.loop_check.travel.to_array().to_vec())?;
    d.set_item("warmup_passes", b.warmup.passes)?;
    d.set_item("warmup_seconds", b.warmup.seconds)?;
    d.set_item(
        "warmup_residual_deg",
        if b.warmup.residual_deg.is_finite() { Some(b.warmup.residual_deg) } else { None },
    )?;
    d.set_item("converged", b.warmup.converged)?;
    d.set_item("seam_blend_deg", b.seam_blend_deg)?;
    d.set_item("bend_capacity", b.bend_capacity)?;
    if let Some(s) = &b.seam {
        d.set_item("closure_deg", s.closure_deg)?;
        d.set_item("seam_step_deg", s.seam_step_deg)?;
        d.set_item("median_step_deg", s.median_step_deg)?;
        d.set_item("seam_ratio", s.ratio())?;
    } else {
        for k in ["closure_deg", "seam_step_deg", "median_step_deg", "seam_ratio"] {
            d.set_item(k, py.None())?;
        }
    }
    Ok(d)
}

/// Every selected clip baked through every chain; `write` puts the keys
/// into the file's clips.
#[pyclass(name = "Bake", module = "caudal._core", frozen)]
pub struct PyBake {
    model: Arc<GltfModel>,
    rig: Arc<Rig>,
    inner: Arc<ModelBake>,
    /// The detection report (JSON) when `bake` grew the chains itself.
    appendages: Option<String>,
}

#[pymethods]
impl PyBake {
    /// Baked clips, clip-major then chain.
    #[getter]
    fn clips(&self) -> Vec<PyBakedClip> {
        let names = self.rig.joint_names();
        self.inner
            .clips
            .iter()
            .flat_map(|per| per.iter())
            .map(|b| PyBakedClip {
                inner: b.clone(),
                bones: b.track.joints.iter().map(|&j| names[j].clone()).collect(),
                character: Some(self.inner.character),
            })
            .collect()
    }
    /// The rig the keys belong to (grown when `bake` was called without one).
    #[getter]
    fn rig(&self) -> PyRig {
        PyRig { inner: self.rig.clone() }
    }
    /// The appendage report of the chain growth `bake` ran (None when a rig was given).
    #[getter]
    fn appendages<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match &self.appendages {
            Some(j) => py.import("json")?.call_method1("loads", (j,)),
            None => Ok(py.None().into_bound(py)),
        }
    }
    /// The keys as track dicts for `Model.write(..., tracks=...)`: one
    /// rotation track per baked bone per clip, each into its clip's own
    /// animation, with the keys of `BakedClip.times` (`Bake.write` writes
    /// exactly these). A dict holds animation (name), joint (name), path
    /// ('rotation'), times f32[F] and values f32[F, 4] (x, y, z, w).
    fn tracks<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let ts = tracks(&self.inner);
        let names: Vec<String> =
            ts.iter().map(|t| self.rig.joint_names()[t.joint].clone()).collect();
        tracks_to_py(py, &ts, &names, true)
    }
    /// The character of the file that was baked.
    #[getter]
    fn character(&self) -> usize {
        self.inner.character
    }
    /// Writes the grown rig with the baked keys over the source file,
    /// atomically (the file's other characters as they were loaded).
    #[pyo3(signature = (path, gltf_json=None))]
    fn write(&self, py: Python<'_>, path: PathBuf, gltf_json: Option<bool>) -> PyResult<()> {
        let (m, r, b) = (self.model.clone(), self.rig.clone(), self.inner.clone());
        py.core(move || {
            let rigs: Vec<&Rig> = m
                .characters
                .iter()
                .map(|c| if c.index == b.character { r.as_ref() } else { &c.rig })
                .collect();
            gltf_io::write(
                &m,
                &rigs,
                &tracks(&b),
                &path,
                &WriteOptions { force_gltf_json: gltf_json, ..Default::default() },
            )
        })
    }
    fn __repr__(&self) -> String {
        format!("Bake({} clips x {} chains)", self.inner.clip_names.len(), self.inner.chains.len())
    }
}

/// Rotation tracks as the dicts `Model.write` reads; `joints[i]` names
/// track `i`'s joint; `with_character`: the dicts name the character.
fn tracks_to_py<'py>(
    py: Python<'py>,
    tracks: &[AnimationTrack],
    joints: &[String],
    with_character: bool,
) -> PyResult<Bound<'py, PyList>> {
    let out = PyList::empty(py);
    for (t, name) in tracks.iter().zip(joints) {
        let d = PyDict::new(py);
        d.set_item("animation", &t.animation)?;
        if with_character {
            d.set_item("character", t.character)?;
        }
        d.set_item("joint", name)?;
        d.set_item("path", "rotation")?;
        d.set_item("times", array(py, t.times.clone(), &[t.times.len()])?)?;
        d.set_item(
            "values",
            array(py, t.values.iter().flat_map(|v| v.to_array()).collect(), &[t.values.len(), 4])?,
        )?;
        out.append(d)?;
    }
    Ok(out)
}

/// Bakes the clips `clips` (all when None) of `model` (a one-character
/// model, or one `Character` of a file) on `rig` (its rig with grown
/// chains; when None, the tail is detected and its chain grown with
/// default settings first) for every `Tail*` chain
/// (or the chains given as lists of joint names, root first, an unweighted
/// last joint taken as the end helper). `loops` maps clip names to 'auto',
/// 'loop', 'once' (or a bool); `spring` overrides spring parameters.
#[pyfunction]
#[pyo3(signature = (model, rig=None, clips=None, *, chains=None, **params))]
fn bake(
    py: Python<'_>,
    model: ModelOrCharacter<'_>,
    rig: Option<&PyRig>,
    clips: Option<Vec<String>>,
    chains: Option<Vec<Vec<String>>>,
    params: Option<&Bound<'_, PyDict>>,
) -> PyResult<PyBake> {
    let params = bake_params(params)?;
    let (m, character) = model.resolve()?;
    let given = rig.map(|r| r.inner.clone());
    let (m2, r2) = (m.clone(), given.clone());
    let baked = py.core(move || {
        bake_character(
            &m2,
            character,
            r2.as_deref(),
            chains.as_deref(),
            clips.as_deref(),
            &params,
            &ChainParams::default(),
        )
    })?;
    let (r, appendages) = match (baked.grown, given) {
        (Some((grown, report)), _) => (Arc::new(grown), Some(report.to_json())),
        (None, given) => {
            (given.ok_or_else(|| to_py(CaudalError::param("rig", "none given or grown")))?, None)
        }
    };
    Ok(PyBake { model: m, rig: r, inner: Arc::new(baked.bake), appendages })
}

/// Bakes one clip (sampled for every joint of `rig`, as `caudal.Clip`)
/// through one chain (joint names or indices, root first; None: the rig's
/// `Tail*` chain): warm-up passes for a loop, settling for a one-shot, then a
/// key per clip frame. `loop` is 'auto' (first and last pose equal), 'loop',
/// 'once' or a bool. What the Blender add-on bakes actions with.
#[pyfunction]
#[pyo3(signature = (rig, clip, chain=None, *, r#loop=None, **params))]
fn bake_clip(
    py: Python<'_>,
    rig: &PyRig,
    clip: &PyClip,
    chain: Option<&Bound<'_, PyAny>>,
    r#loop: Option<&Bound<'_, PyAny>>,
    params: Option<&Bound<'_, PyDict>>,
) -> PyResult<PyBakedClip> {
    // One clip at its own keys: the file-wide keywords have nothing to set.
    let why = "bake_clip keys the clip as sampled; `loop` sets its loop mode";
    refuse_keywords(params, &["rate", "loops", "default_loop"], why)?;
    let params = bake_params(params)?;
    let mode = from_py::<Option<LoopMode>>("loop", r#loop)?.unwrap_or_default();
    let chain = super::spring::chain_from(&rig.inner, chain)?;
    let (r, c) = (rig.inner.clone(), clip.inner.clone());
    let inner = py.core(move || core_bake_clip(&r, &c, &chain, mode, &params))?;
    let names = rig.inner.joint_names();
    let bones = inner.track.joints.iter().map(|&j| names[j].clone()).collect();
    Ok(PyBakedClip { inner, bones, character: None })
}

/// The rig's grown chains: dicts {bones, end, anchor} of joint names.
#[pyfunction]
fn tail_chains<'py>(py: Python<'py>, rig: &PyRig) -> PyResult<Bound<'py, PyList>> {
    let names = rig.inner.joint_names();
    let out = PyList::empty(py);
    for c in super::errors::guarded(|| find_chains(&rig.inner))? {
        let d = PyDict::new(py);
        d.set_item("bones", c.bones.iter().map(|&j| names[j].clone()).collect::<Vec<_>>())?;
        d.set_item("end", c.end.map(|j| names[j].clone()))?;
        d.set_item("anchor", names[c.anchor].clone())?;
        out.append(d)?;
    }
    Ok(out)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyBake>()?;
    m.add_class::<PyBakedClip>()?;
    m.add_function(wrap_pyfunction!(bake, m)?)?;
    m.add_function(wrap_pyfunction!(bake_clip, m)?)?;
    m.add_function(wrap_pyfunction!(tail_chains, m)?)?;
    Ok(())
}
