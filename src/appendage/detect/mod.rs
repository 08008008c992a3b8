//! Detection (SPEC T1-T6): far skin on the welded graph, components,
//! collars, attachments, merging of overlapping shells, tests, decisions.
//!
//! [`detect`] runs the stages in order, each in a file of its own:
//! - [`surface`]: what every stage reads (the welded surface, its shells,
//!   the skeleton distance) and the measures they share (collar, cut
//!   centre, geodesic coordinate, region);
//! - [`candidates`]: T1, far skin, peeled into the pieces that stick out
//!   where it wraps a bone (in the full field, then in the trunk's field);
//! - [`components`]: T3, each candidate's collar and attachment; a fur
//!   shell takes the skin under it; a far part walked back to its tip tube;
//! - [`merge`]: T5, overlapping shells merged into parts, and which part
//!   is one of a mirrored pair;
//! - [`part`]: one part from start to finish: where it hangs, its verdict,
//!   its growth, its report;
//! - [`enclosed_chain`]: a chain part another chain part encloses joins its
//!   host's shells, and the parts are made again;
//! - [`verdict`]: the T4 shape tests and the judgements on them (tube,
//!   broad, round stub, flat patch, stub, paired, what the origin overrules);
//! - [`across_axis`]: a broad part on the pelvis read across its own axis
//!   (a thick hanging tail whose collar runs along it);
//! - [`stub_core`]: a stub tail's part cut back to its tube's one inside
//!   (a lump of haunch the far cut took beside it goes back);
//! - [`root_growth`]: a tail grown back to where it leaves the body (its
//!   resting tip, layered remainders, the tube walk, the rigger's root skin);
//! - [`tip_growth`]: a tail grown on to its tip (the rest of its tube, the
//!   far tip cap it encloses);
//! - [`sheet`]: a chain's coordinate read across a two-sided sheet's faces.
//! - [`caught_skin`]: a chain's part gives back skin it holds only along
//!   its cut a root thickness or more from its ring (body skin the cut took
//!   beside the tube), and its root is measured again on the cut left.

mod across_axis;
mod candidates;
mod caught_skin;
mod components;
mod enclosed_chain;
mod half_tube;
mod hollow_root;
mod merge;
mod part;
mod root_growth;
mod sheet;
mod stub_core;
mod surface;
mod taper;
mod tip_growth;
mod verdict;

use std::sync::Mutex;

use glam::Vec3;

use super::attach::joint_regions;
use super::params::DetectParams;
use super::report::{Decision, Kind, PartReport, Report};
use crate::error::{CaudalError, Result};
use crate::geometry::{
    BoneDistance, MeasuredDistances, MeshGraph, SkeletonField, Weld, LEAF_STUB_RATIO,
};
use crate::rig::{JointRoles, Rig};
use candidates::Origin;
use caught_skin::give_back_caught_skin;
use components::Component;
use enclosed_chain::{join_enclosed_chains, lost_chains};
use merge::merge_shells;
use part::release_claimed_skin;
use sheet::sheet_faces_share_their_place;
pub use surface::{
    cut_centre, rig_vertices, DETACHED_COLLAR_SHARE, LENGTH_PERCENTILE, RIG_MARKS_SHARE,
};
use surface::{Shells, Surface};

/// The geometry behind one reported part, for the fixes.
#[derive(Clone, Debug)]
pub struct PartGeometry {
    /// Welded vertices of the part, sorted.
    pub welded: Vec<u32>,
    /// Welded collar vertices, sorted.
    pub collar: Vec<u32>,
    /// Geodesic distance from where the tube leaves the body, per `welded`
    /// vertex (0 on skin round the root that the rigger weighted as tail,
    /// see `super::rigger_root`).
    pub geodesic: Vec<f32>,
    /// Geodesic length from the collar ([`LENGTH_PERCENTILE`]), model units.
    pub length: f32,
    /// The joint the part hangs from, if one was found.
    pub attachment: Option<usize>,
    /// Where the part leaves the body: the mean of the midpoints of the
    /// edges between part and collar (the collar centroid moved half an edge
    /// towards the part, so an uneven collar ring does not pull it aside),
    /// taken before the rigger's root skin joins the part, and measured
    /// again on the cut left when the part gives skin back from its cut
    /// (see `root_at_cut`).
    pub root: Vec3,
    /// Whether `root` is the centre of the part's own cut (no rigger's root
    /// skin joined it): skin the part later gives back from that cut moves
    /// its cut, and the root is measured again (`give_back_caught_skin`).
    /// A root taken before the rigger's skin joined lies beside the cut by
    /// design and stands.
    pub root_at_cut: bool,
}

