//! Detection (SPEC T1-T6): far skin on the welded graph, components,
//! collars, attachments, merging of overlapping shells, tests, decisions.

use glam::Vec3;

use super::attach::{attachment_joint, joint_regions, Region};
use super::decide::decide;
use super::params::DetectParams;
use super::report::{PartReport, PartTests, Report};
use super::shape::{bounds, box_overlap, centroid, elongation};
use crate::error::{CaudalError, Result};
use crate::geometry::{geodesic_from, weighted_joints, MeshGraph, SkeletonField, Weld};
use crate::measure::weighted_bone_distance;
use crate::rig::{JointRoles, Rig};

/// A part without a single non-far neighbour (a detached shell floating
/// wholly beyond the threshold) takes as collar its own vertices whose
/// skeleton distance is within this share of its depth range above the
/// nearest one: the end nearest the body.
pub const DETACHED_COLLAR_SHARE: f32 = 0.1;

/// Percentile of the geodesic coordinate taken as the part's length
/// (SPEC T8: the 99th, so a stray vertex at the tip does not count).
pub const LENGTH_PERCENTILE: f32 = 0.99;

/// The geometry behind one reported part, for the fixes.
#[derive(Clone, Debug)]
pub struct PartGeometry {
    /// Welded vertices of the part, sorted.
    pub welded: Vec<u32>,
    /// Welded collar vertices, sorted.
    pub collar: Vec<u32>,
    /// Geodesic distance from the collar of each `welded` vertex.
    pub geodesic: Vec<f32>,
    pub length: f32,
    pub attachment: Option<usize>,
}

/// Everything detection computed, for the fixes that follow it.
#[derive(Clone, Debug)]
pub struct Detection {
    pub report: Report,
    pub parts: Vec<PartGeometry>,
    pub weld: Weld,
    pub graph: MeshGraph,
    pub roles: JointRoles,
}

/// `p`-quantile (nearest rank) of finite values.
pub fn percentile(values: &[f32], p: f32) -> f32 {
    let mut v: Vec<f32> = values.iter().copied().filter(|x| x.is_finite()).collect();
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f32::total_cmp);
    let rank = ((p * v.len() as f32).ceil() as usize).clamp(1, v.len());
    v[rank - 1]
}

struct Component {
    welded: Vec<u32>,
    collar: Vec<u32>,
    box_: (Vec3, Vec3),
    attachment: Option<usize>,
}

fn collar_of(welded: &[u32], far: &[bool], dist: &[f32], graph: &MeshGraph) -> Vec<u32> {
    let mut collar: Vec<u32> =
        welded.iter().flat_map(|&v| graph.neighbors_of(v as usize).iter().copied()).filter(|&w| !far[w as usize]).collect();
    collar.sort_unstable();
    collar.dedup();
    if collar.is_empty() {
        let lo = welded.iter().map(|&v| dist[v as usize]).fold(f32::INFINITY, f32::min);
        let hi = welded.iter().map(|&v| dist[v as usize]).fold(f32::NEG_INFINITY, f32::max);
        let cut = lo + DETACHED_COLLAR_SHARE * (hi - lo);
        collar = welded.iter().copied().filter(|&v| dist[v as usize] <= cut).collect();
    }
    collar
}

/// Finds the appendages of `rig` and decides what each needs (SPEC T1-T6).
/// Nothing is changed; see [`crate::chain::grow_chains`] for the fixes.
pub fn find_appendages(rig: &Rig, params: &DetectParams) -> Result<Report> {
    Ok(detect(rig, params)?.report)
}

