//! `caudal.edge_stretch`, `caudal.stretch_table`, `caudal.body_floor`,
//! `caudal.pelvis_lift`, `caudal.placement_offset`, `caudal.crouch_clip`
//! (SPEC M1, G).

use glam::Vec3;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use super::bake::rate_and_spring;
use super::convert::*;
use super::errors::Guarded;
use super::errors::IntoPy;
use super::gltf::ModelOrCharacter;
use super::rig::{PyClip, PyRig};
use super::serde_py::to_py_object;
use super::stretch_mesh::{mesh_dict, rows_list, truth_vertices};
use crate::error::CaudalError;
use crate::measure::ground::{
    body_floor as core_body_floor, crouch_clip as core_crouch, pelvis_lift as core_lift,
    placement_offset as core_place, GroundParams,
};
use crate::measure::stretch::{rig_rows, stretch_report, StretchStats, STRETCH_SAMPLES};
use crate::pipeline::StretchHarness;
use crate::rig::{JointRoles, Rig, RoleOverrides};

fn stats<'py>(py: Python<'py>, s: &StretchStats) -> PyResult<Bound<'py, PyDict>> {
    Ok(to_py_object(py, s)?.cast_into::<PyDict>()?)
}

fn joint(rig: &Rig, field: &str, name: Option<String>) -> PyResult<usize> {
    match name {
        Some(n) => rig.require_joint(field, &n).py_err(),
        None => super::errors::guarded(|| JointRoles::find(rig, &RoleOverrides::default()))?
            .pelvis
            .ok_or_else(|| {
                super::errors::to_py(CaudalError::not_found(
                    field,
                    "the rig has no pelvis role; name the joint",
                ))
            }),
    }
}

/// Edge stretch of `rig` played by `clip` (all of the rig's joints) at
/// `samples` evenly spaced times (default 24, SPEC M1). `tail_vertices`: the tail; `anchor`: the
/// joint the swing is measured against (default: the pelvis role);
/// `reference`: a Clip whose first frame is the rigid reference pose
/// (default: the bind pose). `regions`: the whole-mesh rows (tail beyond
/// the collar band, collar band, body beyond it, whole mesh).
#[pyfunction]
#[pyo3(signature = (rig, clip, tail_vertices, *, anchor=None, reference=None, samples=None))]
fn edge_stretch<'py>(
    py: Python<'py>,
    rig: &PyRig,
    clip: &PyClip,
    tail_vertices: &Bound<'py, PyAny>,
    anchor: Option<String>,
    reference: Option<&PyClip>,
    samples: Option<usize>,
) -> PyResult<Bound<'py, PyDict>> {
    let samples = samples.unwrap_or(STRETCH_SAMPLES);
    let (tail, _) =
        indices(tail_vertices, "tail_vertices", &[None], Some(rig.inner.vertex_count()))?;
    let a = joint(&rig.inner, "anchor", anchor)?;
    let reference = reference.map(|c| c.inner.frame(0).to_vec());
    let (r, c) = (rig.inner.clone(), clip.inner.clone());
    let (rep, rows) = py.core(move || -> crate::error::Result<_> {
        Ok((
            stretch_report(&r, &c, &tail, a, reference.as_deref(), samples)?,
            rig_rows(&r, &c, &tail, a, samples)?,
        ))
    })?;
    let d = to_py_object(py, &rep)?.cast_into::<PyDict>()?;
    d.set_item("regions", rows_list(py, &rows.rows, false)?)?;
    Ok(d)
}

