//! Where the recall failures' missed tail vertices are (issue 12): for each
//! true tail whose recall falls under the bar, every true tail vertex the
//! matched chain does not take (less than 45% of its weight on it) is put in
//! one cause, and the causes are counted over the corpus:
//!
//! - `other_chain`: a second chain takes it (a split tail);
//! - `handover`: it is in the chain's part but the root's hand-over (or the
//!   blend) leaves it under 45% on the chain;
//! - `other_part`: detection put it in another part (named by kind and
//!   decision: a fur shell not merged, a rump piece);
//! - `near_root` / `mid` / `near_tip`: in no part at all (body skin left
//!   to the rigger), by where along the tail it is (`tail_u` under
//!   [`ROOT_U`], over [`TIP_U`], or between), and after the colon the
//!   region of the bone the far cut found it near (`far` when it is far
//!   skin that no part kept).
//!
//! Each is also split by the material of its primitive (tail skin, fur) and
//! the `tail_u` bands of [`U_BANDS`]. Diagnostic, not a bar:
//! `cargo test --release --test rust_tests corpus_recall_misses -- --ignored --nocapture`
//! (`CAUDAL_RECALL_CASES=1` lists every failing tail with its causes;
//! `CAUDAL_CORPUS_SEEDS=A..B` for seeds other than 0..200).

use std::collections::{BTreeMap, HashMap, HashSet};

use caudal::appendage::{Decision, DetectParams};
use caudal::chain::{grow_chains, ChainParams};
use caudal::demo::corpus::{self, CharacterTruth, CorpusCase};
use caudal::geometry::SkeletonField;
use caudal::gltf_io::Character;
use caudal::rig::JointRoles;
use caudal::Rig;
use rayon::prelude::*;

use super::harness::{per_character, region_near, rig_vertices, MIN_RECALL, TAKEN_SHARE};
use super::runs::{slow_seeds, CI_SEEDS};

/// A missed vertex with `tail_u` under this lies at the root end (the
/// first tenth of the tail).
const ROOT_U: f32 = 0.1;
/// ... over this, at the tip end.
const TIP_U: f32 = 0.9;
/// Upper ends of the `tail_u` bands the misses are counted in.
const U_BANDS: [f32; 6] = [0.0, 0.05, 0.1, 0.25, 0.9, f32::INFINITY];

fn band_name(i: usize) -> String {
    match i {
        0 => "u<0".into(),
        _ if i == U_BANDS.len() - 1 => format!("u>={}", U_BANDS[i - 1]),
        _ => format!("u<{}", U_BANDS[i]),
    }
}

/// Share of vertex `v`'s weight on `joints`.
fn share(out: &Rig, v: usize, joints: &HashSet<usize>) -> f32 {
    let (js, ws) = out.influences().of(v);
    js.iter().zip(ws).filter(|(j, _)| joints.contains(&(**j as usize))).map(|(_, w)| *w).sum()
}

/// One failing tail: its misses by cause, material and band.
#[derive(Default)]
struct TailMisses {
    seed: u64,
    classes: String,
    recall: f32,
    count: usize,
    missed: BTreeMap<String, usize>,
    by_material: BTreeMap<String, usize>,
    by_band: [usize; U_BANDS.len()],
}

impl TailMisses {
    fn main_cause(&self) -> &str {
        self.missed.iter().max_by_key(|(k, n)| (**n, std::cmp::Reverse(*k))).unwrap().0
    }
}

fn material_of(model: &Character, truth: &CharacterTruth, v: u32) -> String {
    let p = model
        .primitives
        .iter()
        .rev()
        .find(|p| p.vertex_offset <= v as usize)
        .expect("a primitive holds the vertex");
    truth
        .primitives
        .iter()
        .find(|t| t.mesh == p.mesh && t.primitive == p.primitive)
        .map_or("?".into(), |t| t.material.clone())
}

