//! The roles of a grown rig are its source rig's: the spring reads the
//! body's facing from the roles of the rig it bakes, which is the grown
//! rig, whose new chain carries the tail's skin.

use caudal::chain::{grow_chains, ChainParams};
use caudal::demo::corpus;
use caudal::rig::{JointRoles, RoleOverrides};
use caudal::Rig;

use super::harness::per_character;

/// Pelvis, neck and head by name, and the facing, of `rig`.
fn read(rig: &Rig) -> (Vec<Option<String>>, Option<glam::Vec3>) {
    let r = JointRoles::find(rig, &RoleOverrides::default()).unwrap();
    let name = |j: Option<usize>| j.map(|j| rig.joint_names()[j].clone());
    (vec![name(r.pelvis), name(r.neck), name(r.head)], r.facing)
}

/// Every character of `seed` with a chain whose grown rig reads other
/// roles than its source rig, and whether any character had a chain.
fn misread(seed: u64) -> (bool, Vec<String>) {
    let case = corpus::case(seed);
    // One entry per character with a chain: None when it reads alike.
    let checked = per_character(seed, &case, |seed, _, ch, _| {
        let Ok((grown, _)) = grow_chains(&ch.rig, &ChainParams::default()) else {
            return Vec::new();
        };
        let ((a, fa), (b, fb)) = (read(&ch.rig), read(&grown));
        let same_facing = matches!((fa, fb), (Some(x), Some(y)) if x.dot(y) > 0.99);
        vec![(a != b || !same_facing)
            .then(|| format!("seed {seed}: {a:?} {fa:?}, grown {b:?} {fb:?}"))]
    });
    (!checked.is_empty(), checked.into_iter().flatten().collect())
}

/// Weighed by vertex count, a grown chain was read as the trunk's heavier
/// end on 57 characters of seeds 0..200 (stop 30): the tail as the head,
/// the facing reversed (seed 19: head `Tail_5`, facing -Z for +Z), so the
/// rest arc and the forward plane bent the tail the wrong way. Weighed by
/// surface, 17 characters of 0..200 still did (seeds 3, 5, 33, 87, 95,
/// 98 twice, 114, 126, 143, 147, 151, 153, 154, 165, 181, 196); with a
/// chain's skin read as the joint it hangs from (`rig::roles::grown`) none
/// does. Every character with a chain in 0..200 (about 5 s).
#[test]
fn corpus_a_grown_chain_is_not_read_as_the_head() {
    let (mut chained, mut wrong) = (0, Vec::new());
    for seed in 0..200 {
        let (c, w) = misread(seed);
        chained += c as usize;
        wrong.extend(w);
    }
    assert!(chained > 150, "only {chained} seeds grew a chain");
    assert!(wrong.is_empty(), "{} misread: {wrong:#?}", wrong.len());
}
