//! Far skin that does not stick out (issue 12's `false_chain` class): on a
//! biped with wide hips the skin between the thighs lies farther from every
//! bone than the far threshold. That patch is wider than it is deep, so its
//! covariance read as long (elongation 2.4-3.0, tube ratio 1.1-1.2) and it
//! hung from the pelvis: a chain on the crotch. Its geodesic length from its
//! collar is under the collar's radius (0.86-0.90), which no part that stands
//! out of the body can be (`appendage::FLAT_PATCH_LENGTH`). A flat end cap
//! of the torso, as long along the skin as a stub tail, lifts its pole
//! less than a hemisphere would (`appendage::FLAT_TIP_STANDOFF`); so does
//! the torso's rounded rear end, which is not flat but does not stand out
//! of the far cut as a stub tail must.

use caudal::appendage::{detect, DetectParams, Kind};
use caudal::demo::corpus;

use super::harness::{measure, per_character};

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

/// The torso's rounded rear end: the fan closing the torso tube with a few
/// far vertices of the next ring on one side (20-25 welded vertices), so it
/// is not flat (0.31-0.56), and its geodesic bands, arcs of the rings round
/// its pole, read as a tube (tube ratio 1.33-4.16; elongation only
/// 1.25-1.51): seeds 800, 1349, 1777 and 2075 (curled tails and a hanging
/// one, on separate shells or under fur) grew a second chain `Tail2_1` on
/// it. Its tip lies within its collar's radius of where it meets the body
/// (0.38-0.54) and stands only 1.23-1.34 far thresholds off the skeleton,
/// rising 0.31-0.41 of its collar's radius above the far cut: long only by
/// its tube ratio and not standing out as a stub tail must, it is body skin
/// (`Surface::cap_over_collar`), and each seed passes every bar.
#[test]
fn corpus_the_rounded_rear_end_of_a_torso_gets_no_chain() {
    let params = DetectParams::default();
    // (seed, welded vertices of the rear end, its tip in far thresholds)
    for (seed, welded, reach) in
        [(800, 25, 1.335), (1349, 23, 1.247), (1777, 20, 1.228), (2075, 22, 1.320)]
    {
        let case = corpus::case(seed);
        let caps = per_character(seed, &case, |_, _, model, _| {
            let d = detect(&model.rig, &params).expect("detects");
            let far = d.report.far_threshold;
            d.report
                .parts
                .iter()
                .filter(|p| p.reason.contains("a cap of body skin just past the far cut"))
                .map(|p| (p.kind, p.welded_vertex_count, p.reach / far))
                .collect::<Vec<_>>()
        });
        let [(kind, count, tip)] = caps[..] else { panic!("seed {seed}: {caps:?}") };
        assert_eq!((kind, count), (Kind::Body, welded), "seed {seed}");
        assert!((tip - reach).abs() < 0.005 && tip < params.min_stub_reach, "seed {seed}: {tip}");
        let measured = measure(&case);
        assert!(measured.passed(), "seed {seed}: {:?}", measured.details);
    }
}

/// A short thin tail hanging behind the thighs is cut by the far threshold
/// along its length: its outer half, tip included, is far skin, and its
/// collar runs root to tip down both sides. Measured against that collar's
/// radius (half the tail's length) the half tube read 0.82-0.92 and was
/// demoted as a flat patch, leaving the tail on the rigger's bones. Its
/// geodesic bands run along the collar (tube ratio 0.29-0.81, under the
/// 1 of a patch spanning its collar: `appendage::STRIP_TUBE_RATIO`), so the
/// flat tests do not judge it, and it passes as a stub tail.
#[test]
fn corpus_a_short_tail_cut_along_its_length_is_no_flat_patch() {
    let params = DetectParams::default();
    for seed in [41060, 43607, 43959, 46985] {
        let case = corpus::case(seed);
        let strips = per_character(seed, &case, |_, _, model, _| {
            let d = detect(&model.rig, &params).expect("detect");
            d.report
                .parts
                .iter()
                .filter(|p| p.tests.tube_ratio < caudal::appendage::STRIP_TUBE_RATIO)
                .map(|p| (p.kind, p.reason.clone()))
                .collect::<Vec<_>>()
        });
        assert!(
            strips.iter().any(|(kind, _)| *kind == Kind::Tail),
            "seed {seed}: no strip judged a tail: {strips:?}"
        );
        let measured = measure(&case);
        assert!(measured.passed(), "seed {seed}: {:?}", measured.details);
    }
}
