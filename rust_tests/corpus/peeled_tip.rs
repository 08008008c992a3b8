//! A long hanging tail whose far end passes a shin: the skeleton distance
//! dips where the tail passes the shin or calf, and peeling cuts the tip
//! off there. The tip piece's collar is that dip, so it hung from the shin
//! ("follows its limb"), and the rest of the tail, a peel remainder that
//! does not wrap a bone, was body (no_chain). The piece and the remainders
//! on its collar ring (`rest_of_tube` in `src/appendage/detect/part.rs`),
//! with the far skin no candidate holds between them (what the piece's
//! neck trim dropped), are read as one tube that joins the body at the
//! pelvis.

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

#[test]
fn corpus_a_peeled_tip_joins_its_tube_with_the_skin_its_neck_trim_dropped() {
    // Look seed 422 with `hanging_tail` forced: the tail is a shell of its
    // own, peeled at the shin into a tip of 72 welded vertices that the
    // neck trim cut to 41; the 31 it dropped (all tail, 4.3-4.7 far
    // thresholds) lay in no candidate, between the tip and the 190-vertex
    // remainder. Without them the tube's only collar was the edge of that
    // hole, by the shin (RightLeg, no_chain); with them the whole shell
    // joins the body at its buried start, on the pelvis region.
    let m = measure(&corpus::case_forced(422, FailureClass::HangingTail));
    assert!(m.passed(), "seed 422 (hanging_tail forced): {:?}", m.details);
}
