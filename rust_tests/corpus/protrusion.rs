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
