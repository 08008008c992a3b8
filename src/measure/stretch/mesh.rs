//! Whole-mesh stretch (issue 13): every edge of the mesh, in three disjoint
//! regions (the tail beyond the collar band, the collar band on both sides
//! of the tail's root, the body beyond it) and the whole mesh, for three
//! rigs on the same clip: the tail bound rigidly to the pelvis (the
//! baseline), the rig as the rigger delivered it, and the repaired rig with
//! its baked motion. It does not depend on detection being right: given
//! the true tail, the rows follow it, and the whole-mesh row needs no tail.
//!
//! "Torn by the repair": an edge torn at some sampled time on the repaired
//! rig that the rigid baseline keeps (not torn) at that same time. Body
//! drift: how far body vertices outside the collar band move from where the
//! rigger's own skinning puts them (the tail must never drag the body).

use glam::Vec3;
use rayon::prelude::*;
use serde::{Serialize, Serializer};

use super::collar::{collar_band, CollarBand, COLLAR_BAND_DIAMETERS};
use super::motion::{carried_tip, tail_ends, TailMotion};
use super::report::sample_frames;
use super::stats::{mesh_edges, StretchStats};
use super::{TORN_ABOVE, TORN_BELOW};
use crate::error::{CaudalError, Result};
use crate::rig::{skin_matrices, skin_vertices, world_matrices, Clip, Rig, Trs};

/// Worst edges listed per row (by `|ln ratio|`, each edge once).
pub const WORST_EDGES: usize = 5;
/// Body vertices outside the collar band may move at most this share of the
/// model height `H` from the rigger's skinning (issue 13's bar): a repair
/// that only rotates tail bones moves no body vertex at all, so anything
/// above float noise is the tail dragging the body; 0.2% of H (3.8 mm on a
/// 1.9 m fox) is below what a viewer sees on the character.
pub const BODY_DRIFT_SHARE: f32 = 0.002;

/// Which region an edge belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Region {
    /// Both ends on the tail, outside the collar band.
    Tail,
    /// Either end within the collar band (or one end on the tail, one off).
    Collar,
    /// Neither end on the tail, both outside the collar band.
    Body,
}

impl Region {
    /// The region's row name.
    pub fn name(self) -> &'static str {
        match self {
            Region::Tail => "tail",
            Region::Collar => "collar",
            Region::Body => "body",
        }
    }
}

/// Row names in table order.
pub const ROWS: [&str; 4] = ["tail", "collar", "body", "whole"];

/// Every edge of a rig's mesh with its region.
#[derive(Clone, Debug)]
pub struct MeshRegions {
    /// Every edge of the mesh, by vertex pair.
    pub edges: Vec<(u32, u32)>,
    /// The region of each edge.
    pub region: Vec<Region>,
    /// The collar band the regions were cut by.
    pub band: CollarBand,
    /// Per vertex: on the measured tail.
    pub on_tail: Vec<bool>,
    /// Per vertex: a corner of at least one triangle. A vertex no triangle
    /// uses is never drawn, so it cannot show drift (files carry such loose
    /// vertices: a generator's cut-out, an exporter's unused slot).
    pub drawn: Vec<bool>,
}

impl MeshRegions {
    /// Drawn body vertices outside the collar band (the ones the repair must
    /// not move).
    pub fn body_vertex(&self, v: u32) -> bool {
        self.drawn[v as usize] && !self.on_tail[v as usize] && !self.band.contains(v)
    }
}

