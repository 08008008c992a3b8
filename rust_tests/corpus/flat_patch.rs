//! Far skin that does not stick out (issue 12's `false_chain` class): on a
//! biped with wide hips the skin between the thighs lies farther from every
//! bone than the far threshold. That patch is wider than it is deep, so its
//! covariance read as long (elongation 2.4-3.0, tube ratio 1.1-1.2) and it
//! hung from the pelvis: a chain on the crotch. Its geodesic length from its
//! collar is under the collar's radius (0.86-0.90), which no part that stands
//! out of the body can be (`appendage::FLAT_PATCH_LENGTH`).

use caudal::demo::corpus;

use super::harness::measure;

#[test]
fn corpus_the_skin_between_a_bipeds_thighs_gets_no_chain() {
    for seed in [79, 111, 189] {
        let measured = measure(&corpus::case(seed));
        assert!(!measured.failures.contains(&"false_chain"), "seed {seed}: {:?}", measured.details);
    }
    // 111 and 189 failed only on that chain; 79 still misses a tenth of its
    // tail's root (recall 0.903).
    for seed in [111, 189] {
        let measured = measure(&corpus::case(seed));
        assert!(measured.passed(), "seed {seed}: {:?}", measured.details);
    }
}
