//! `caudal.solve_surface`, `caudal.transfer_clip`, `caudal.Solved`,
//! `caudal.clip_tracks`, `caudal.transfer_quality`: the surface solver
//! (SPEC X) for Python.

use glam::{DVec3, Vec3};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

use super::convert::*;
use super::errors::Guarded;
use super::errors::IntoPy;
use super::gltf::ModelOrCharacter;
use super::rig::{PyClip, PyRig};
use super::serde_py::{from_py, refuse_keywords};
use crate::error::CaudalError;
use crate::gltf_io::TrackPath;
use crate::rig::Rig;
use crate::solve::{self, heat_colours, Correspondence, ReportLevel, SolveParams, SolveReport};

/// Bones named in a report's `worst_bones`.
const WORST_BONES: usize = 5;

/// Solve settings from keyword arguments (serde names, defaults from the
/// core); `transfer_only` names the keywords a surface solve must not take.
fn params(kwargs: Option<&Bound<'_, PyDict>>, transfer_only: &[&str]) -> PyResult<SolveParams> {
    refuse_keywords(kwargs, transfer_only, "a surface solve has no source mesh to align")?;
    let p: SolveParams = from_py("", kwargs.map(|k| k.as_any()))?;
    p.validate().py_err()?;
    Ok(p)
}

/// The result of a solve: the clip, its skinning matrices, the report.
/// Unpacks as `(clip, report)`.
#[pyclass(name = "Solved", module = "caudal._core", frozen)]
pub struct PySolved {
    clip: Py<PyClip>,
    skinning: Py<PyAny>,
    report: Py<PyAny>,
}

#[pymethods]
impl PySolved {
    /// The solved clip (local transforms in the target's hierarchy).
    #[getter]
    fn clip(&self, py: Python<'_>) -> Py<PyClip> {
        self.clip.clone_ref(py)
    }
    /// float64[F, B, 4, 4]: every joint's skinning matrix (bind space to
    /// posed, `posed = sum_j w_j M_j @ [v, 1]`) at every frame: the solve's
    /// own answer, which the clip's float32 transforms reproduce to float32
    /// rounding.
    #[getter]
    fn skinning(&self, py: Python<'_>) -> Py<PyAny> {
        self.skinning.clone_ref(py)
    }
    /// float32[F]: the key time of every frame, seconds.
    #[getter]
    fn times<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.clip.bind(py).getattr("times")
    }
    /// The report dict (None when solved with `report="none"`).
    #[getter]
    fn report(&self, py: Python<'_>) -> Py<PyAny> {
        self.report.clone_ref(py)
    }
    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        PyTuple::new(py, [self.clip.clone_ref(py).into_any(), self.report.clone_ref(py)])?
            .call_method0("__iter__")
    }
    fn __len__(&self) -> usize {
        2
    }
    fn __repr__(&self, py: Python<'_>) -> String {
        let c = self.clip.borrow(py);
        let quality =
            self.report.bind(py).get_item("quality").ok().and_then(|q| q.extract::<f64>().ok());
        match quality {
            Some(q) => format!(
                "Solved({:?}, {} frames, transfer quality {:.2}%)",
                c.inner.name,
                c.inner.frame_count(),
                q * 100.0
            ),
            None => format!("Solved({:?}, {} frames)", c.inner.name, c.inner.frame_count()),
        }
    }
}

fn names_of(rig: &Rig, joints: impl Iterator<Item = usize>) -> Vec<String> {
    joints.map(|j| rig.joint_names()[j].clone()).collect()
}

/// A `RuntimeWarning` when a quality is NaN: the target did not move, so
/// there was no motion to reproduce (see `solve::quality`).
fn warn_if_still(py: Python<'_>, quality: f64) -> PyResult<()> {
    if quality.is_nan() {
        let category = py.get_type::<pyo3::exceptions::PyRuntimeWarning>();
        PyErr::warn(
            py,
            &category,
            c"transfer quality is NaN: the target surface does not move (no motion to reproduce)",
            1,
        )?;
    }
    Ok(())
}

