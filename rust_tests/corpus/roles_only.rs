//! Roles only: joint roles of every character of a seed range against its
//! truth, without detection or chain growth (a 0..2200 run in well under a
//! minute). `CAUDAL_ROLES_SEEDS=A..B` (default the CI seeds) or `a,b,c`;
//! `CAUDAL_ROLES_TRACE=1` prints each failing character's limb pairs.
//!
//! `cargo test --release --test rust_tests corpus_roles_only -- --ignored --nocapture`

use caudal::demo::corpus;
use caudal::rig::{JointRoles, RoleOverrides};
use rayon::prelude::*;

use super::harness::{check_roles, per_character, Measured};

fn seeds() -> Vec<u64> {
    let text = std::env::var("CAUDAL_ROLES_SEEDS").unwrap_or_else(|_| "0..200".into());
    if let Some((a, b)) = text.split_once("..") {
        let (a, b): (u64, u64) = (a.trim().parse().unwrap(), b.trim().parse().unwrap());
        (a..b).collect()
    } else {
        text.split(',').map(|x| x.trim().parse().unwrap()).collect()
    }
}

#[test]
#[ignore = "diagnostic: CAUDAL_ROLES_SEEDS=A..B cargo test --release --test rust_tests corpus_roles_only -- --ignored --nocapture"]
fn corpus_roles_only() {
    let trace = std::env::var_os("CAUDAL_ROLES_TRACE").is_some();
    let seeds = seeds();
    let lines: Vec<String> = seeds
        .par_iter()
        .flat_map(|&seed| {
            let case = corpus::case(seed);
            per_character(seed, &case, |seed, classes, ch, truth| {
                let m = roles_of(seed, &ch.rig, truth);
                if m.passed() {
                    return Vec::new();
                }
                let mut out = vec![format!(
                    "seed {seed} [{classes}] {}\n    {}",
                    m.failures.join(" "),
                    m.details.join("\n    ")
                )];
                if trace {
                    out.push(trace_roles(&ch.rig));
                }
                out
            })
        })
        .collect();
    for l in &lines {
        eprintln!("{l}");
    }
    eprintln!("roles: {} failing lines over {} seeds", lines.len(), seeds.len());
}

fn trace_roles(rig: &caudal::Rig) -> String {
    let r = JointRoles::find(rig, &RoleOverrides::default()).unwrap();
    let names = rig.joint_names();
    let mut s = format!("    level {:?}\n", caudal::rig::roles::ground_level(rig));
    for p in &r.limbs {
        let chain = |k: usize| -> Vec<&str> {
            p.limbs[k].chain.iter().map(|&j| names[j].as_str()).collect()
        };
        s += &format!(
            "    pair at {} legs {} score {:.3}: {:?} | {:?}\n",
            names[p.junction],
            p.legs,
            p.score,
            chain(0),
            chain(1)
        );
    }
    for src in &r.sources {
        s += &format!("    {} = {} ({:?})\n", src.role, names[src.joint], src.rule);
    }
    s
}

/// The roles bars of one character, nothing else measured.
pub fn roles_of(seed: u64, rig: &caudal::Rig, truth: &corpus::CharacterTruth) -> Measured {
    let mut m = Measured {
        seed,
        classes: Vec::new(),
        tails: Vec::new(),
        failures: Vec::new(),
        details: Vec::new(),
    };
    check_roles(&mut m, rig, truth);
    m
}

/// Roles failures of every character of `seed`'s case.
fn roles_failures(seed: u64) -> Vec<String> {
    let case = corpus::case(seed);
    per_character(seed, &case, |seed, _, ch, truth| {
        roles_of(seed, &ch.rig, truth)
            .details
            .into_iter()
            .map(|d| format!("seed {seed}: {d}"))
            .collect::<Vec<_>>()
    })
}

/// Pitched binds whose ground lies between the tilt grid's steps: a long
/// quadruped pitched 22 degrees (5505: its front legs read as its only
/// legs), a pitched biped whose hanging tail dips below its soles (6992:
/// levelled on a rolled plane through the tail tip and one foot) and a
/// biped that lost its head (6349). Read on the exact plane through the
/// feet, each reads whole. (Seeds of the never-used range, looked at for
/// this rule at stop 30.)
#[test]
fn a_pitched_bind_is_levelled_on_the_plane_its_feet_stand_on() {
    let wrong: Vec<String> = [5505u64, 6992, 6349].into_iter().flat_map(roles_failures).collect();
    assert!(wrong.is_empty(), "{wrong:#?}");
}

/// Pitched quadrupeds whose hanging tail's tip rests on their ground
/// (36923, Rigify names, a never-used seed run once at stop 41; 22644,
/// Maya names, found by the roles-only run over 0..40000): the tilt grid's
/// plane a step steeper than the feet's touched the same feet as the exact
/// plane, was found first and kept, and the pelvis, legs, neck and spine
/// were read on it. The least tilted of the planes touching the most feet
/// is the ground.
#[test]
fn a_pitched_quadruped_with_its_tail_on_the_ground_keeps_its_roles() {
    let wrong: Vec<String> = [36923u64, 22644].into_iter().flat_map(roles_failures).collect();
    assert!(wrong.is_empty(), "{wrong:#?}");
}