/// Splits `rig`'s edges for the measured `tail` hanging from `anchor`.
/// Degenerate edges (bind length under 1e-6 of the diagonal) are left out.
pub fn mesh_regions(rig: &Rig, tail: &[u32], anchor: usize) -> Result<MeshRegions> {
    rig.require_triangles("edge stretch")?;
    let band = collar_band(rig, tail, anchor, COLLAR_BAND_DIAMETERS)?;
    let mut on_tail = vec![false; rig.vertex_count()];
    for &v in tail {
        on_tail[v as usize] = true;
    }
    let bind = rig.vertices();
    let min_len = 1e-6 * rig.diagonal();
    let edges: Vec<(u32, u32)> = mesh_edges(rig.triangles(), |_| true)
        .into_iter()
        .filter(|&(a, b)| (bind[a as usize] - bind[b as usize]).length() > min_len)
        .collect();
    let region = edges
        .iter()
        .map(|&(a, b)| match (on_tail[a as usize], on_tail[b as usize]) {
            _ if band.contains(a) || band.contains(b) => Region::Collar,
            (true, true) => Region::Tail,
            (false, false) => Region::Body,
            _ => Region::Collar,
        })
        .collect();
    let mut drawn = vec![false; rig.vertex_count()];
    for t in rig.triangles() {
        for &v in t {
            drawn[v as usize] = true;
        }
    }
    Ok(MeshRegions { edges, region, band, on_tail, drawn })
}

/// One of the worst edges of a row.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WorstEdge {
    /// The edge's two vertices.
    pub vertices: (u32, u32),
    /// Skinned / bind length at its worst sampled time.
    pub ratio: f32,
    /// The clip frame of that time.
    pub frame: usize,
    /// The joint whose bind head is nearest the edge's middle.
    pub joint: String,
}

/// One region of one rig. Serialised with the stats' fields inline and
/// without the ratios (a caller asks for those apart: they are long).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RegionRow {
    /// `tail`, `collar`, `body` or `whole`.
    pub region: String,
    /// Edges in the region.
    pub edges: usize,
    /// Stretch ratios over every edge and sampled time.
    #[serde(flatten)]
    pub stats: StretchStats,
    /// Edges torn at one sampled time or more.
    pub torn_edges: usize,
    /// The most stretched or squashed edges, worst first.
    pub worst: Vec<WorstEdge>,
    /// Every sampled ratio, sorted (for the plots).
    #[serde(skip)]
    pub ratios: Vec<f32>,
}

/// The four rows of one rig.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RigRows {
    /// `rigid`, `rigger` or `repaired`.
    pub rig: String,
    /// One row per region, in [`ROWS`] order.
    pub rows: Vec<RegionRow>,
}

/// Edges the repaired rig tears where the rigid baseline keeps them.
#[derive(Clone, Debug, PartialEq, Default, Serialize)]
pub struct TornByRepair {
    /// Distinct edges.
    pub edges: usize,
    /// Edge-time samples.
    pub samples: usize,
    /// Distinct edges per region (tail, collar, body; serde: a map of
    /// the region names).
    #[serde(serialize_with = "region_map")]
    pub by_region: [usize; 3],
    /// The worst of them on the repaired rig, worst first.
    pub worst: Vec<WorstEdge>,
}

/// How far body vertices outside the collar band moved from the rigger's
/// skinning, over the sampled times.
#[derive(Clone, Debug, PartialEq, Default, Serialize)]
pub struct BodyDrift {
    /// Body vertices checked.
    pub vertices: usize,
    /// Largest displacement, model units.
    pub max: f32,
    /// The largest displacement as a share of `H`.
    pub share_h: f32,
    /// The vertex that moved most (none when no body vertex moved at all).
    pub vertex: Option<u32>,
    /// The clip frame where it moved most.
    pub frame: usize,
}

/// The whole-mesh view of one clip.
#[derive(Clone, Debug, Serialize)]
pub struct MeshStretch {
    /// rigid, rigger, repaired.
    pub rigs: Vec<RigRows>,
    /// Edges the repair tears that the rigid baseline keeps.
    pub torn_by_repair: TornByRepair,
    /// How far the repair moved the body off the rigger's skinning.
    #[serde(rename = "body_drift")]
    pub drift: BodyDrift,
    /// The collar band's reach on each side, model units.
    pub band_width: f32,
    /// The band's reach as a share of `H`.
    pub band_width_share_h: f32,
    /// The tail root's radius, model units.
    pub root_radius: f32,
    /// The tail shares edges with the body (false: a separate shell).
    pub seam: bool,
    /// Vertices of the measured tail.
    pub tail_vertices: usize,
    /// How the measured tail moves on the repaired rig.
    pub motion: TailMotion,
    /// Lowest point of the measured tail over the sampled times (world up,
    /// Y), for rigid, rigger and repaired: with the floor at 0 it shows
    /// whether the tail reached it (the crouch) and whether it went through.
    #[serde(serialize_with = "rig_map")]
    pub tail_lowest: [f32; 3],
    /// The clip frames sampled.
    pub frames: Vec<usize>,
}

