//! `caudal.solve_surface`, `caudal.transfer_clip`, `caudal.clip_tracks`,
//! `caudal.transfer_quality`: the surface solver (SPEC X) for Python.

use glam::Vec3;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use super::errors::Guarded;
use super::convert::*;
use super::errors::IntoPy;
use super::gltf::ModelOrCharacter;
use super::rig::{PyClip, PyRig};
use crate::error::CaudalError;
use crate::gltf_io::TrackPath;
use crate::solve::{self, heat_colours, Correspondence, SolveMode, SolveParams, SolveReport};

#[allow(clippy::too_many_arguments)]
fn params(
    mode: &str,
    constraint_budget: usize,
    max_sweeps: usize,
    progress_tolerance: f64,
    error_floor: f64,
    affine_seed: bool,
) -> PyResult<SolveParams> {
    let p = SolveParams {
        mode: SolveMode::parse("mode", mode).py_err()?,
        constraint_budget,
        max_sweeps,
        progress_tolerance,
        error_floor,
        affine_seed,
        ..SolveParams::default()
    };
    p.validate().py_err()?;
    Ok(p)
}

/// A `RuntimeWarning` when a quality is NaN: the target did not move, so
/// there was no motion to reproduce (see `solve::quality`).
fn warn_if_still(py: Python<'_>, quality: f64) -> PyResult<()> {
    if quality.is_nan() {
        let category = py.get_type::<pyo3::exceptions::PyRuntimeWarning>();
        PyErr::warn(py, &category, c"transfer quality is NaN: the target surface does not move (no motion to reproduce)", 1)?;
    }
    Ok(())
}

fn report_to_py<'py>(py: Python<'py>, r: &SolveReport, vertices: usize) -> PyResult<Bound<'py, PyDict>> {
    let q = &r.quality;
    warn_if_still(py, q.quality)?;
    let frames = q.errors.len() / vertices.max(1);
    let d = PyDict::new(py);
    d.set_item("mode", r.mode.name())?;
    d.set_item("quality", q.quality)?;
    d.set_item("diagonal", q.diagonal)?;
    d.set_item("mean_error", q.mean_error)?;
    d.set_item("worst_error", q.worst_error)?;
    d.set_item("worst_vertex", q.worst_vertex)?;
    d.set_item("worst_frame", q.worst_frame)?;
    d.set_item("frame_mean_error", q.frame_mean_error.clone())?;
    d.set_item("errors", array_f32(py, q.errors.clone(), &[frames, vertices])?)?;
    let colours: Vec<f32> = heat_colours(&q.errors, q.diagonal as f32).into_iter().flatten().collect();
    d.set_item("colours", array_f32(py, colours, &[frames, vertices, 3])?)?;
    d.set_item("constraint_vertices", r.constraint_vertices)?;
    d.set_item("sweeps", r.sweeps.clone())?;
    d.set_item("seeded_frames", r.seeded_frames)?;
    d.set_item("constraint_rms", r.constraint_rms.clone())?;
    d.set_item("bone_length_change", r.bone_length_change)?;
    Ok(d)
}

fn correspondence_to_py<'py>(py: Python<'py>, c: &Correspondence) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("scale", c.scale)?;
    d.set_item("source_centre", c.source_centre.to_array().to_vec())?;
    d.set_item("target_centre", c.target_centre.to_array().to_vec())?;
    d.set_item("rest_mean_distance", c.rest_mean_distance)?;
    d.set_item("rest_max_distance", c.rest_max_distance)?;
    d.set_item("nearest", array_u32(py, c.nearest.iter().map(|&i| i as u32).collect(), &[c.nearest.len()])?)?;
    Ok(d)
}

/// Solve `target_rig`'s per-frame bone transforms so that its own skinning
/// reproduces `surfaces` (f32[F, N, 3], bind space). Returns (clip, report).
// The text signature spells the defaults out for introspection (stubtest);
// the values are the named constants of crate::solve::params.
#[pyfunction]
#[pyo3(text_signature = "(target_rig, surfaces, *, name='solved', rate=24.0, mode='rigid', constraint_budget=5000, max_sweeps=200, progress_tolerance=1e-09, error_floor=1e-07, affine_seed=True)")]
#[pyo3(signature = (target_rig, surfaces, *, name="solved".to_string(), rate=24.0, mode="rigid".to_string(), constraint_budget=solve::params::DEFAULT_CONSTRAINT_BUDGET, max_sweeps=solve::params::DEFAULT_MAX_SWEEPS, progress_tolerance=solve::params::DEFAULT_PROGRESS_TOLERANCE, error_floor=solve::params::DEFAULT_ERROR_FLOOR, affine_seed=true))]
#[allow(clippy::too_many_arguments)]
fn solve_surface<'py>(
    py: Python<'py>,
    target_rig: &PyRig,
    surfaces: &Bound<'py, PyAny>,
    name: String,
    rate: f32,
    mode: String,
    constraint_budget: usize,
    max_sweeps: usize,
    progress_tolerance: f64,
    error_floor: f64,
    affine_seed: bool,
) -> PyResult<(PyClip, Bound<'py, PyDict>)> {
    let rig = target_rig.inner.clone();
    let n = rig.vertex_count();
    let (flat, _) = f32_flat(surfaces, "surfaces", &[None, Some(n), Some(3)])?;
    let surf: Vec<Vec3> = flat.chunks_exact(3).map(|c| Vec3::new(c[0], c[1], c[2])).collect();
    let p = params(&mode, constraint_budget, max_sweeps, progress_tolerance, error_floor, affine_seed)?;
    let solved = py.core(move || solve::solve_surface(&rig, &surf, &name, rate, &p))?;
    let report = report_to_py(py, &solved.report, n)?;
    Ok((PyClip::wrap(solved.clip), report))
}