fn character_misses(
    seed: u64,
    classes: &str,
    model: &Character,
    truth: &CharacterTruth,
) -> Vec<TailMisses> {
    let Ok((out, report)) = grow_chains(&model.rig, &ChainParams::default()) else {
        return Vec::new();
    };
    let chains: Vec<(HashSet<usize>, HashSet<u32>)> = report
        .chains()
        .map(|p| {
            let joints = p.bones.iter().filter_map(|b| out.joint_index(b)).collect();
            (joints, p.vertices.iter().copied().collect())
        })
        .collect();
    let taken: Vec<HashSet<u32>> = chains
        .iter()
        .map(|(js, _)| {
            (0..out.vertex_count() as u32)
                .filter(|&v| share(&out, v as usize, js) >= TAKEN_SHARE)
                .collect()
        })
        .collect();
    // Skin in no part: still far from the skeleton, or which region's bone
    // the far cut found it near.
    let params = DetectParams::default();
    let field = SkeletonField::new(&model.rig, params.leaf_stub_ratio);
    let roles = JointRoles::find(&model.rig, &params.roles).ok();
    let far = params.far_ratio * model.rig.height();
    let near = |v: u32| region_near(&field, roles.as_ref(), far, model.rig.vertices()[v as usize]);
    let mut result = Vec::new();
    for t in &truth.tails {
        let verts = rig_vertices(model, &t.vertices);
        let us: Vec<f32> = t.vertices.iter().flat_map(|l| l.tail_u.iter().copied()).collect();
        let u_of: HashMap<u32, f32> = verts.iter().copied().zip(us).collect();
        let set: HashSet<u32> = verts.iter().copied().collect();
        let hits = |c: usize| taken[c].intersection(&set).count();
        let Some(best) = (0..chains.len()).max_by_key(|&c| hits(c)).filter(|&c| hits(c) > 0) else {
            continue;
        };
        let recall = hits(best) as f32 / set.len() as f32;
        if recall >= MIN_RECALL {
            continue;
        }
        let mut m = TailMisses {
            seed,
            classes: classes.into(),
            recall,
            count: set.len(),
            ..Default::default()
        };
        for &v in verts.iter().filter(|v| !taken[best].contains(v)) {
            let u = u_of.get(&v).copied().unwrap_or(f32::NAN);
            let cause = if (0..chains.len()).any(|c| c != best && taken[c].contains(&v)) {
                "other_chain".to_string()
            } else if chains[best].1.contains(&v) {
                "handover".to_string()
            } else if let Some(p) = report.parts.iter().find(|p| p.vertices.contains(&v)) {
                let d = if p.decision == Decision::Chain { "chain" } else { "other" };
                format!("other_part:{:?}/{d}", p.kind).to_lowercase()
            } else {
                let at = if u < ROOT_U {
                    "near_root"
                } else if u > TIP_U {
                    "near_tip"
                } else {
                    "mid"
                };
                format!("{at}:{}", near(v))
            };
            *m.missed.entry(cause).or_default() += 1;
            *m.by_material.entry(material_of(model, truth, v)).or_default() += 1;
            m.by_band[U_BANDS.iter().position(|&b| u < b).unwrap_or(U_BANDS.len() - 1)] += 1;
        }
        result.push(m);
    }
    result
}

fn case_misses(seed: u64, case: &CorpusCase) -> Vec<TailMisses> {
    per_character(seed, case, character_misses)
}

