//! A long hanging tail whose far end passes a shin: the skeleton distance
//! dips where the tail passes the shin or calf, and peeling cuts the tip
//! off there. The tip piece's collar is that dip, so it hung from the shin
//! ("follows its limb"), and the rest of the tail, a peel remainder that
//! does not wrap a bone, was body (no_chain). The piece and the remainders
//! on its collar ring (`rest_of_tube` in `src/appendage/detect/part.rs`)
//! are read as one tube that joins the body at the pelvis.

use caudal::demo::corpus::{self, FailureClass};

use super::harness::measure;

#[test]
fn corpus_a_hanging_tails_tip_peeled_at_a_shin_joins_the_rest_of_its_tube() {
    // Look seeds with the `hanging_tail` class forced; each was no_chain,
    // its tip (37-92 welded vertices) on a shin or calf, the rest of the
    // tail a remainder of 175-225 welded vertices, centroid ratio 0.80-0.87.
    for seed in [264, 277, 349, 442, 496] {
        let m = measure(&corpus::case_forced(seed, FailureClass::HangingTail));
        assert!(m.passed(), "seed {seed} (hanging_tail forced): {:?}", m.details);
    }
}