/// Everything detection computed, for the fixes that follow it.
#[derive(Clone, Debug)]
pub struct Detection {
    /// The parts and their decisions.
    pub report: Report,
    /// Each reported part's geometry, in report order.
    pub parts: Vec<PartGeometry>,
    /// The welded mesh.
    pub weld: Weld,
    /// Adjacency of the welded mesh.
    pub graph: MeshGraph,
    /// The rig's joint roles (pelvis, legs, ...).
    pub roles: JointRoles,
    /// The weighted bone distance of every reported part's vertices, as
    /// measured for `bone_distance_before`, to be read again after the fix
    /// where a vertex's row and bones stay ([`BoneDistance::mean_after`]).
    pub bone_distances: MeasuredDistances,
}

/// Finds the appendages of `rig` and decides what each needs (SPEC T1-T6).
/// Nothing is changed; see [`crate::chain::grow_chains`] for the fixes.
pub fn find_appendages(rig: &Rig, params: &DetectParams) -> Result<Report> {
    Ok(detect(rig, params)?.report)
}

/// Detection's stages (SPEC T1-T6): the welded surface and its far skin,
/// far skin peeled into candidates, each candidate's collar and attachment,
/// overlapping shells merged, then each part judged and grown to its root.
pub fn detect(rig: &Rig, params: &DetectParams) -> Result<Detection> {
    params.validate()?;
    rig.require_triangles("appendage detection")?;
    let height = rig.height();
    if height.is_nan() || height <= 0.0 {
        return Err(CaudalError::param("vertices", "the bind-pose mesh has zero height along Y"));
    }
    let roles = JointRoles::find(rig, &params.roles)?;
    let regions = joint_regions(rig, &roles);

    // T2: weld, then the graph of the welded surface.
    let weld_tolerance = params.weld_tolerance_ratio * rig.diagonal();
    let weld = Weld::by_position(rig.vertices(), weld_tolerance);
    let graph = MeshGraph::from_triangles(weld.count(), &weld.triangles(rig.triangles()));

    // T1: skeleton distance and far skin.
    let field = SkeletonField::new(rig, params.leaf_stub_ratio);
    let dist = field.distances(&weld.positions);
    let far_threshold = params.far_ratio * height;
    let surface = Surface {
        rig,
        params,
        height,
        weld: &weld,
        graph: &graph,
        field: &field,
        dist: &dist,
        roles: &roles,
        regions: &regions,
        shells: &Shells::of(&graph, &dist, far_threshold),
        detached: Default::default(),
        body_skin: Mutex::new(vec![false; weld.count()]),
    };
    let mut comps = surface.components(surface.candidates(far_threshold));
    surface.carve_under_shells(&mut comps);
    surface.trim_to_tip_tube(&mut comps);
    let groups = merge_shells(&comps, &graph, surface.shells, &weld.positions, params, height);
    // The bones are the field's segments when it has the default stubs.
    let new_bones = || {
        if params.leaf_stub_ratio == LEAF_STUB_RATIO {
            BoneDistance::with_field(rig, field.clone())
        } else {
            BoneDistance::new(rig)
        }
    };
    let (mut parts, mut reports, mut bones) = make_parts(&surface, &groups, &mut comps, new_bones)?;
    release_claimed_skin(&mut parts, &mut reports, &weld, &mut bones)?;
    sheet_faces_share_their_place(&mut parts, &mut reports, &weld, &graph, height);
    give_back_caught_skin(&mut parts, &mut reports, &weld, &graph, &mut bones)?;
    let names = rig.joint_names();
    let report = Report {
        height,
        far_threshold,
        weld_tolerance,
        vertex_count: rig.vertex_count(),
        welded_vertex_count: weld.count(),
        pelvis: roles.pelvis.map(|j| names[j].clone()),
        parts: reports,
    };
    Ok(Detection { report, parts, weld, graph, roles, bone_distances: bones.into_measured() })
}

