//! `caudal.find_appendages`, `caudal.grow_chains`,
//! `caudal.weighted_bone_distance` (SPEC T1-T10). Parameters are keyword
//! arguments whose defaults are the core's; reports come back as plain
//! dicts (the JSON the CLI writes) with each part's vertex indices added.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use super::convert::{array, indices};
use super::errors::Guarded;
use super::errors::IntoPy;
use super::rig::PyRig;
use crate::appendage::{find_appendages as core_find, BroadPolicy, DetectParams, Report};
use crate::chain::{grow_chains as core_grow, ChainParams, TailFix};
use crate::measure::weighted_bone_distances;
use crate::rig::RoleOverrides;

#[allow(clippy::too_many_arguments)]
fn detect_params(
    far_ratio: Option<f32>,
    min_centroid_ratio: Option<f32>,
    min_elongation: Option<f32>,
    min_tube_ratio: Option<f32>,
    min_slenderness: Option<f32>,
    attachment_bias: Option<f32>,
    merge_overlap: Option<f32>,
    min_protrusion_ratio: Option<f32>,
    min_tail_length_ratio: Option<f32>,
    min_part_vertices: Option<usize>,
    broad: Option<&str>,
    pelvis: Option<String>,
) -> PyResult<DetectParams> {
    let d = DetectParams::default();
    Ok(DetectParams {
        far_ratio: far_ratio.unwrap_or(d.far_ratio),
        min_centroid_ratio: min_centroid_ratio.unwrap_or(d.min_centroid_ratio),
        min_elongation: min_elongation.unwrap_or(d.min_elongation),
        min_tube_ratio: min_tube_ratio.unwrap_or(d.min_tube_ratio),
        min_slenderness: min_slenderness.unwrap_or(d.min_slenderness),
        attachment_bias: attachment_bias.unwrap_or(d.attachment_bias),
        merge_overlap: merge_overlap.unwrap_or(d.merge_overlap),
        min_protrusion_ratio: min_protrusion_ratio.unwrap_or(d.min_protrusion_ratio),
        min_tail_length_ratio: min_tail_length_ratio.unwrap_or(d.min_tail_length_ratio),
        min_part_vertices: min_part_vertices.unwrap_or(d.min_part_vertices),
        broad: broad
            .map(|b| BroadPolicy::parse("broad", b))
            .transpose()
            .py_err()?
            .unwrap_or(d.broad),
        roles: RoleOverrides { pelvis, ..Default::default() },
        ..d
    })
}

/// The report as a dict (via its JSON), each part with `vertices` (u32).
fn report_to_py<'py>(py: Python<'py>, report: &Report) -> PyResult<Bound<'py, PyAny>> {
    let json = py.import("json")?;
    let obj = json.call_method1("loads", (report.to_json(),))?;
    let parts = obj.get_item("parts")?.cast_into::<PyList>()?;
    for (p, part) in report.parts.iter().zip(parts.iter()) {
        let d = part.cast_into::<PyDict>()?;
        d.set_item("vertices", array(py, p.vertices.clone(), &[p.vertices.len()])?)?;
    }
    Ok(obj)
}

/// Finds the appendages of `rig` (SPEC T1-T6) without changing anything:
/// a report dict with every part found, rejected ones too.
#[pyfunction]
#[pyo3(signature = (rig, *, far_ratio=None, min_centroid_ratio=None, min_elongation=None, min_tube_ratio=None, min_slenderness=None, attachment_bias=None, merge_overlap=None, min_protrusion_ratio=None, min_tail_length_ratio=None, min_part_vertices=None, broad=None, pelvis=None))]
#[allow(clippy::too_many_arguments)]
fn find_appendages<'py>(
    py: Python<'py>,
    rig: &PyRig,
    far_ratio: Option<f32>,
    min_centroid_ratio: Option<f32>,
    min_elongation: Option<f32>,
    min_tube_ratio: Option<f32>,
    min_slenderness: Option<f32>,
    attachment_bias: Option<f32>,
    merge_overlap: Option<f32>,
    min_protrusion_ratio: Option<f32>,
    min_tail_length_ratio: Option<f32>,
    min_part_vertices: Option<usize>,
    broad: Option<&str>,
    pelvis: Option<String>,
) -> PyResult<Bound<'py, PyAny>> {
    let params = detect_params(
        far_ratio,
        min_centroid_ratio,
        min_elongation,
        min_tube_ratio,
        min_slenderness,
        attachment_bias,
        merge_overlap,
        min_protrusion_ratio,
        min_tail_length_ratio,
        min_part_vertices,
        broad,
        pelvis,
    )?;
    let r = rig.inner.clone();
    let report = py.core(move || core_find(&r, &params))?;
    report_to_py(py, &report)
}