/// Per-region counts (tail, collar, body) as a map of the region names.
fn region_map<S: Serializer>(counts: &[usize; 3], s: S) -> std::result::Result<S::Ok, S::Error> {
    s.collect_map(["tail", "collar", "body"].iter().zip(counts))
}

/// Per-rig heights (rigid, rigger, repaired) as a map of the rig names.
fn rig_map<S: Serializer>(heights: &[f32; 3], s: S) -> std::result::Result<S::Ok, S::Error> {
    s.collect_map(["rigid", "rigger", "repaired"].iter().zip(heights))
}

fn torn(r: f32) -> bool {
    !(TORN_BELOW..=TORN_ABOVE).contains(&r)
}

fn severity(r: f32) -> f32 {
    r.max(f32::MIN_POSITIVE).ln().abs()
}

/// Skinned positions of `rig` at `frames` of `clip`.
fn pose(rig: &Rig, clip: &Clip, frames: &[usize]) -> Vec<Vec<Vec3>> {
    let order = rig.topological_order();
    frames
        .par_iter()
        .map(|&f| {
            let worlds = world_matrices(rig.parents(), order, clip.frame(f));
            skin_vertices(rig, &skin_matrices(rig, &worlds))
        })
        .collect()
}

/// Ratios, frame-major: `[frame][edge]`.
fn ratios(bind: &[Vec3], posed: &[Vec<Vec3>], edges: &[(u32, u32)]) -> Vec<Vec<f32>> {
    posed
        .par_iter()
        .map(|p| {
            edges
                .iter()
                .map(|&(a, b)| {
                    (p[a as usize] - p[b as usize]).length()
                        / (bind[a as usize] - bind[b as usize]).length()
                })
                .collect()
        })
        .collect()
}

fn nearest_joint(rig: &Rig, heads: &[Vec3], (a, b): (u32, u32)) -> String {
    let m = 0.5 * (rig.vertices()[a as usize] + rig.vertices()[b as usize]);
    let j = (0..heads.len()).min_by(|&i, &k| {
        (heads[i] - m).length_squared().total_cmp(&(heads[k] - m).length_squared())
    });
    j.map_or_else(String::new, |j| rig.joint_names()[j].clone())
}

/// The `WORST_EDGES` worst of `candidates` (edge indices), each at its
/// worst frame.
fn worst_of(
    rig: &Rig,
    r: &[Vec<f32>],
    frames: &[usize],
    edges: &[(u32, u32)],
    candidates: impl Iterator<Item = usize>,
) -> Vec<WorstEdge> {
    let mut per_edge: Vec<(f32, usize, usize)> =
        candidates
            .map(|e| {
                let (s, i) = (0..r.len())
                    .map(|i| (severity(r[i][e]), i))
                    .fold((-1.0, 0), |acc, x| if x.0 > acc.0 { x } else { acc });
                (s, e, i)
            })
            .collect();
    per_edge.sort_by(|x, y| y.0.total_cmp(&x.0).then(x.1.cmp(&y.1)));
    let heads = rig.bind_heads();
    per_edge
        .into_iter()
        .take(WORST_EDGES)
        .map(|(_, e, i)| WorstEdge {
            vertices: edges[e],
            ratio: r[i][e],
            frame: frames[i],
            joint: nearest_joint(rig, &heads, edges[e]),
        })
        .collect()
}

