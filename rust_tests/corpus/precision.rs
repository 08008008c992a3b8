//! Where the precision failures' extra vertices are (issue 12): for each
//! true tail whose matched chain takes (>= 45% of the weight) more than 5%
//! skin that is not tail, every such extra vertex is put in one cause:
//!
//! - `collar`: the truth's collar round a welded root (body skin the
//!   artist gave a quarter of its weight to the tail);
//! - `other_tail`: another true tail's skin;
//! - `blend`: outside the chain's part (the chain's weights spread there);
//! - `part:<dist>:<region>`: in the chain's part, by its distance from the
//!   true root centre in root radii ([`RADIUS_BANDS`]) and the region of
//!   the bone nearest it.
//!
//! On seeds 0..200 before the axis extension measured the collar by its
//! median radius, 195 of the extras were the truth's collar and most of
//! the rest within two root radii, all taken by the axis extension
//! (`appendage::root::extend_root`), none by the tube walk.
//!
//! Diagnostic, not a bar:
//! `cargo test --release --test rust_tests corpus_precision_extras -- --ignored --nocapture`
//! (`CAUDAL_PRECISION_CASES=1` lists every failing tail with its part's
//! origin and root counts; `CAUDAL_PRECISION_SEEDS=A..B` or `a,b,c` for
//! seeds other than the CI seeds).

use std::collections::{BTreeMap, HashSet};

use caudal::appendage::DetectParams;
use caudal::chain::{grow_chains, ChainParams};
use caudal::demo::corpus::{self, CharacterTruth, CorpusCase};
use caudal::geometry::SkeletonField;
use caudal::gltf_io::Character;
use caudal::rig::JointRoles;
use glam::Vec3;
use rayon::prelude::*;

use super::harness::{per_character, region_near, rig_vertices, MIN_PRECISION, TAKEN_SHARE};
use super::runs::{env_seeds, CI_SEEDS};

/// Upper ends of the distance bands (root radii from the true root centre).
const RADIUS_BANDS: [f32; 4] = [1.0, 2.0, 3.0, f32::INFINITY];

#[derive(Default)]
struct TailExtras {
    seed: u64,
    classes: String,
    precision: f32,
    thickness: String,
    part: String,
    extras: BTreeMap<String, usize>,
}

fn character_extras(
    seed: u64,
    classes: &str,
    model: &Character,
    truth: &CharacterTruth,
) -> Vec<TailExtras> {
    let Ok((out, report)) = grow_chains(&model.rig, &ChainParams::default()) else {
        return Vec::new();
    };
    let params = DetectParams::default();
    let field = SkeletonField::new(&model.rig, params.leaf_stub_ratio);
    let roles = JointRoles::find(&model.rig, &params.roles).ok();
    let far = params.far_ratio * model.rig.height();
    let sets: Vec<HashSet<u32>> = truth
        .tails
        .iter()
        .map(|t| rig_vertices(model, &t.vertices).into_iter().collect())
        .collect();
    let mut result = Vec::new();
    for p in report.chains() {
        let joints: HashSet<usize> = p.bones.iter().filter_map(|b| out.joint_index(b)).collect();
        let taken: HashSet<u32> = (0..out.vertex_count() as u32)
            .filter(|&v| {
                let (js, ws) = out.influences().of(v as usize);
                let s: f32 = js
                    .iter()
                    .zip(ws)
                    .filter(|(j, _)| joints.contains(&(**j as usize)))
                    .map(|(_, w)| *w)
                    .sum();
                s >= TAKEN_SHARE
            })
            .collect();
        let Some(ti) = (0..sets.len())
            .max_by_key(|&t| taken.intersection(&sets[t]).count())
            .filter(|&t| taken.intersection(&sets[t]).count() > 0)
        else {
            continue;
        };
        let precision = taken.intersection(&sets[ti]).count() as f32 / taken.len() as f32;
        if precision >= MIN_PRECISION {
            continue;
        }
        let t = &truth.tails[ti];
        let collar: HashSet<u32> = rig_vertices(model, &t.collar).into_iter().collect();
        let part: HashSet<u32> = p.vertices.iter().copied().collect();
        let centre = Vec3::from(t.root_centre);
        let mut m = TailExtras {
            seed,
            classes: classes.into(),
            precision,
            thickness: t.thickness.into(),
            part: format!(
                "{} root {} contact {} signature {} handover {}",
                p.origin,
                p.root_vertices,
                p.contact_vertices,
                p.rigger_signature,
                p.handover_vertices
            ),
            ..Default::default()
        };
        for &v in taken.iter().filter(|v| !sets[ti].contains(v)) {
            let pos = out.vertices()[v as usize];
            let inside = if part.contains(&v) { "part" } else { "blend" };
            let cause = if collar.contains(&v) {
                format!("collar:{inside}")
            } else if sets.iter().any(|s| s.contains(&v)) {
                "other_tail".to_string()
            } else if !part.contains(&v) {
                format!("blend:{}", region_near(&field, roles.as_ref(), far, pos))
            } else {
                let d = (pos - centre).length() / t.root_radius;
                let b = RADIUS_BANDS.iter().position(|&b| d < b).unwrap_or(0);
                let band = if b == RADIUS_BANDS.len() - 1 {
                    ">=3r".to_string()
                } else {
                    format!("<{}r", RADIUS_BANDS[b])
                };
                format!("part:{band}:{}", region_near(&field, roles.as_ref(), far, pos))
            };
            *m.extras.entry(cause).or_default() += 1;
        }
        result.push(m);
    }
    result
}