fn print_summary(all: &[TailMisses]) {
    let mut tails_by_cause: BTreeMap<&str, usize> = BTreeMap::new();
    let mut verts_by_cause: BTreeMap<&str, usize> = BTreeMap::new();
    let mut by_material: BTreeMap<&str, usize> = BTreeMap::new();
    let mut by_band = [0usize; U_BANDS.len()];
    for m in all {
        *tails_by_cause.entry(m.main_cause()).or_default() += 1;
        for (k, n) in &m.missed {
            *verts_by_cause.entry(k).or_default() += n;
        }
        for (k, n) in &m.by_material {
            *by_material.entry(k).or_default() += n;
        }
        for (b, n) in by_band.iter_mut().zip(m.by_band) {
            *b += n;
        }
    }
    let total: usize = verts_by_cause.values().sum();
    eprintln!("{} tails under recall {MIN_RECALL}; {total} missed vertices", all.len());
    eprintln!("{:<28} {:>14} {:>16}", "cause", "tails (main)", "missed vertices");
    for (k, n) in &verts_by_cause {
        eprintln!("{k:<28} {:>14} {n:>16}", tails_by_cause.get(k).copied().unwrap_or(0));
    }
    eprintln!("by material: {by_material:?}");
    let bands: Vec<String> =
        by_band.iter().enumerate().map(|(i, n)| format!("{} {n}", band_name(i))).collect();
    eprintln!("by tail_u: {}", bands.join(", "));
}

#[test]
#[ignore = "diagnostic (prints where recall failures miss): --ignored --nocapture"]
fn corpus_recall_misses() {
    // `CAUDAL_CORPUS_SEEDS=A..B` looks at other seeds (the look window's
    // second half, 200..400).
    let seeds =
        if std::env::var_os("CAUDAL_CORPUS_SEEDS").is_some() { slow_seeds() } else { CI_SEEDS };
    let all: Vec<TailMisses> =
        seeds.into_par_iter().flat_map_iter(|s| case_misses(s, &corpus::case(s))).collect();
    if std::env::var_os("CAUDAL_RECALL_CASES").is_some() {
        for m in &all {
            let bands: Vec<String> = m
                .by_band
                .iter()
                .enumerate()
                .filter(|(_, n)| **n > 0)
                .map(|(i, n)| format!("{} {n}", band_name(i)))
                .collect();
            eprintln!(
                "seed {:>4} recall {:.3} ({} of {}) [{}]\n    {:?} {:?} {}",
                m.seed,
                m.recall,
                m.missed.values().sum::<usize>(),
                m.count,
                m.classes,
                m.missed,
                m.by_material,
                bands.join(", ")
            );
        }
    }
    print_summary(&all);
}

/// A tail peeled at a saddle of the skeleton distance that runs along it
/// (a hanging or level tail): its root ring is slanted, and the tube walk
/// from it read a flare where the ring's low side meets the body, leaving
/// the near-bone side of the tail's root on the body. The tube is also
/// walked from the widest ring round it (`appendage::RECUT_SLANT_RADII`).
#[test]
fn corpus_a_tail_peeled_along_its_length_is_walked_back_from_a_ring_across_it() {
    // Recall 0.842 with the walk from the slanted ring only.
    super::harness::assert_cases_pass(&[37]);
}

/// A fur-and-skin tail peeled at a neck of its fur holds the skin only
/// from a saddle half way along: its root ring is the fur's ring at the
/// body and the skin's cut ring inside the fur, together 8x the tail's
/// radius. The walk back down the skin is measured in the widest single
/// ring's radius (`largest_ring_radius` in src/appendage/root.rs), not
/// the two rings' joint radius, so the skin's taper is not read as the
/// body's flare.
#[test]
fn corpus_the_walk_back_is_measured_in_one_rings_radius() {
    // Recall 0.848 with the joint radius: the skin's first 0.27 in no part.
    super::harness::assert_cases_pass(&[133]);
}

/// A separate tail shell's buried start under a peeled part whose ring is
/// cut slanted along the hanging tail: the ring's centre lies up the tube,
/// so the cap under the ring's low side lies 2.94 ring radii from that
/// centre but 1.98 from the ring itself. A cap's depth is read from the
/// ring (`is_cap` in src/appendage/detect/tip_growth.rs).
#[test]
fn corpus_a_cap_under_a_slanted_ring_is_measured_from_the_ring() {
    // Recall 0.897 measured from the ring's centre: the buried start (29
    // vertices in a body remainder, 2 close ones) left on the body.
    super::harness::assert_cases_pass(&[26]);
}