fn rows_of(
    rig: &Rig,
    name: &str,
    regions: &MeshRegions,
    r: &[Vec<f32>],
    frames: &[usize],
) -> RigRows {
    let rows = ROWS
        .iter()
        .map(|&row| {
            let member = |e: usize| row == "whole" || regions.region[e].name() == row;
            let idx: Vec<usize> = (0..regions.edges.len()).filter(|&e| member(e)).collect();
            let mut all: Vec<f32> =
                r.iter().flat_map(|fr| idx.iter().map(move |&e| fr[e])).collect();
            all.sort_by(f32::total_cmp);
            let torn_edges = idx.iter().filter(|&&e| r.iter().any(|fr| torn(fr[e]))).count();
            RegionRow {
                region: row.to_string(),
                edges: idx.len(),
                stats: StretchStats::from_ratios(all.clone()),
                torn_edges,
                worst: worst_of(rig, r, frames, &regions.edges, idx.iter().copied()),
                ratios: all,
            }
        })
        .collect();
    RigRows { rig: name.to_string(), rows }
}

/// Largest displacement of `regions`' body vertices between two posings.
pub fn body_drift(
    regions: &MeshRegions,
    rigger: &[Vec<Vec3>],
    repaired: &[Vec<Vec3>],
    frames: &[usize],
    height: f32,
) -> BodyDrift {
    let body: Vec<u32> =
        (0..regions.on_tail.len() as u32).filter(|&v| regions.body_vertex(v)).collect();
    let mut d = BodyDrift { vertices: body.len(), ..BodyDrift::default() };
    for (i, (a, b)) in rigger.iter().zip(repaired).enumerate() {
        for &v in &body {
            let m = (a[v as usize] - b[v as usize]).length();
            if m > d.max {
                d.max = m;
                d.vertex = Some(v);
                d.frame = frames[i];
            }
        }
    }
    d.share_h = if height > 0.0 { d.max / height } else { 0.0 };
    d
}

/// A rig on a clip (all of the rig's joints).
pub struct Played<'a> {
    /// The rig skinned.
    pub rig: &'a Rig,
    /// The clip it plays (one local per joint of `rig`).
    pub clip: &'a Clip,
}