fn report_to_py<'py>(
    py: Python<'py>,
    r: &SolveReport,
    rig: &Rig,
    level: ReportLevel,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("mode", r.mode.name())?;
    d.set_item("report", level.name())?;
    d.set_item("constraint_vertices", r.constraint_vertices)?;
    d.set_item("sweeps", r.sweeps.clone())?;
    d.set_item("seeded_frames", r.seeded_frames)?;
    d.set_item("constraint_rms", r.constraint_rms.clone())?;
    d.set_item("looped", r.looped)?;
    d.set_item("bone_length_change", r.bone_length_change)?;
    d.set_item("bone_length_changes", r.bone_length_changes.clone())?;
    d.set_item("bone_stretch", r.bone_stretch.clone())?;
    d.set_item("stretch_bound", r.stretch_bound)?;
    d.set_item("source_bone_length_change", r.source_bone_length_change)?;
    let stretched = PyList::empty(py);
    for j in r.stretched_bones() {
        stretched.append((rig.joint_names()[j].clone(), r.bone_length_changes[j]))?;
    }
    d.set_item("stretched_bones", stretched)?;
    let Some(q) = &r.quality else { return Ok(d) };
    let n = rig.vertex_count();
    warn_if_still(py, q.quality)?;
    d.set_item("quality", q.quality)?;
    d.set_item("quality_keys", q.quality_keys)?;
    d.set_item("quality_halfway", q.quality_halfway)?;
    d.set_item("diagonal", q.diagonal)?;
    d.set_item("mean_error", q.mean_error)?;
    d.set_item("worst_error", q.worst_error)?;
    d.set_item("worst_vertex", q.worst_vertex)?;
    d.set_item("worst_time", q.worst_time)?;
    d.set_item("worst_frame", q.worst_frame)?;
    d.set_item("frame_mean_error", q.frame_mean_error.clone())?;
    d.set_item("bone_errors", q.bone_errors.clone())?;
    let mut order: Vec<usize> =
        (0..q.bone_errors.len()).filter(|&j| q.bone_errors[j] > 0.0).collect();
    order.sort_by(|&a, &b| q.bone_errors[b].total_cmp(&q.bone_errors[a]).then(a.cmp(&b)));
    let worst = PyList::empty(py);
    for (name, j) in names_of(rig, order.iter().copied().take(WORST_BONES)).into_iter().zip(&order)
    {
        worst.append((name, q.bone_errors[*j]))?;
    }
    d.set_item("worst_bones", worst)?;
    if level == ReportLevel::Full {
        let frames = q.errors.len() / n.max(1);
        d.set_item("errors", array(py, q.errors.clone(), &[frames, n])?)?;
        let colours: Vec<f32> =
            heat_colours(&q.errors, q.diagonal as f32).into_iter().flatten().collect();
        d.set_item("colours", array(py, colours, &[frames, n, 3])?)?;
    }
    Ok(d)
}

fn correspondence_to_py<'py>(
    py: Python<'py>,
    c: &Correspondence,
    level: ReportLevel,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let a = &c.alignment;
    d.set_item("alignment", a.mode.name())?;
    d.set_item("scale", a.scale)?;
    d.set_item("rotation", array(py, a.rotation.transpose().to_cols_array().to_vec(), &[3, 3])?)?;
    d.set_item("translation", a.translation.to_array().to_vec())?;
    let (mean, max) = c.gap_summary();
    d.set_item("gap_mean", mean)?;
    d.set_item("gap_max", max)?;
    if level == ReportLevel::Full {
        let n = c.vertex_count();
        let gap: Vec<f32> = c.gap.iter().map(|&g| g as f32).collect();
        let colours: Vec<f32> =
            heat_colours(&gap, c.diagonal as f32).into_iter().flatten().collect();
        d.set_item("gap", array(py, gap, &[n])?)?;
        d.set_item("gap_colours", array(py, colours, &[n, 3])?)?;
        d.set_item("triangle", array(py, c.triangle.iter().map(|&t| t as u32).collect(), &[n])?)?;
        let bary: Vec<f32> = c.barycentric.iter().flat_map(|b| b.map(|x| x as f32)).collect();
        d.set_item("barycentric", array(py, bary, &[n, 3])?)?;
    }
    Ok(d)
}