pub fn detect(rig: &Rig, params: &DetectParams) -> Result<Detection> {
    params.validate()?;
    let height = rig.height();
    if !(height > 0.0) {
        return Err(CaudalError::param("vertices", "the bind-pose mesh has zero height along Y"));
    }
    let roles = JointRoles::find(rig, &params.roles)?;
    let regions = joint_regions(rig, &roles);
    let heads = rig.bind_heads();
    let weighted = weighted_joints(rig);

    // T2: weld, then the graph of the welded surface.
    let weld_tolerance = params.weld_tolerance_ratio * rig.diagonal();
    let weld = Weld::by_position(rig.vertices(), weld_tolerance);
    let graph = MeshGraph::from_triangles(weld.count(), &weld.triangles(rig.triangles()));

    // T1: skeleton distance and far skin.
    let field = SkeletonField::new(rig, params.leaf_stub_ratio);
    let dist = field.distances(&weld.positions);
    let far_threshold = params.far_ratio * height;
    let far: Vec<bool> = dist.iter().map(|&d| d > far_threshold).collect();
    let (comp, count) = graph.components(&far);
    let mut members: Vec<Vec<u32>> = vec![Vec::new(); count];
    for (v, &c) in comp.iter().enumerate() {
        if c != u32::MAX {
            members[c as usize].push(v as u32);
        }
    }

    // T3: collar and attachment of every component.
    let comps: Vec<Component> = members
        .into_iter()
        .map(|welded| {
            let collar = collar_of(&welded, &far, &dist, &graph);
            let c = centroid(collar.iter().map(|&v| weld.positions[v as usize]));
            let attachment = attachment_joint(c, &heads, &weighted, &regions, params.attachment_bias);
            let box_ = bounds(welded.iter().map(|&v| weld.positions[v as usize]));
            Component { welded, collar, box_, attachment }
        })
        .collect();

    // T5: shells at one attachment whose boxes overlap by more than half
    // are one part (fur over skin, never welded).
    let pad = 1e-3 * height;
    let mut root: Vec<usize> = (0..comps.len()).collect();
    fn find(root: &mut [usize], mut i: usize) -> usize {
        while root[i] != i {
            root[i] = root[root[i]];
            i = root[i];
        }
        i
    }
    for a in 0..comps.len() {
        for b in a + 1..comps.len() {
            if comps[a].attachment == comps[b].attachment && box_overlap(comps[a].box_, comps[b].box_, pad) > params.merge_overlap {
                let (ra, rb) = (find(&mut root, a), find(&mut root, b));
                if ra != rb {
                    root[ra.max(rb)] = ra.min(rb);
                }
            }
        }
    }
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut group_of = vec![usize::MAX; comps.len()];
    for i in 0..comps.len() {
        let r = find(&mut root, i);
        if group_of[r] == usize::MAX {
            group_of[r] = groups.len();
            groups.push(Vec::new());
        }
        groups[group_of[r]].push(i);
    }

    let names = rig.joint_names();
    let mut parts = Vec::with_capacity(groups.len());
    let mut reports = Vec::with_capacity(groups.len());
    for (index, group) in groups.iter().enumerate() {
        let mut welded: Vec<u32> = group.iter().flat_map(|&c| comps[c].welded.iter().copied()).collect();
        welded.sort_unstable();
        let mut collar: Vec<u32> = group.iter().flat_map(|&c| comps[c].collar.iter().copied()).collect();
        collar.sort_unstable();
        collar.dedup();
        let attachment = comps[group[0]].attachment;
        let region = attachment.map(|j| regions[j]).unwrap_or(Region::Limb);
        let attach_name = attachment.map(|j| names[j].clone());

        // T4: centroid/reach and elongation on the welded surface.
        let points: Vec<Vec3> = welded.iter().map(|&v| weld.positions[v as usize]).collect();
        let c = centroid(points.iter().copied());
        let reach = welded.iter().map(|&v| dist[v as usize]).fold(0.0f32, f32::max);
        let centroid_ratio = if reach > 0.0 { field.distance(c) / reach } else { 0.0 };
        let elong = elongation(&points);

        // T8 geodesic coordinate (reported as the part's length for every part).
        let mut subset: Vec<u32> = welded.iter().chain(&collar).copied().collect();
        subset.sort_unstable();
        subset.dedup();
        let g_subset = geodesic_from(&graph, &weld.positions, &subset, &collar);
        let geodesic: Vec<f32> = welded.iter().map(|v| g_subset[subset.binary_search(v).unwrap()]).collect();
        let length = percentile(&geodesic, LENGTH_PERCENTILE);

        let verdict = decide(params, welded.len(), region, attach_name.as_deref().unwrap_or("?"), centroid_ratio, elong);
        let mut vertices: Vec<u32> = welded.iter().flat_map(|&w| weld.members_of(w as usize).iter().copied()).collect();
        vertices.sort_unstable();
        let before = weighted_bone_distance(rig, &vertices)?;
        reports.push(PartReport {
            index,
            kind: verdict.kind,
            decision: verdict.decision,
            reason: verdict.reason,
            attachment: attach_name,
            attachment_joint: attachment,
            region,
            vertex_count: vertices.len(),
            welded_vertex_count: welded.len(),
            collar_vertex_count: collar.len(),
            shells: group.len(),
            length,
            length_ratio: length / height,
            reach,
            tests: PartTests {
                centroid_ratio,
                centroid_passed: centroid_ratio >= params.min_centroid_ratio,
                elongation: elong,
                elongation_passed: elong >= params.min_elongation,
            },
            bone_count: 0,
            bones: Vec::new(),
            rigid_joint: None,
            bone_distance_before: before,
            bone_distance_after: None,
            vertices,
        });
        parts.push(PartGeometry { welded, collar, geodesic, length, attachment });
    }

    let report = Report {
        height,
        far_threshold,
        weld_tolerance,
        vertex_count: rig.vertex_count(),
        welded_vertex_count: weld.count(),
        pelvis: roles.pelvis.map(|j| names[j].clone()),
        parts: reports,
    };
    Ok(Detection { report, parts, weld, graph, roles })
}