impl Surface<'_> {
    /// The parts judged body are made again: none marked yet.
    fn forget_body_skin(&self) {
        let mut body = self.body_skin.lock().unwrap_or_else(|e| e.into_inner());
        body.iter_mut().for_each(|b| *b = false);
    }

    /// Each group of merged shells made a part, in order: judged, grown,
    /// reported, with the bone distances measured on the way.
    fn parts_of(
        &self,
        groups: &[Vec<usize>],
        comps: &mut [Component],
        bones: &mut BoneDistance,
    ) -> Result<(Vec<PartGeometry>, Vec<PartReport>)> {
        let paired = self.paired(groups, comps);
        let mut taken = owned_skin(comps, self.weld.count());
        let mut parts = Vec::with_capacity(groups.len());
        let mut reports = Vec::with_capacity(groups.len());
        for (index, group) in groups.iter().enumerate() {
            let (report, part) =
                self.part(index, group, comps, paired[index], &mut taken, bones)?;
            if report.kind == Kind::Body {
                let mut body = self.body_skin.lock().unwrap_or_else(|e| e.into_inner());
                for &v in &part.welded {
                    body[v as usize] = true;
                }
            }
            reports.push(report);
            parts.push(part);
        }
        Ok((parts, reports))
    }
}

/// Each group made a part ([`Surface::parts_of`]), and made again with
/// every chain part another chain part encloses joined to its host's group
/// ([`join_enclosed_chains`]), joins whose part then gets no chain refused.
/// A shell's coordinate a part took in an earlier pass is measured again:
/// the same numbers. Returns the parts, their reports and the bone distances
/// measured making them.
fn make_parts<'r>(
    surface: &Surface<'_>,
    groups: &[Vec<usize>],
    comps: &mut [Component],
    new_bones: impl Fn() -> BoneDistance<'r>,
) -> Result<(Vec<PartGeometry>, Vec<PartReport>, BoneDistance<'r>)> {
    let mut bones = new_bones();
    let (parts, reports) = surface.parts_of(groups, comps, &mut bones)?;
    let mut refused: Vec<Vec<usize>> = Vec::new();
    loop {
        let chain = chains_of(&reports);
        let carried: Vec<bool> = reports.iter().map(|r| r.kind != Kind::Body).collect();
        let Some((joined, joins)) =
            join_enclosed_chains(groups, &parts, &chain, &carried, surface.graph, &refused)
        else {
            return Ok((parts, reports, bones));
        };
        surface.forget_body_skin();
        let mut joined_bones = new_bones();
        let (p, mut r) = surface.parts_of(&joined, comps, &mut joined_bones)?;
        let lost = lost_chains(&joined, &joins, &chains_of(&r));
        if lost.is_empty() {
            for (report, &n) in r.iter_mut().zip(&joins).filter(|(_, &n)| n > 1) {
                report.reason.push_str(&format!(
                    "; judged and grown as one with {} chain part(s) whose whole collar was its \
                     skin",
                    n - 1
                ));
            }
            return Ok((p, r, joined_bones));
        }
        refused.extend(lost);
    }
}

/// Per part: whether it got a chain.
fn chains_of(reports: &[PartReport]) -> Vec<bool> {
    reports.iter().map(|r| r.decision == Decision::Chain).collect()
}

/// Per welded vertex: skin a part owns. Body skin left over by peeling
/// stays free, for a tail's root may claim it.
fn owned_skin(comps: &[Component], count: usize) -> Vec<bool> {
    let mut taken = vec![false; count];
    for c in comps.iter().filter(|c| !matches!(c.origin, Origin::Remainder { .. })) {
        for &v in c.welded() {
            taken[v as usize] = true;
        }
    }
    taken
}