/// The SPEC M1 table for the clips `clips` (all when None) of `model` (a
/// one-character model or one `Character` of a file, rigged as a template
/// rigger delivered it): the tail is detected and grown, the
/// chain baked, and original weights, rigid, chain and body compared, plus
/// the chain rig's collar (edges across the tail-body seam). One
/// dict per clip: rows [{rig, p95, p99, max, min, torn_share, samples,
/// amplitude_deg}], edge counts, and the bake summary.
#[pyfunction]
/// `ratios=True` adds every sampled ratio (sorted f32 array) to each row.
/// Each dict's `mesh` is the whole-mesh view (every edge: tail, collar,
/// body, whole for the rigid baseline, the rigger's rig and the repaired
/// one; edges torn by the repair; body drift); with `truth` (the true
/// tail's vertex ids) its rows follow the true tail. `grow`: `grow_chains`'
/// keywords for the repair measured (None: its defaults), so a repair made
/// with other settings is measured as it was made.
#[pyo3(signature = (model, clips=None, *, samples=None, rate=None, spring=None, ratios=false, truth=None, grow=None))]
#[allow(clippy::too_many_arguments)]
fn stretch_table<'py>(
    py: Python<'py>,
    model: ModelOrCharacter<'py>,
    clips: Option<Vec<String>>,
    samples: Option<usize>,
    rate: Option<f32>,
    spring: Option<&Bound<'py, PyDict>>,
    ratios: bool,
    truth: Option<&Bound<'py, PyAny>>,
    grow: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyList>> {
    let params = rate_and_spring(py, rate, spring)?;
    let growth = super::appendage::chain_params(py, grow)?;
    let samples = samples.unwrap_or(STRETCH_SAMPLES);
    let (m, character) = model.resolve()?;
    let names = crate::bake::select_clips(&m, clips.as_deref()).py_err()?;
    let truth = truth_vertices(truth, m.character(character).py_err()?.rig.vertex_count())?;
    let has_truth = truth.is_some();
    let results = py.core(move || -> crate::error::Result<Vec<_>> {
        let h = StretchHarness::new(&m, character, &growth, &params)?;
        names.iter().map(|n| h.compare_with(n, samples, truth.as_deref())).collect()
    })?;
    let out = PyList::empty(py);
    for c in results {
        let d = PyDict::new(py);
        d.set_item("clip", &c.clip)?;
        d.set_item("tail_vertices", c.tail_vertices)?;
        d.set_item("tail_edges", c.tail_edges)?;
        d.set_item("body_edges", c.body_edges)?;
        d.set_item("collar_edges", c.collar_edges)?;
        d.set_item("samples", c.samples)?;
        let rows = PyList::empty(py);
        for r in &c.rows {
            let row = stats(py, &r.stats)?;
            row.set_item("rig", &r.rig)?;
            row.set_item("amplitude_deg", r.motion.as_ref().map(|m| m.amplitude_deg))?;
            row.set_item("swing_deg", r.motion.as_ref().map(|m| m.swing_deg))?;
            if ratios {
                row.set_item("ratios", array(py, r.ratios.clone(), &[r.ratios.len()])?)?;
            }
            rows.append(row)?;
        }
        d.set_item("rows", rows)?;
        d.set_item("bake", super::bake::summary(py, &c.baked)?)?;
        d.set_item("mesh", mesh_dict(py, &c.mesh, has_truth, ratios)?)?;
        out.append(d)?;
    }
    Ok(out)
}

#[allow(clippy::too_many_arguments)]
fn ground_params(
    rig: &Rig,
    exclude_tail: bool,
    tail_joints: Option<Vec<String>>,
    tail_vertices: Option<&Bound<'_, PyAny>>,
    contact_joints: Option<Vec<String>>,
    contact_vertices: Option<&Bound<'_, PyAny>>,
    calibration: Option<&PyClip>,
    up: Option<&Bound<'_, PyAny>>,
) -> PyResult<GroundParams> {
    let names = |field: &str, ns: Vec<String>| -> PyResult<Vec<usize>> {
        ns.iter().map(|n| rig.require_joint(field, n)).collect::<Result<_, _>>().py_err()
    };
    let verts = |field: &str, v: Option<&Bound<'_, PyAny>>| -> PyResult<Vec<u32>> {
        match v {
            Some(v) => Ok(indices(v, field, &[None], Some(rig.vertex_count()))?.0),
            None => Ok(Vec::new()),
        }
    };
    let up = match up {
        Some(u) => {
            let (d, _) = f32_flat(u, "up", &[Some(3)])?;
            Vec3::new(d[0], d[1], d[2])
        }
        None => Vec3::Y,
    };
    Ok(GroundParams {
        exclude_tail,
        tail_joints: tail_joints.map(|t| names("tail_joints", t)).transpose()?,
        tail_vertices: verts("tail_vertices", tail_vertices)?,
        contact_joints: names("contact_joints", contact_joints.unwrap_or_default())?,
        contact_vertices: verts("contact_vertices", contact_vertices)?,
        allowed_sink: None,
        calibration: calibration.map(|c| c.inner.frame(0).to_vec()),
        up,
    })
}