fn wrap<'py>(
    py: Python<'py>,
    solved: solve::Solved,
    rig: &Rig,
    level: ReportLevel,
    corr: Option<&Correspondence>,
) -> PyResult<PySolved> {
    let b = rig.joint_count();
    let frames = solved.clip.frame_count();
    // numpy's m[row, col]: glam's columns, transposed.
    let flat: Vec<f64> =
        solved.skinning.iter().flat_map(|m| m.transpose().to_cols_array()).collect();
    let skinning = array(py, flat, &[frames, b, 4, 4])?.unbind();
    let report = match level {
        ReportLevel::None => py.None(),
        _ => {
            let d = report_to_py(py, &solved.report, rig, level)?;
            if let Some(c) = corr {
                d.set_item("correspondence", correspondence_to_py(py, c, level)?)?;
            }
            d.into_any().unbind()
        }
    };
    Ok(PySolved { clip: Py::new(py, PyClip::wrap(solved.clip))?, skinning, report })
}

fn key_times(times: Option<&Bound<'_, PyAny>>, frames: usize) -> PyResult<Option<Vec<f32>>> {
    times.map(|t| f32_flat(t, "times", &[Some(frames)]).map(|(v, _)| v)).transpose()
}

/// The solve of `surfaces` (either precision) at `keys` (None: evenly at
/// `rate`), without the GIL.
fn solve_at<P>(
    py: Python<'_>,
    rig: &Rig,
    surfaces: Vec<P>,
    keys: Option<Vec<f32>>,
    name: String,
    rate: f32,
    p: SolveParams,
) -> PyResult<solve::Solved>
where
    P: Send + 'static,
    [P]: solve::Positions,
{
    let r = rig.clone();
    py.core(move || match keys {
        Some(t) => solve::solve_keys(&r, &surfaces[..], &name, solve::Keys::Times(&t), &p),
        None => solve::solve_surface(&r, &surfaces[..], &name, rate, &p),
    })
}

/// Solve `target_rig`'s per-frame bone transforms so that its own skinning
/// reproduces `surfaces` ([F, N, 3], bind space; float64 stays float64).
/// Keywords: the core's `SolveParams` (mode, report, constraint_budget, ...).
// The text signature spells `name`'s default out for introspection.
#[pyfunction]
#[pyo3(
    text_signature = "(target_rig, surfaces, *, name='solved', rate=24.0, times=None, **params)"
)]
#[pyo3(signature = (target_rig, surfaces, *, name="solved".to_string(), rate=24.0, times=None, **params))]
fn solve_surface(
    py: Python<'_>,
    target_rig: &PyRig,
    surfaces: &Bound<'_, PyAny>,
    name: String,
    rate: f32,
    times: Option<&Bound<'_, PyAny>>,
    params: Option<&Bound<'_, PyDict>>,
) -> PyResult<PySolved> {
    let rig = target_rig.inner.clone();
    let n = rig.vertex_count();
    let p = self::params(params, &["alignment", "max_median_gap"])?;
    let level = p.report;
    let solved = if is_float64(surfaces)? {
        let (flat, shape) = f64_flat(surfaces, "surfaces", &[None, Some(n), Some(3)])?;
        let surf: Vec<DVec3> = flat.chunks_exact(3).map(|c| DVec3::new(c[0], c[1], c[2])).collect();
        let keys = key_times(times, shape[0])?;
        solve_at(py, &rig, surf, keys, name, rate, p)?
    } else {
        let (flat, shape) = f32_flat(surfaces, "surfaces", &[None, Some(n), Some(3)])?;
        let surf: Vec<Vec3> = flat.chunks_exact(3).map(|c| Vec3::new(c[0], c[1], c[2])).collect();
        let keys = key_times(times, shape[0])?;
        solve_at(py, &rig, surf, keys, name, rate, p)?
    };
    wrap(py, solved, &rig, level, None)
}

/// Carry `clip` from `source_rig` onto `target_rig` by solving the surface;
/// the solved clip keeps the clip's frame times. report["correspondence"]
/// describes the alignment and the gap between the meshes. Keywords: the
/// core's `SolveParams`, alignment and max_median_gap included.
#[pyfunction]
#[pyo3(signature = (source_rig, clip, target_rig, **params))]
fn transfer_clip(
    py: Python<'_>,
    source_rig: &PyRig,
    clip: &PyClip,
    target_rig: &PyRig,
    params: Option<&Bound<'_, PyDict>>,
) -> PyResult<PySolved> {
    let (src, c, dst) = (source_rig.inner.clone(), clip.inner.clone(), target_rig.inner.clone());
    let p = self::params(params, &[])?;
    let level = p.report;
    let d = dst.clone();
    let t = py.core(move || solve::transfer_clip(&src, &c, &d, &p))?;
    wrap(py, t.solved, &dst, level, Some(&t.correspondence))
}

