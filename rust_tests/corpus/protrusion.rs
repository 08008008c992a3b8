//! A short tail that leaves the rump obliquely (issue 12's `no_chain`
//! class): its far skin is one region with the back's, which fails the
//! centroid test, and peeling must split it off. The tail rises above its
//! saddle in the skeleton field by less than its length (its nearest bone
//! lies below it), and its base ring at the saddle is ragged: one vertex
//! strays along the rump. Measured by that farthest vertex, the ring was
//! wider than the tail rises and the piece went back to the body (no
//! chain); measured by its median radius, as every other root radius in
//! detection is, the piece sticks out (`appendage::peel`, `base_radius`).

use caudal::demo::corpus;

use super::harness::{measure, MIN_PRECISION};

#[test]
fn corpus_a_short_oblique_tail_is_peeled_off_the_body() {
    // Each had no chain, the tail inside a far piece judged body; each now
    // gets one chain holding its tail (recall 0.81-0.95, the root ring not
    // all grown back).
    for seed in [0, 30, 115] {
        let m = measure(&corpus::case(seed));
        assert!(!m.failures.contains(&"no_chain"), "seed {seed}: {:?}", m.details);
        for t in &m.tails {
            assert!(t.chain.is_some(), "seed {seed}: {:?}", m.details);
            assert!(t.precision >= MIN_PRECISION && t.recall >= 0.8, "seed {seed}: {t:?}");
        }
    }
}

#[test]
fn corpus_a_tail_cut_short_is_walked_back_as_far_as_its_tip_stands_off() {
    // Each had no chain: the piece above the saddle (or the far cut) held
    // only the tail's far end, shorter than the rest of the tail, and the
    // walk back, bounded by that piece's length, met no body and took
    // nothing (then the stub rule dropped a piece under 0.05 H). Bounded by
    // how far the tip stands off the skeleton, each tail is walked to its
    // root and passes every bar.
    for seed in [29, 40, 198] {
        let m = measure(&corpus::case(seed));
        assert!(m.passed(), "seed {seed}: {:?}", m.details);
    }
}