/// The reference floor `f_body`: the lowest sampled body point at
/// calibration (a Clip's first frame; default the bind pose), points
/// dominated by tail bones (default: every `Tail*` chain bone) or listed as
/// tail left out unless `exclude_tail=False`.
#[pyfunction]
#[pyo3(signature = (rig, *, exclude_tail=true, tail_joints=None, tail_vertices=None, calibration=None, up=None))]
#[allow(clippy::too_many_arguments)]
fn body_floor(
    py: Python<'_>,
    rig: &PyRig,
    exclude_tail: bool,
    tail_joints: Option<Vec<String>>,
    tail_vertices: Option<&Bound<'_, PyAny>>,
    calibration: Option<&PyClip>,
    up: Option<&Bound<'_, PyAny>>,
) -> PyResult<f32> {
    let p = ground_params(
        &rig.inner,
        exclude_tail,
        tail_joints,
        tail_vertices,
        None,
        None,
        calibration,
        up,
    )?;
    let r = rig.inner.clone();
    py.core(move || core_body_floor(&r, &p))
}

/// How far to move the model along up so its body (tail skin ignored)
/// stands on `floor` in frame `frame` of `clip`.
#[pyfunction]
#[pyo3(signature = (rig, clip, *, frame=0, floor=0.0, exclude_tail=true, tail_joints=None, tail_vertices=None, up=None))]
#[allow(clippy::too_many_arguments)]
fn placement_offset(
    py: Python<'_>,
    rig: &PyRig,
    clip: &PyClip,
    frame: usize,
    floor: f32,
    exclude_tail: bool,
    tail_joints: Option<Vec<String>>,
    tail_vertices: Option<&Bound<'_, PyAny>>,
    up: Option<&Bound<'_, PyAny>>,
) -> PyResult<f32> {
    if frame >= clip.inner.frame_count() {
        return Err(CaudalError::IndexOutOfRange {
            field: "frame".into(),
            index: 0,
            value: frame as i64,
            bound: clip.inner.frame_count(),
        })
        .py_err();
    }
    let p =
        ground_params(&rig.inner, exclude_tail, tail_joints, tail_vertices, None, None, None, up)?;
    let (r, c) = (rig.inner.clone(), clip.inner.clone());
    py.core(move || core_place(&r, c.frame(frame), floor, &p))
}

