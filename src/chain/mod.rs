//! Fixes: rigid binding (T7) and chain growth with geodesic weights (T8,
//! T9), for every part the detection decided on. Inputs are never changed:
//! [`grow_chains`] returns a new rig and the report.

mod apply;
mod file;
mod grow;
mod handover;
mod params;
mod weights;

pub use apply::chain_bind;
pub use file::grow_file_chains;
pub use grow::{
    bone_count, chain_joints, tail_thickness, thickness_cap, EMPTY_BAND_FALLBACK, JOINT_RING_SLACK,
};
pub use handover::{
    pelvis_share, pelvis_share_from, starting_share, HANDOVER_RADII, MAX_HANDOVER_RADII,
};
pub use params::{
    ChainParams, TailFix, JOINT_BLEND, MAX_BONES, MIN_BONES, SEGMENT_RATIO, SEGMENT_THICKNESS,
    SMOOTHING_PASSES,
};
pub use weights::chain_weights;

use crate::appendage::{detect, Decision, Kind, Report};
use crate::error::Result;
use crate::geometry::{BoneDistance, MeasuredDistances, Weld};
use crate::rig::{bone_name, chain_prefix, end_name, Rig};
use apply::{apply, NewJoint};

/// Detects the appendages of `rig` and fixes them: a bone chain for every
/// tail (or rigid on the joint it would hang from with [`TailFix::Rigid`]),
/// rigid binding for carried parts (and broad ones when asked). A tail
/// hangs from the joint detection named (the pelvis, or the trunk joint
/// moving the rump skin when the pelvis moves none:
/// [`crate::appendage::chain_anchor`]). Returns the new rig and the report
/// with bone distances before and after.
pub fn grow_chains(rig: &Rig, params: &ChainParams) -> Result<(Rig, Report)> {
    params.validate()?;
    let det = detect(rig, &params.detect)?;
    let mut report = det.report;
    let (height, positions, graph) = (report.height, &det.weld.positions, &det.graph);
    let mut rows: Vec<Option<Vec<(u32, f32)>>> = vec![None; rig.vertex_count()];
    let mut joints: Vec<NewJoint> = Vec::new();
    let pelvis = det.roles.pelvis;

    // Longest tail first, so the main tail is `Tail_*`.
    let mut tails: Vec<usize> =
        (0..report.parts.len()).filter(|&i| report.parts[i].decision == Decision::Chain).collect();
    tails.sort_by(|&a, &b| det.parts[b].length.total_cmp(&det.parts[a].length).then(a.cmp(&b)));

    for &i in &tails {
        let Some(anchor) = pelvis.and(report.parts[i].attachment_joint) else { continue };
        let part = &det.parts[i];
        if params.tail_fix == TailFix::Rigid {
            let r = &mut report.parts[i];
            r.decision = Decision::Rigid;
            let name = &rig.joint_names()[anchor];
            r.reason.push_str(&format!("; tail_fix=rigid: all weight on {name} (step one)"));
            r.rigid_joint = Some(name.clone());
            for &v in &r.vertices {
                rows[v as usize] = Some(vec![(anchor as u32, 1.0)]);
            }
            continue;
        }
        let k = bone_count(
            part.length,
            height,
            params.segment_ratio,
            params.min_bones,
            params.max_bones,
        );
        let mut heads = chain_joints(part, positions, graph, k, params.smoothing_passes);
        let thickness = tail_thickness(part, &det.weld.positions, &heads);
        let capped =
            thickness_cap(k, part.length, thickness, params.segment_thickness, params.min_bones);
        let k = if capped < k {
            heads = chain_joints(part, positions, graph, capped, params.smoothing_passes);
            capped
        } else {
            k
        };
        let taken = |name: &str| {
            rig.joint_index(name).is_some()
                || joints.iter().any(|j| j.name == name)
                || params.reserved_names.iter().any(|r| r == name)
        };
        let prefix = chain_prefix(&taken);
        let anchor_bind = rig.bind_world()[anchor];
        let first = rig.joint_count() + joints.len();
        let mut bones = vec![anchor as u32];
        let mut names = Vec::new();
        for (b, &head) in heads.iter().enumerate() {
            let name = if b < k { bone_name(&prefix, b + 1) } else { end_name(&prefix) };
            let parent = if b == 0 { anchor } else { first + b - 1 };
            joints.push(NewJoint {
                name: name.clone(),
                parent,
                bind_world: chain_bind(&anchor_bind, head),
            });
            if b < k {
                bones.push((first + b) as u32);
                names.push(name);
            }
        }
        let chain_rows: Vec<Vec<(u32, f32)>> = part
            .geodesic
            .iter()
            .map(|&g| chain_weights(g, part.length, &bones, params.joint_blend))
            .collect();
        let (chain_rows, handed, width) = hand_over(
            rig,
            (&det.weld, &det.graph, &det.roles),
            anchor as u32,
            part,
            chain_rows,
            params.handover_radii,
            part.length / k as f32,
        );
        give_rows(&mut rows, &det.weld, &part.welded, chain_rows);
        let r = &mut report.parts[i];
        r.bone_count = k;
        r.bones = names;
        r.handover_vertices = handed;
        r.handover_width = width;
    }

    for r in report.parts.iter_mut() {
        if r.decision == Decision::Rigid && r.rigid_joint.is_none() {
            if let Some(j) = r.attachment_joint {
                r.rigid_joint = Some(rig.joint_names()[j].clone());
                for &v in &r.vertices {
                    rows[v as usize] = Some(vec![(j as u32, 1.0)]);
                }
            }
        }
        if r.kind == Kind::Tail && pelvis.is_none() {
            r.decision = Decision::Untouched;
        }
    }

    let out = apply(rig, &joints, &rows)?;
    distances_after(&out, &det.bone_distances, &rows, &mut report)?;
    Ok((out, report))
}

