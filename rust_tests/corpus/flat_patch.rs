//! Far skin that does not stick out (issue 12's `false_chain` class): on a
//! biped with wide hips the skin between the thighs lies farther from every
//! bone than the far threshold. That patch is wider than it is deep, so its
//! covariance read as long (elongation 2.4-3.0, tube ratio 1.1-1.2) and it
//! hung from the pelvis: a chain on the crotch. Its geodesic length from its
//! collar is under the collar's radius (0.86-0.90), which no part that stands
//! out of the body can be (`appendage::FLAT_PATCH_LENGTH`). A flat end cap
//! of the torso, as long along the skin as a stub tail, lifts its pole
//! less than a hemisphere would (`appendage::FLAT_TIP_STANDOFF`).

use caudal::demo::corpus;

use super::harness::measure;

#[test]
fn corpus_the_skin_between_a_bipeds_thighs_gets_no_chain() {
    for seed in [79, 111, 189] {
        let measured = measure(&corpus::case(seed));
        assert!(!measured.failures.contains(&"false_chain"), "seed {seed}: {:?}", measured.details);
        // 111 and 189 failed only on that chain; 79 also missed a tenth of
        // its tail's root then (recall 0.903, met since the tube walk's
        // flare window), so only its chain is held here.
        if seed != 79 {
            assert!(measured.passed(), "seed {seed}: {:?}", measured.details);
        }
    }
}

/// The flat end cap of a torso tube (a fan of rings closing the body behind
/// the pelvis, its pole at the rings' centre) is far skin as long along the
/// skin as a stub tail, and its concentric geodesic bands read as a tube
/// (elongation 1.11, tube ratio 2.06). Its pole stands 0.34 of its collar's
/// radius from where it meets the body, less than any cap over the collar
/// (`appendage::FLAT_TIP_STANDOFF`): seed 10 grew a chain `Tail2_1` on it.
#[test]
fn corpus_the_flat_end_cap_of_a_torso_gets_no_chain() {
    let measured = measure(&corpus::case(10));
    assert!(!measured.failures.contains(&"false_chain"), "{:?}", measured.details);
}