/// The body-grounding pass over `clip`: f_body, c(t), L_raw(t), the pelvis
/// height before and after the lift and the body check after it (numpy
/// arrays per frame). `allowed_sink`: a(t) <= 0 per frame (default 0).
#[pyfunction]
#[pyo3(signature = (rig, clip, *, pelvis=None, exclude_tail=true, tail_joints=None, tail_vertices=None, contact_joints=None, contact_vertices=None, allowed_sink=None, calibration=None, up=None))]
#[allow(clippy::too_many_arguments)]
fn pelvis_lift<'py>(
    py: Python<'py>,
    rig: &PyRig,
    clip: &PyClip,
    pelvis: Option<String>,
    exclude_tail: bool,
    tail_joints: Option<Vec<String>>,
    tail_vertices: Option<&Bound<'py, PyAny>>,
    contact_joints: Option<Vec<String>>,
    contact_vertices: Option<&Bound<'py, PyAny>>,
    allowed_sink: Option<&Bound<'py, PyAny>>,
    calibration: Option<&PyClip>,
    up: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let mut p = ground_params(
        &rig.inner,
        exclude_tail,
        tail_joints,
        tail_vertices,
        contact_joints,
        contact_vertices,
        calibration,
        up,
    )?;
    if let Some(a) = allowed_sink {
        p.allowed_sink = Some(f32_flat(a, "allowed_sink", &[Some(clip.inner.frame_count())])?.0);
    }
    let pv = joint(&rig.inner, "pelvis", pelvis)?;
    let (r, c) = (rig.inner.clone(), clip.inner.clone());
    let g = py.core(move || core_lift(&r, &c, pv, &p))?;
    let n = g.lift.len();
    let d = PyDict::new(py);
    d.set_item("body_floor", g.body_floor)?;
    d.set_item("clearance", array(py, g.clearance, &[n])?)?;
    d.set_item("lift", array(py, g.lift, &[n])?)?;
    d.set_item("pelvis_height", array(py, g.pelvis_height, &[n])?)?;
    d.set_item("pelvis_height_lifted", array(py, g.pelvis_height_lifted, &[n])?)?;
    d.set_item("body_check", array(py, g.body_check, &[n])?)?;
    d.set_item("support_points", g.support_points)?;
    d.set_item("tail_points", g.tail_points)?;
    d.set_item("contact_points", g.contact_points)?;
    Ok(d)
}

/// A generated crouch: the pelvis sinks `depth` (world units) while two-bone
/// IK keeps both feet planted; every other joint (a tail too) at its bind
/// local. Needs pelvis, thigh and shin roles. `up` (the way the pelvis
/// rises) and `forward` (the way straight knees bend) default to the
/// character's own, as the spring and the stretch harness read them
/// (`spring::body_up`, `spring::body_facing`): +Y and the file axis it
/// faces for an upright bind, the ground's normal for a pitched one (world
/// +Y and +Z before: a pitched file crouched along the wrong line, a file
/// facing -X bent its knees sideways).
#[pyfunction]
#[pyo3(signature = (rig, depth, *, duration=1.5, rate=30.0, up=None, forward=None))]
fn crouch_clip(
    py: Python<'_>,
    rig: &PyRig,
    depth: f32,
    duration: f32,
    rate: f32,
    up: Option<&Bound<'_, PyAny>>,
    forward: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyClip> {
    let vec = |v: Option<&Bound<'_, PyAny>>, name: &str| -> PyResult<Option<Vec3>> {
        v.map(|v| f32_flat(v, name, &[Some(3)]).map(|(d, _)| Vec3::new(d[0], d[1], d[2])))
            .transpose()
    };
    let (up, forward) = (vec(up, "up")?, vec(forward, "forward")?);
    let r = rig.inner.clone();
    let c = py.core(move || {
        let (up, forward) = match (up, forward) {
            (Some(u), Some(f)) => (u, f),
            (u, f) => {
                let (own_up, own_facing) =
                    crate::spring::body_frame(&r, &crate::spring::SpringParams::default());
                (u.unwrap_or(own_up), f.unwrap_or(own_facing))
            }
        };
        core_crouch(&r, depth, duration, rate, up, forward)
    })?;
    Ok(PyClip::wrap(c))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(edge_stretch, m)?)?;
    m.add_function(wrap_pyfunction!(stretch_table, m)?)?;
    m.add_function(wrap_pyfunction!(body_floor, m)?)?;
    m.add_function(wrap_pyfunction!(placement_offset, m)?)?;
    m.add_function(wrap_pyfunction!(pelvis_lift, m)?)?;
    m.add_function(wrap_pyfunction!(crouch_clip, m)?)?;
    Ok(())
}
