//! The corpus runs: 200 seeds in CI (consistency asserted, the detection
//! table printed), the bars asserted on every case and every character
//! (ignored until issue 12's detection lands), a slow run over 2000 more
//! seeds, and one run per failure class on cases with that class imposed.
//!
//! The table: `cargo test --test rust_tests corpus_ -- --nocapture`.
//! Per-case failures (CI and slow runs): set `CAUDAL_CORPUS_FAILURES=1`.
//! Slow: `cargo test --release --test rust_tests corpus_slow -- --ignored --nocapture`.

use std::ops::Range;

use caudal::demo::corpus::{self, CorpusCase, FailureClass};
use rayon::prelude::*;

use super::consistency::{artist_meets_the_bars, problems};
use super::harness::{measure, table, Measured};

pub const CI_SEEDS: Range<u64> = 0..200;
pub const SLOW_SEEDS: Range<u64> = 200..2200;

fn run(cases: Vec<(u64, CorpusCase)>) -> (Vec<Measured>, Vec<String>) {
    let out: Vec<(Measured, Vec<String>)> = cases
        .par_iter()
        .map(|(seed, c)| {
            let mut p: Vec<String> =
                problems(*seed, c).into_iter().map(|p| format!("seed {seed}: {p}")).collect();
            p.extend(artist_meets_the_bars(c).err());
            (measure(c), p)
        })
        .collect();
    let (measured, problems): (Vec<Measured>, Vec<Vec<String>>) = out.into_iter().unzip();
    (measured, problems.concat())
}

fn generate(seeds: Range<u64>) -> Vec<(u64, CorpusCase)> {
    seeds.into_par_iter().map(|s| (s, corpus::case(s))).collect()
}

fn print_failures(results: &[Measured]) {
    for r in results.iter().filter(|r| !r.passed()) {
        let classes: Vec<&str> = r.classes.iter().map(|c| c.name()).collect();
        eprintln!("seed {:>4} [{}]\n    {}", r.seed, classes.join(" "), r.details.join("\n    "));
    }
}

fn assert_every_case_passes(results: &[Measured]) {
    print_failures(results);
    let failed: Vec<u64> = results.iter().filter(|r| !r.passed()).map(|r| r.seed).collect();
    assert!(
        failed.is_empty(),
        "{} of {} cases fail the bars: seeds {failed:?}",
        failed.len(),
        results.len()
    );
}

/// CI: every case generates deterministically, loads, and agrees with its
/// truth, and the artist's own rig meets every bar (they are reachable);
/// detection is measured and tabulated, not asserted.
#[test]
fn corpus_cases_are_consistent_and_measured() {
    let cases = generate(CI_SEEDS);
    let (results, problems) = run(cases);
    eprintln!("corpus seeds {CI_SEEDS:?}: today's detection by failure class\n{}", table(&results));
    // Which case failed which bar, to diagnose a class (the table only counts).
    if std::env::var_os("CAUDAL_CORPUS_FAILURES").is_some() {
        print_failures(&results);
    }
    assert!(problems.is_empty(), "{problems:#?}");
    // Roles (pelvis, legs and their sides, neck, head) are right on every
    // seed since stop 25 (the last two: bipeds bound pitched back, their
    // sides read from the head's lead): a regression guard, not a target.
    let wrong_roles: Vec<String> = results
        .iter()
        .flat_map(|r| {
            r.details
                .iter()
                .filter(|d| d.starts_with("roles_"))
                .map(move |d| format!("seed {}: {d}", r.seed))
        })
        .collect();
    assert!(wrong_roles.is_empty(), "{wrong_roles:#?}");
    let mut seen = vec![0usize; FailureClass::ALL.len()];
    for r in &results {
        for c in &r.classes {
            seen[FailureClass::ALL.iter().position(|x| x == c).unwrap()] += 1;
        }
    }
    for (c, n) in FailureClass::ALL.iter().zip(&seen) {
        assert!(
            *n >= (CI_SEEDS.end - CI_SEEDS.start) as usize / FailureClass::ALL.len(),
            "class {} in only {n} cases",
            c.name()
        );
    }
}

#[test]
#[ignore = "enable when detection of issue 12 lands"]
fn corpus_every_case_passes() {
    let (results, problems) = run(generate(CI_SEEDS));
    eprintln!("{}", table(&results));
    assert!(problems.is_empty(), "{problems:#?}");
    assert_every_case_passes(&results);
}

/// The slow run's seeds: [`SLOW_SEEDS`], or `CAUDAL_CORPUS_SEEDS=A..B` to
/// check a rule on seeds nobody has looked at (5000 and up, by custom).
pub(super) fn slow_seeds() -> Range<u64> {
    env_seeds("CAUDAL_CORPUS_SEEDS", SLOW_SEEDS)
}

