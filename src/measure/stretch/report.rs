//! One rig on one clip: tail edges, body edges and the tail's motion from
//! one skinning pass per sampled time.

use glam::Vec3;

use super::motion::{carried_tip, tail_ends, TailMotion};
use super::stats::{mesh_edges, StretchStats};
use crate::error::{CaudalError, Result};
use crate::rig::{skin_matrices, skin_vertices, world_matrices, Clip, Rig, Trs};

/// Frames at `samples` evenly spaced times `i · duration / samples`,
/// `i = 0..samples` (a loop's end is its start, so it is not sampled twice),
/// each rounded to the nearest frame.
pub fn sample_frames(frame_count: usize, samples: usize) -> Vec<usize> {
    if frame_count <= 1 {
        return vec![0; samples.min(frame_count)];
    }
    let span = (frame_count - 1) as f64;
    (0..samples)
        .map(|i| ((i as f64 * span / samples as f64).round() as usize).min(frame_count - 1))
        .collect()
}

/// `samples` in `1..=MAX_STRETCH_SAMPLES`.
pub fn check_samples(samples: usize) -> Result<()> {
    use super::MAX_STRETCH_SAMPLES;
    if samples == 0 {
        return Err(CaudalError::param("samples", "must be >= 1"));
    }
    if samples > MAX_STRETCH_SAMPLES {
        return Err(CaudalError::param("samples", format!("{samples} is above the bound {MAX_STRETCH_SAMPLES} (at most that many times per clip)")));
    }
    Ok(())
}

/// Edge stretch of one rig on one clip (SPEC M1), with how far its tail
/// moves. Serialised without the sorted ratios (long; for plots).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct StretchReport {
    /// Edges with both ends on the tail.
    pub tail: StretchStats,
    /// Edges with neither end on the tail: the baseline of ordinary skinning.
    pub body: StretchStats,
    /// How far the tail tip swings relative to the carry pose.
    pub motion: TailMotion,
    /// Edges with one end on the tail and one off it: the seam where the
    /// tail joins the body (T9 blends the root segment with the pelvis so
    /// this does not crease); neither tail nor body, so reported apart.
    pub collar: StretchStats,
    /// Edges in the tail row.
    pub tail_edges: usize,
    /// Edges in the body row.
    pub body_edges: usize,
    /// Edges in the collar row.
    pub collar_edges: usize,
    /// The clip frames sampled.
    pub frames: Vec<usize>,
    /// Every tail ratio, sorted (for plots of the distributions).
    #[serde(skip)]
    pub tail_ratios: Vec<f32>,
    /// Every body ratio, sorted.
    #[serde(skip)]
    pub body_ratios: Vec<f32>,
    /// Every collar ratio, sorted.
    #[serde(skip)]
    pub collar_ratios: Vec<f32>,
}

/// Edge stretch of `rig` played by `clip` at `samples` times. `tail` lists
/// the tail's vertices; edges with both ends on it are tail edges, edges
/// with neither end on it body edges, edges with one end on it the collar.
/// The motion is measured about `anchor` (the pelvis) against `reference`
/// locals (the rigid carry pose; `None`: the bind pose).
pub fn stretch_report(
    rig: &Rig,
    clip: &Clip,
    tail: &[u32],
    anchor: usize,
    reference: Option<&[Trs]>,
    samples: usize,
) -> Result<StretchReport> {
    clip.check_joints(rig)?;
    check_samples(samples)?;
    if let Some(r) = reference {
        if r.len() != rig.joint_count() {
            return Err(CaudalError::shape(
                "reference",
                format!("{} locals for {} joints", r.len(), rig.joint_count()),
            ));
        }
    }
    rig.require_triangles("edge stretch")?;
    let ends = tail_ends(rig, tail, anchor)?;
    let mut on_tail = vec![false; rig.vertex_count()];
    for &v in tail {
        on_tail[v as usize] = true;
    }
    let min_len = 1e-6 * rig.diagonal();
    let bind = rig.vertices();
    let long_enough =
        |&(a, b): &(u32, u32)| (bind[a as usize] - bind[b as usize]).length() > min_len;
    // One pass over the mesh's edges: both ends on the tail, neither, or one
    // (the collar).
    let (mut tail_edges, mut body_edges, mut collar_edges) = (Vec::new(), Vec::new(), Vec::new());
    for e in mesh_edges(rig.triangles(), |_| true).into_iter().filter(long_enough) {
        match (on_tail[e.0 as usize], on_tail[e.1 as usize]) {
            (true, true) => tail_edges.push(e),
            (false, false) => body_edges.push(e),
            _ => collar_edges.push(e),
        }
    }

    let order = rig.topological_order();
    let reference_tip = {
        let locals = reference.map(|r| r.to_vec()).unwrap_or_else(|| rig.bind_locals());
        let worlds = world_matrices(rig.parents(), order, &locals);
        let skins = skin_matrices(rig, &worlds);
        let posed = skin_vertices(rig, &skins);
        carried_tip(&posed, &ends.tip, &skins[anchor])
    };
    let ref_dir = reference_tip - ends.root;

    let frames = sample_frames(clip.frame_count(), samples);
    let ratio = |posed: &[Vec3], &(a, b): &(u32, u32)| {
        (posed[a as usize] - posed[b as usize]).length()
            / (bind[a as usize] - bind[b as usize]).length()
    };
    let mut tail_r = Vec::with_capacity(tail_edges.len() * frames.len());
    let mut body_r = Vec::with_capacity(body_edges.len() * frames.len());
    let mut collar_r = Vec::with_capacity(collar_edges.len() * frames.len());
    let mut dirs = Vec::with_capacity(frames.len());
    for &f in &frames {
        let worlds = world_matrices(rig.parents(), order, clip.frame(f));
        let skins = skin_matrices(rig, &worlds);
        let posed = skin_vertices(rig, &skins);
        tail_r.extend(tail_edges.iter().map(|e| ratio(&posed, e)));
        body_r.extend(body_edges.iter().map(|e| ratio(&posed, e)));
        collar_r.extend(collar_edges.iter().map(|e| ratio(&posed, e)));
        let tip = carried_tip(&posed, &ends.tip, &skins[anchor]);
        dirs.push(tip - ends.root);
    }
    tail_r.sort_by(f32::total_cmp);
    body_r.sort_by(f32::total_cmp);
    collar_r.sort_by(f32::total_cmp);
    Ok(StretchReport {
        tail: StretchStats::from_ratios(tail_r.clone()),
        body: StretchStats::from_ratios(body_r.clone()),
        collar: StretchStats::from_ratios(collar_r.clone()),
        collar_ratios: collar_r,
        collar_edges: collar_edges.len(),
        tail_ratios: tail_r,
        body_ratios: body_r,
        motion: TailMotion::from_directions(&dirs, ref_dir),
        tail_edges: tail_edges.len(),
        body_edges: body_edges.len(),
        frames,
    })
}