/// Carry `clip` from `source_rig` onto `target_rig` by solving the surface.
/// Returns (clip, report); report["correspondence"] describes the mesh match.
#[pyfunction]
#[pyo3(text_signature = "(source_rig, clip, target_rig, *, mode='rigid', constraint_budget=5000, max_sweeps=200, progress_tolerance=1e-09, error_floor=1e-07, affine_seed=True)")]
#[pyo3(signature = (source_rig, clip, target_rig, *, mode="rigid".to_string(), constraint_budget=solve::params::DEFAULT_CONSTRAINT_BUDGET, max_sweeps=solve::params::DEFAULT_MAX_SWEEPS, progress_tolerance=solve::params::DEFAULT_PROGRESS_TOLERANCE, error_floor=solve::params::DEFAULT_ERROR_FLOOR, affine_seed=true))]
#[allow(clippy::too_many_arguments)]
fn transfer_clip<'py>(
    py: Python<'py>,
    source_rig: &PyRig,
    clip: &PyClip,
    target_rig: &PyRig,
    mode: String,
    constraint_budget: usize,
    max_sweeps: usize,
    progress_tolerance: f64,
    error_floor: f64,
    affine_seed: bool,
) -> PyResult<(PyClip, Bound<'py, PyDict>)> {
    let (src, c, dst) = (source_rig.inner.clone(), clip.inner.clone(), target_rig.inner.clone());
    let n = dst.vertex_count();
    let p = params(&mode, constraint_budget, max_sweeps, progress_tolerance, error_floor, affine_seed)?;
    let t = py.core(move || solve::transfer_clip(&src, &c, &dst, &p))?;
    let report = report_to_py(py, &t.solved.report, n)?;
    report.set_item("correspondence", correspondence_to_py(py, &t.correspondence)?)?;
    Ok((PyClip::wrap(t.solved.clip), report))
}

/// Transfer quality `1 - sum|skinned - target| / sum|target - rest|` of
/// `skinned` against `targets` (both f32[F, N, 3]) on `rig`, over all
/// vertices or only `vertices` (a region such as the tail). NaN, with a
/// RuntimeWarning, when the targets do not move.
#[pyfunction]
#[pyo3(signature = (rig, skinned, targets, vertices=None))]
fn transfer_quality(py: Python<'_>, rig: &PyRig, skinned: &Bound<'_, PyAny>, targets: &Bound<'_, PyAny>, vertices: Option<&Bound<'_, PyAny>>) -> PyResult<f64> {
    let r = rig.inner.clone();
    let n = r.vertex_count();
    let (s, shape) = f32_flat(skinned, "skinned", &[None, Some(n), Some(3)])?;
    let (t, _) = f32_flat(targets, "targets", &[Some(shape[0]), Some(n), Some(3)])?;
    let subset: Vec<usize> = match vertices {
        Some(v) => indices(v, "vertices", &[None], Some(n))?.0.into_iter().map(|i| i as usize).collect(),
        None => (0..n).collect(),
    };
    let to3 = |d: Vec<f32>| -> Vec<Vec3> { d.chunks_exact(3).map(|c| Vec3::new(c[0], c[1], c[2])).collect() };
    let (s, t) = (to3(s), to3(t));
    let q = py.core(move || Ok(solve::quality_over(&r, &s, &t, &subset)))?;
    warn_if_still(py, q)?;
    Ok(q)
}

/// The solved `clip` as track dicts for `Model.write` (every joint's
/// translation, rotation and scale at every frame, in the joint nodes' own
/// space), written into the animation `animation` (default: the clip's
/// name). `model` is a one-character model or the `Character` the clip
/// animates.
#[pyfunction]
#[pyo3(signature = (model, clip, animation=None))]
fn clip_tracks<'py>(py: Python<'py>, model: ModelOrCharacter<'py>, clip: &PyClip, animation: Option<String>) -> PyResult<Bound<'py, PyList>> {
    let animation = animation.unwrap_or_else(|| clip.inner.name.clone());
    let (m, character) = model.resolve()?;
    let tracks = super::errors::guarded(|| solve::clip_tracks(&m, character, &clip.inner, &animation))?;
    let names = m.characters[character].rig.joint_names();
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
        d.set_item("joint", names.get(t.joint).ok_or_else(|| super::errors::to_py(CaudalError::shape("clip", "joint out of range")))?)?;
        d.set_item("path", path)?;
        let k = t.times.len();
        d.set_item("times", array_f32(py, t.times, &[k])?)?;
        let values: Vec<f32> = t.values.iter().flat_map(|v| v.to_array()[..comps].to_vec()).collect();
        d.set_item("values", array_f32(py, values, &[k, comps])?)?;
        out.append(d)?;
    }
    Ok(out)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(solve_surface, m)?)?;
    m.add_function(wrap_pyfunction!(transfer_clip, m)?)?;
    m.add_function(wrap_pyfunction!(transfer_quality, m)?)?;
    m.add_function(wrap_pyfunction!(clip_tracks, m)?)?;
    Ok(())
}