/// The seeds `A..B` the variable `var` names, else `default`.
pub(super) fn env_seeds(var: &str, default: Range<u64>) -> Range<u64> {
    let Ok(text) = std::env::var(var) else {
        return default;
    };
    let parsed = text
        .split_once("..")
        .and_then(|(a, b)| Some(a.trim().parse::<u64>().ok()?..b.trim().parse::<u64>().ok()?));
    match parsed {
        Some(r) if r.start < r.end => r,
        _ => panic!("{var}={text:?}: expected A..B with A < B"),
    }
}

#[test]
#[ignore = "slow (2000 seeds; CAUDAL_CORPUS_SEEDS=A..B for others): cargo test --release --test rust_tests corpus_slow -- --ignored --nocapture"]
fn corpus_slow_cases_are_consistent() {
    let seeds = slow_seeds();
    let (results, problems) = run(generate(seeds.clone()));
    eprintln!("corpus seeds {seeds:?}\n{}", table(&results));
    if std::env::var_os("CAUDAL_CORPUS_FAILURES").is_some() {
        print_failures(&results);
    }
    assert!(problems.is_empty(), "{problems:#?}");
}

/// The generator alone: every case of `CAUDAL_CORPUS_SEEDS=A..B` (default
/// the slow run's) is consistent and the artist's rig meets the bars, with
/// no detection run, so wide never-used windows cost minutes, not hours.
/// Cases are checked as they are made, none kept.
#[test]
#[ignore = "slow scan of the generator's truth: CAUDAL_CORPUS_SEEDS=A..B cargo test --release --test rust_tests corpus_generator_only -- --ignored --nocapture"]
fn corpus_generator_only() {
    let seeds = slow_seeds();
    let problems: Vec<String> = seeds
        .clone()
        .into_par_iter()
        .flat_map_iter(|seed| {
            let c = corpus::case(seed);
            let mut p: Vec<String> =
                problems(seed, &c).into_iter().map(|p| format!("seed {seed}: {p}")).collect();
            p.extend(artist_meets_the_bars(&c).err());
            p
        })
        .collect();
    for p in &problems {
        eprintln!("{p}");
    }
    eprintln!("generator only, seeds {seeds:?}: {} problems", problems.len());
    assert!(problems.is_empty(), "{problems:#?}");
}

#[test]
#[ignore = "slow (2000 seeds), and enable when detection of issue 12 lands"]
fn corpus_slow_every_case_passes() {
    let (results, problems) = run(generate(SLOW_SEEDS));
    eprintln!("{}", table(&results));
    assert!(problems.is_empty(), "{problems:#?}");
    assert_every_case_passes(&results);
}

/// Seeds per class run.
const CLASS_SEEDS: Range<u64> = 1000..1016;

fn class_passes(class: FailureClass) {
    let cases: Vec<(u64, CorpusCase)> =
        CLASS_SEEDS.into_par_iter().map(|s| (s, corpus::case_forced(s, class))).collect();
    assert!(cases.iter().all(|(_, c)| c.truth.has(class)));
    let results: Vec<Measured> = cases.par_iter().map(|(_, c)| measure(c)).collect();
    eprintln!("{} forced on seeds {CLASS_SEEDS:?}\n{}", class.name(), table(&results));
    assert_every_case_passes(&results);
}

macro_rules! class_tests {
    ($($name:ident => $class:ident),* $(,)?) => {
        $(
            #[test]
            #[ignore = "enable when detection of issue 12 lands"]
            fn $name() {
                class_passes(FailureClass::$class);
            }
        )*
    };
}

class_tests! {
    corpus_class_quadruped => Quadruped,
    corpus_class_biped => Biped,
    corpus_class_dinosaur => Dinosaur,
    corpus_class_names_mixamo => NamesMixamo,
    corpus_class_names_rigify => NamesRigify,
    corpus_class_names_max_biped => NamesMaxBiped,
    corpus_class_names_maya => NamesMaya,
    corpus_class_names_quaternius => NamesQuaternius,
    corpus_class_names_generic => NamesGeneric,
    corpus_class_decoy_hips => DecoyHips,
    corpus_class_decoy_controls => DecoyControls,
    corpus_class_helper_bones => HelperBones,
    corpus_class_short_tail => ShortTail,
    corpus_class_long_tail => LongTail,
    corpus_class_thin_tail => ThinTail,
    corpus_class_thick_tail => ThickTail,
    corpus_class_hanging_tail => HangingTail,
    corpus_class_level_tail => LevelTail,
    corpus_class_curled_tail => CurledTail,
    corpus_class_fur_shell => FurShell,
    corpus_class_separate_shell => SeparateShell,
    corpus_class_uv_seams => UvSeams,
    corpus_class_cape_or_skirt => CapeOrSkirt,
    corpus_class_ears => Ears,
    corpus_class_quiver => Quiver,
    corpus_class_rigger_legs => RiggerLegs,
    corpus_class_rigger_nearest => RiggerNearest,
    corpus_class_rigger_pelvis => RiggerPelvis,
    corpus_class_rigger_spine => RiggerSpine,
    corpus_class_rotated_bind => RotatedBind,
    corpus_class_units_and_axes => UnitsAndAxes,
    corpus_class_unwelded => Unwelded,
    corpus_class_multi_character => MultiCharacter,
}