/// Each part's bone distance on the grown rig `out`: where a vertex's row
/// (`rows`: `None` where it stays) and its joints' bones stay, the one
/// detection measured (`measured`), the same number.
fn distances_after(
    out: &Rig,
    measured: &MeasuredDistances,
    rows: &[Option<Vec<(u32, f32)>>],
    report: &mut Report,
) -> Result<()> {
    let bone_distance = BoneDistance::new(out);
    let same_bones = bone_distance.same_bones_as(measured);
    let kept_row = |v: usize| rows[v].is_none();
    for r in report.parts.iter_mut() {
        r.bone_distance_after =
            Some(bone_distance.mean_after(&r.vertices, measured, &same_bones, kept_row)?);
    }
    Ok(())
}

/// Each welded vertex's row (`chain_rows`, aligned with `welded`) to the
/// rig's vertices welded into it: moved to its last, copied to the others
/// (seam copies, few).
fn give_rows(
    rows: &mut [Option<Vec<(u32, f32)>>],
    weld: &Weld,
    welded: &[u32],
    chain_rows: Vec<Vec<(u32, f32)>>,
) {
    for (&w, row) in welded.iter().zip(chain_rows) {
        if let Some((&last, copies)) = weld.members_of(w as usize).split_last() {
            for &v in copies {
                rows[v as usize] = Some(row.clone());
            }
            rows[last as usize] = Some(row);
        }
    }
}

/// The tail's rows with its root handed over from `parent` (the pelvis,
/// see [`handover`]): the band is `radii` root radii wide, at most `most` (the
/// first bone's length), and starts on each vertex from the share the
/// rigger gave it off the body ([`handover::starting_share`]). Returns the
/// rows, how many welded vertices the band holds, and its width.
#[allow(clippy::too_many_arguments)]
fn hand_over(
    rig: &Rig,
    (weld, graph, roles): (
        &crate::geometry::Weld,
        &crate::geometry::MeshGraph,
        &crate::rig::JointRoles,
    ),
    parent: u32,
    part: &crate::appendage::PartGeometry,
    mut chain_rows: Vec<Vec<(u32, f32)>>,
    radii: f32,
    most: f32,
) -> (Vec<Vec<(u32, f32)>>, usize, f32) {
    let Some(ring) = handover::root_ring(weld, graph, &part.welded) else {
        return (chain_rows, 0, 0.0);
    };
    let width = (radii * ring.radius).min(most);
    let band = handover::band(weld, graph, &ring, width);
    let body = handover::body_joints(rig.joint_count(), roles, parent);
    let off_body = handover::off_body_shares(rig, weld, &part.welded, &body);
    // Each band vertex's place in the part, found once.
    let placed: Vec<(usize, f32)> = band
        .iter()
        .map(|&(w, d)| (part.welded.binary_search(&w).expect("the band stays in the part"), d))
        .collect();
    let mut in_band = vec![false; part.welded.len()];
    for &(i, _) in &placed {
        in_band[i] = true;
    }
    let mut past: Vec<f32> =
        off_body.iter().zip(&in_band).filter(|(_, &b)| !b).map(|(&s, _)| s).collect();
    let tail = crate::stats::median(&mut past).unwrap_or(0.0);
    for &(i, d) in &placed {
        let start = handover::starting_share(off_body[i], tail);
        let share = handover::pelvis_share_from(d, width, start);
        chain_rows[i] = handover::blend(parent, &chain_rows[i], share);
    }
    (chain_rows, band.len(), width)
}