/// Transfer quality `1 - sum|skinned - target| / sum|target - rest|` of
/// `skinned` against `targets` (both f32[F, N, 3]) on `rig`, over all
/// vertices or only `vertices` (a region such as the tail). NaN, with a
/// RuntimeWarning, when the targets do not move.
#[pyfunction]
#[pyo3(signature = (rig, skinned, targets, vertices=None))]
fn transfer_quality(
    py: Python<'_>,
    rig: &PyRig,
    skinned: &Bound<'_, PyAny>,
    targets: &Bound<'_, PyAny>,
    vertices: Option<&Bound<'_, PyAny>>,
) -> PyResult<f64> {
    let r = rig.inner.clone();
    let n = r.vertex_count();
    let (s, shape) = f64_flat(skinned, "skinned", &[None, Some(n), Some(3)])?;
    let (t, _) = f64_flat(targets, "targets", &[Some(shape[0]), Some(n), Some(3)])?;
    let subset: Vec<usize> = match vertices {
        Some(v) => {
            indices(v, "vertices", &[None], Some(n))?.0.into_iter().map(|i| i as usize).collect()
        }
        None => (0..n).collect(),
    };
    let to3 = |d: Vec<f64>| -> Vec<DVec3> {
        d.chunks_exact(3).map(|c| DVec3::new(c[0], c[1], c[2])).collect()
    };
    let (s, t) = (to3(s), to3(t));
    let q = py.core(move || Ok(solve::quality_over(&r, &s, &t, &subset)))?;
    warn_if_still(py, q)?;
    Ok(q)
}

/// The solved `clip` as track dicts for `Model.write` (every joint's
/// translation, rotation and scale at every frame's time, in the joint
/// nodes' own space), written into the animation `animation` (default: the
/// clip's name). `model` is a one-character model or the `Character` the
/// clip animates. `rig` is the rig the clip animates when it is not that
/// character's own: its rig with grown joints (write with
/// `Model.write(path, rig=rig, tracks=...)`).
#[pyfunction]
#[pyo3(signature = (model, clip, animation=None, rig=None))]
fn clip_tracks<'py>(
    py: Python<'py>,
    model: ModelOrCharacter<'py>,
    clip: &PyClip,
    animation: Option<String>,
    rig: Option<&PyRig>,
) -> PyResult<Bound<'py, PyList>> {
    let animation = animation.unwrap_or_else(|| clip.inner.name.clone());
    let (m, character) = model.resolve()?;
    let rig = rig.map_or(&m.characters[character].rig, |r| &*r.inner);
    let tracks = super::errors::guarded(|| {
        solve::clip_tracks_for(&m, character, rig, &clip.inner, &animation)
    })?;
    let names = rig.joint_names();
    let out = PyList::empty(py);
    for t in tracks {
        let d = PyDict::new(py);
        let (path, comps) = match t.path {
            TrackPath::Translation => ("translation", 3),
            TrackPath::Rotation => ("rotation", 4),
            TrackPath::Scale => ("scale", 3),
        };
        d.set_item("animation", &t.animation)?;
        d.set_item("character", t.character)?;
        d.set_item(
            "joint",
            names.get(t.joint).ok_or_else(|| {
                super::errors::to_py(CaudalError::shape("clip", "joint out of range"))
            })?,
        )?;
        d.set_item("path", path)?;
        let k = t.times.len();
        d.set_item("times", array(py, t.times, &[k])?)?;
        let values: Vec<f32> =
            t.values.iter().flat_map(|v| v.to_array()[..comps].to_vec()).collect();
        d.set_item("values", array(py, values, &[k, comps])?)?;
        out.append(d)?;
    }
    Ok(out)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PySolved>()?;
    m.add_function(wrap_pyfunction!(solve_surface, m)?)?;
    m.add_function(wrap_pyfunction!(transfer_clip, m)?)?;
    m.add_function(wrap_pyfunction!(transfer_quality, m)?)?;
    m.add_function(wrap_pyfunction!(clip_tracks, m)?)?;
    Ok(())
}
