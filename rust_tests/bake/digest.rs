//! The repair's output, bit for bit: every degraded fixture (and the
//! two-character file) grown, baked (its first two clips) and encoded as
//! GLB, each file's bytes hashed. A refactor must leave every digest as it
//! is; a change that means to move a figure re-blesses the list
//! (`CAUDAL_BLESS_DIGESTS=1 cargo test --test rust_tests bake_digests`) and
//! says so in its commit.

use std::fmt::Write as _;

use caudal::appendage::Decision;
use caudal::bake::{bake_model, find_chains, tracks, BakeParams};
use caudal::chain::{grow_chains, ChainParams};
use caudal::gltf_io::{encode, AnimationTrack};
use caudal::Rig;
use rayon::prelude::*;

use crate::common;

const FILES: &[&str] = &[
    "fox/Fox_notail.glb",
    "quaternius_wolf/Wolf_notail.glb",
    "quaternius_shiba_inu/ShibaInu_notail.glb",
    "quaternius_alpaca/Alpaca_notail.glb",
    "rat/rat_notail.glb",
    "zebra/zebra_notail.glb",
    "phoenix_bird/phoenix_bird_notail.glb",
    "horse_rigify/horse_rigify_notail.glb",
    "cat_kenchoo/cat_kenchoo_notail.glb",
    "rabbit_rigify/rabbit_rigify_notail.glb",
    "fieldmouse_rigify/fieldmouse_rigify_notail.glb",
    "dragon_white_lowpoly/dragon_white_lowpoly_notail.glb",
    "two_foxes/two_foxes.glb",
];

/// Degraded fixtures that get no chain today: none (the phoenix, the last
/// one, hangs from the bones that move its ribbon; docs/appendage.md). A
/// file listed here has its digest guard that it is written back with
/// nothing grown on it.
const NO_CHAIN: &[&str] = &[];

/// How many clips of each file are baked: enough to cover loops and
/// one-shots on the fixtures, few enough for the suite's time.
const CLIPS_PER_FILE: usize = 2;

const DIGESTS: &str = "rust_tests/bake/digests.txt";

/// FNV-1a, 64 bits: stable across platforms and Rust versions (std's
/// hashers promise neither).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3))
}

fn repaired_bytes(rel: &str) -> Vec<u8> {
    let model = common::load(rel);
    let mut rigs: Vec<Rig> = Vec::new();
    let mut all_tracks: Vec<AnimationTrack> = Vec::new();
    for (c, character) in model.characters.iter().enumerate() {
        let (rig, report) = grow_chains(&character.rig, &ChainParams::default())
            .unwrap_or_else(|e| panic!("{rel}: {e}"));
        if report.parts.iter().any(|p| p.decision == Decision::Chain) {
            let chains = find_chains(&rig).unwrap_or_else(|e| panic!("{rel}: {e}"));
            let names: Vec<String> =
                model.animations.iter().take(CLIPS_PER_FILE).map(|a| a.name.clone()).collect();
            let bake = bake_model(&model, c, &rig, &chains, Some(&names), &BakeParams::default())
                .unwrap_or_else(|e| panic!("{rel}: {e}"));
            all_tracks.extend(tracks(&bake));
        }
        rigs.push(rig);
    }
    // Every file here has a tail: a digest of an unrepaired file guards
    // only that nothing was grown, which is what NO_CHAIN's entries say.
    assert_eq!(all_tracks.is_empty(), NO_CHAIN.contains(&rel), "{rel}: chains baked or not");
    let refs: Vec<&Rig> = rigs.iter().collect();
    encode(&model, &refs, &all_tracks, false).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

#[test]
fn bake_digests() {
    let found: Vec<String> =
        FILES.par_iter().map(|rel| format!("{rel} {:016x}", fnv1a(&repaired_bytes(rel)))).collect();
    let mut text = String::new();
    for line in &found {
        writeln!(text, "{line}").unwrap();
    }
    let path = common::repo(DIGESTS);
    if std::env::var_os("CAUDAL_BLESS_DIGESTS").is_some() {
        std::fs::write(&path, &text).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path).unwrap_or_default();
    assert_eq!(
        want, text,
        "the repaired files' bytes changed (a refactor must not move them; \
         a change that means to: CAUDAL_BLESS_DIGESTS=1 and say so)"
    );
}