/// Finds the appendages and fixes them: a `Tail_1..Tail_K` + `Tail_End`
/// chain per tail (`rigid=True`: all tail weight on the pelvis instead),
/// carried parts rigid on their bone, broad parts untouched unless
/// `broad="rigid"`. `reserved_names`: names new joints must not take (the
/// other characters' joints and chains of the same file, so that chain
/// names stay unique in it). Returns `(new_rig, report)`; `rig` is not
/// changed.
#[pyfunction]
#[pyo3(signature = (rig, *, rigid=false, broad=None, far_ratio=None, min_centroid_ratio=None, min_elongation=None, min_tube_ratio=None, min_slenderness=None, attachment_bias=None, merge_overlap=None, min_protrusion_ratio=None, min_tail_length_ratio=None, min_part_vertices=None, pelvis=None, segment_ratio=None, min_bones=None, max_bones=None, smoothing_passes=None, joint_blend=None, segment_thickness=None, handover_radii=None, reserved_names=None))]
#[allow(clippy::too_many_arguments)]
fn grow_chains<'py>(
    py: Python<'py>,
    rig: &PyRig,
    rigid: bool,
    broad: Option<&str>,
    far_ratio: Option<f32>,
    min_centroid_ratio: Option<f32>,
    min_elongation: Option<f32>,
    min_tube_ratio: Option<f32>,
    min_slenderness: Option<f32>,
    attachment_bias: Option<f32>,
    merge_overlap: Option<f32>,
    min_protrusion_ratio: Option<f32>,
    min_tail_length_ratio: Option<f32>,
    min_part_vertices: Option<usize>,
    pelvis: Option<String>,
    segment_ratio: Option<f32>,
    min_bones: Option<usize>,
    max_bones: Option<usize>,
    smoothing_passes: Option<usize>,
    joint_blend: Option<f32>,
    segment_thickness: Option<f32>,
    handover_radii: Option<f32>,
    reserved_names: Option<Vec<String>>,
) -> PyResult<(PyRig, Bound<'py, PyAny>)> {
    let detect = detect_params(
        far_ratio,
        min_centroid_ratio,
        min_elongation,
        min_tube_ratio,
        min_slenderness,
        attachment_bias,
        merge_overlap,
        min_protrusion_ratio,
        min_tail_length_ratio,
        min_part_vertices,
        broad,
        pelvis,
    )?;
    let d = ChainParams::default();
    let params = ChainParams {
        detect,
        tail_fix: if rigid { TailFix::Rigid } else { TailFix::Chain },
        segment_ratio: segment_ratio.unwrap_or(d.segment_ratio),
        min_bones: min_bones.unwrap_or(d.min_bones),
        max_bones: max_bones.unwrap_or(d.max_bones),
        smoothing_passes: smoothing_passes.unwrap_or(d.smoothing_passes),
        joint_blend: joint_blend.unwrap_or(d.joint_blend),
        segment_thickness: segment_thickness.unwrap_or(d.segment_thickness),
        handover_radii: handover_radii.unwrap_or(d.handover_radii),
        reserved_names: reserved_names.unwrap_or_default(),
    };
    let r = rig.inner.clone();
    let (out, report) = py.core(move || core_grow(&r, &params))?;
    Ok((PyRig::wrap(out), report_to_py(py, &report)?))
}

/// Weighted bone distance (SPEC T10): per vertex `sum_j w_j d(p, bone_j)`.
/// The mean over `vertices` (all when None), or the per-vertex values with
/// `per_vertex=True`.
#[pyfunction]
#[pyo3(signature = (rig, vertices=None, *, per_vertex=false))]
fn weighted_bone_distance<'py>(
    py: Python<'py>,
    rig: &PyRig,
    vertices: Option<&Bound<'py, PyAny>>,
    per_vertex: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let n = rig.inner.vertex_count();
    let vs =
        vertices.map(|v| indices(v, "vertices", &[None], Some(n))).transpose()?.map(|(v, _)| v);
    let r = rig.inner.clone();
    let d = py.core(move || weighted_bone_distances(&r, vs.as_deref()))?;
    if per_vertex {
        let len = d.len();
        return array(py, d, &[len]);
    }
    let mean =
        if d.is_empty() { 0.0 } else { d.iter().map(|&x| x as f64).sum::<f64>() / d.len() as f64 };
    Ok(mean.into_pyobject(py)?.into_any())
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(find_appendages, m)?)?;
    m.add_function(wrap_pyfunction!(grow_chains, m)?)?;
    m.add_function(wrap_pyfunction!(weighted_bone_distance, m)?)?;
    Ok(())
}