/// The whole-mesh view: `rigid` (the tail bound rigidly to the pelvis),
/// `rigger` (as delivered) and `repaired` (with `reference`, its rigid carry
/// pose, for the tail's motion), all on the same mesh; `tail` is the
/// measured tail (detected or true) hanging from `anchor`.
pub fn mesh_stretch(
    rigid: Played<'_>,
    rigger: Played<'_>,
    repaired: Played<'_>,
    reference: &[Trs],
    tail: &[u32],
    anchor: usize,
    samples: usize,
) -> Result<MeshStretch> {
    let rig = repaired.rig;
    for (name, p) in [("rigid", &rigid), ("rigger", &rigger), ("repaired", &repaired)] {
        if p.rig.vertex_count() != rig.vertex_count() || p.rig.triangles() != rig.triangles() {
            return Err(CaudalError::shape(name, "the rigs to compare must share one mesh"));
        }
        p.clip.check_joints_as(name, p.rig)?;
        if p.clip.frame_count() != repaired.clip.frame_count() {
            return Err(CaudalError::shape(name, "the clips to compare must have the same frames"));
        }
    }
    if samples == 0 {
        return Err(CaudalError::param("samples", "must be >= 1"));
    }
    if reference.len() != rig.joint_count() {
        return Err(CaudalError::shape(
            "reference",
            format!("{} locals for {} joints", reference.len(), rig.joint_count()),
        ));
    }
    let regions = mesh_regions(rig, tail, anchor)?;
    let frames = sample_frames(repaired.clip.frame_count(), samples);
    let bind = rig.vertices();
    let posed: Vec<Vec<Vec<Vec3>>> =
        [&rigid, &rigger, &repaired].iter().map(|p| pose(p.rig, p.clip, &frames)).collect();
    let r: Vec<Vec<Vec<f32>>> = posed.iter().map(|p| ratios(bind, p, &regions.edges)).collect();
    let rigs = vec![
        rows_of(rigid.rig, "rigid", &regions, &r[0], &frames),
        rows_of(rigger.rig, "rigger", &regions, &r[1], &frames),
        rows_of(rig, "repaired", &regions, &r[2], &frames),
    ];

    let (base, rep) = (&r[0], &r[2]);
    let mut tbr = TornByRepair::default();
    let mut hit = Vec::new();
    for e in 0..regions.edges.len() {
        let n = (0..frames.len()).filter(|&i| torn(rep[i][e]) && !torn(base[i][e])).count();
        if n > 0 {
            tbr.samples += n;
            tbr.edges += 1;
            tbr.by_region[regions.region[e] as usize] += 1;
            hit.push(e);
        }
    }
    tbr.worst = worst_of(rig, rep, &frames, &regions.edges, hit.into_iter());

    let drift = body_drift(&regions, &posed[1], &posed[2], &frames, rig.height());

    // The measured tail's motion on the repaired rig, as SPEC M1 reports it.
    let ends = tail_ends(rig, tail, anchor)?;
    let order = rig.topological_order();
    let worlds = world_matrices(rig.parents(), order, reference);
    let skins = skin_matrices(rig, &worlds);
    let reference_dir =
        carried_tip(&skin_vertices(rig, &skins), &ends.tip, &skins[anchor]) - ends.root;
    let dirs: Vec<Vec3> = frames
        .iter()
        .zip(&posed[2])
        .map(|(&f, p)| {
            let worlds = world_matrices(rig.parents(), order, repaired.clip.frame(f));
            carried_tip(p, &ends.tip, &skin_matrices(rig, &worlds)[anchor]) - ends.root
        })
        .collect();
    let lowest = |p: &[Vec<Vec3>]| {
        p.iter()
            .flat_map(|f| tail.iter().map(move |&v| f[v as usize].y))
            .fold(f32::INFINITY, f32::min)
    };
    let tail_lowest = [lowest(&posed[0]), lowest(&posed[1]), lowest(&posed[2])];
    let h = rig.height();
    Ok(MeshStretch {
        tail_lowest,
        rigs,
        torn_by_repair: tbr,
        drift,
        band_width: regions.band.width,
        band_width_share_h: if h > 0.0 { regions.band.width / h } else { 0.0 },
        root_radius: regions.band.root_radius,
        seam: regions.band.seam,
        tail_vertices: tail.len(),
        motion: TailMotion::from_directions(&dirs, reference_dir),
        frames,
    })
}

/// The four rows (tail, collar, body, whole) of one rig on one clip, the
/// regions following `tail` hanging from `anchor`: how an artist's own rig
/// (the file the degraded fixture was made from, same mesh) scores on the
/// same clip.
pub fn rig_rows(
    rig: &Rig,
    clip: &Clip,
    tail: &[u32],
    anchor: usize,
    samples: usize,
) -> Result<RigRows> {
    clip.check_joints(rig)?;
    if samples == 0 {
        return Err(CaudalError::param("samples", "must be >= 1"));
    }
    let regions = mesh_regions(rig, tail, anchor)?;
    let frames = sample_frames(clip.frame_count(), samples);
    let r = ratios(rig.vertices(), &pose(rig, clip, &frames), &regions.edges);
    Ok(rows_of(rig, "rig", &regions, &r, &frames))
}

/// Lowest point of `vertices` of `rig` over every frame of `clip`, as height
/// along `up` (world Y exactly for +Y; the character's own up on a pitched
/// file, see `spring::body_up`).
pub fn lowest_point(rig: &Rig, clip: &Clip, vertices: &[u32], up: Vec3) -> f32 {
    let frames: Vec<usize> = (0..clip.frame_count()).collect();
    let height = |p: Vec3| if up == Vec3::Y { p.y } else { p.dot(up) };
    pose(rig, clip, &frames)
        .iter()
        .flat_map(|p| vertices.iter().map(move |&v| height(p[v as usize])))
        .fold(f32::INFINITY, f32::min)
}