fn case_extras(seed: u64, case: &CorpusCase) -> Vec<TailExtras> {
    per_character(seed, case, character_extras)
}

/// `CAUDAL_PRECISION_SEEDS`: `A..B` as the other diagnostics take it, or a
/// list `a,b,c`; anything else is refused (a range read as a list named no
/// seed and printed "0 chains", as if none failed).
fn seeds() -> Vec<u64> {
    let Ok(text) = std::env::var("CAUDAL_PRECISION_SEEDS") else {
        return CI_SEEDS.collect();
    };
    if text.contains("..") {
        return env_seeds("CAUDAL_PRECISION_SEEDS", CI_SEEDS).collect();
    }
    text.split(',')
        .map(|x| {
            x.trim().parse().unwrap_or_else(|_| {
                panic!("CAUDAL_PRECISION_SEEDS={text:?}: expected A..B or a,b,c")
            })
        })
        .collect()
}

#[test]
#[ignore = "diagnostic (prints where precision failures take body skin): --ignored --nocapture"]
fn corpus_precision_extras() {
    let all: Vec<TailExtras> =
        seeds().into_par_iter().flat_map_iter(|s| case_extras(s, &corpus::case(s))).collect();
    let mut total: BTreeMap<&str, usize> = BTreeMap::new();
    for m in &all {
        if std::env::var_os("CAUDAL_PRECISION_CASES").is_some() {
            eprintln!(
                "seed {:>4} precision {:.3} {} [{}]\n    {}\n    {:?}",
                m.seed, m.precision, m.thickness, m.classes, m.part, m.extras
            );
        }
        for (k, n) in &m.extras {
            *total.entry(k).or_default() += n;
        }
    }
    eprintln!("{} chains under precision {MIN_PRECISION}", all.len());
    for (k, n) in &total {
        eprintln!("{k:<28} {n:>8}");
    }
}

/// Thick, hanging or curled tails cut aslant by the far threshold: the axis
/// extension's cylinder, as wide as the collar's farthest vertex, took the
/// ring of rump skin round the root (precision 0.916 to 0.948); measured by
/// the collar's median radius it stays on the tube.
#[test]
fn corpus_root_extension_stays_off_the_rump() {
    // 18: medium curled tail on the pelvis; 31: hanging, unwelded; 197: thick
    // hanging curled dinosaur tail.
    for seed in [18, 31, 197] {
        let m = super::harness::measure(&corpus::case(seed));
        assert!(m.passed(), "seed {seed}: {:?}", m.details);
    }
}

/// Thick tails whose axis extension took the first ring of body skin round
/// the root (the truth's collar ring) within the ring's cylinder: precision
/// 0.946-0.950 at stop 51's start. The extension now keeps only skin that
/// faces away from the axis, as a tube's wall does (`WALL_FACING` in
/// `src/appendage/root.rs`).
#[test]
fn corpus_the_root_extension_takes_wall_not_the_body_it_opens_onto() {
    // Look-window dinosaurs: 45821 and 42145 level, 40111 hanging, 52905 curled.
    for seed in [45821, 42145, 40111, 52905] {
        let m = super::harness::measure(&corpus::case(seed));
        assert!(m.passed(), "seed {seed}: {:?}", m.details);
    }
}

/// A thick tail leaving the side of the rump just before the body's rounded
/// rear end: that end carries on inside the tail's root, and the root's
/// growth (the walks back, the axis extension, the ring's low side) took it
/// with the tube (precision 0.945-0.949 at stop 63's start). The growth now
/// hands back the skin it took inside the tube (`HOLLOW_SHARE` in
/// `src/appendage/detect/hollow_root.rs`).
#[test]
fn corpus_the_roots_growth_takes_the_tubes_wall_not_the_body_inside_it() {
    // Look-window dinosaurs: 42312, 45590 and 50916 level, 51028 hanging;
    // 8724 (a separate tail shell, from a never-used window) keeps its
    // buried start, inside its tube too, and hangs from the right end.
    for seed in [42312, 45590, 50916, 51028, 8724] {
        let m = super::harness::measure(&corpus::case(seed));
        assert!(m.passed(), "seed {seed}: {:?}", m.details);
    }
}
