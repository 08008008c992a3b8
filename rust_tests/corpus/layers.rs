//! A tail's fur shell and the skin under it are one part (issue 12): on
//! these seeds the fur, a shell of its own that touches no body skin, took
//! its attachment from the thigh it hangs past while the skin hung from the
//! pelvis, so the two were never merged and each got half the tail (two
//! chains, recall 0.500). As layers of one tube they merge
//! (`appendage::LAYER_GAP_WIDTHS`) and one chain takes the whole tail.

use std::collections::HashSet;

use caudal::appendage::{find_appendages, Decision, DetectParams};
use caudal::demo::corpus;
use caudal::gltf_io;

use super::harness::{assert_cases_pass, character, measure, rig_vertices};

fn fur_and_skin_are_one_chain(seed: u64) {
    let case = corpus::case(seed);
    assert!(case.truth.classes.iter().any(|c| c.name() == "fur_shell"), "seed {seed} has fur");
    let model = gltf_io::load_bytes(&case.glb, None, "corpus").unwrap();
    let ch = &case.truth.characters[0];
    let m = character(&model, ch);
    let report = find_appendages(&m.rig, &DetectParams::default()).unwrap();
    let tail: HashSet<u32> = rig_vertices(m, &ch.tails[0].vertices).into_iter().collect();
    let holding: Vec<_> =
        report.parts.iter().filter(|p| p.vertices.iter().any(|v| tail.contains(v))).collect();
    assert_eq!(holding.len(), 1, "seed {seed}: the tail's skin and fur in {} parts", holding.len());
    let part = holding[0];
    assert_eq!(part.decision, Decision::Chain, "seed {seed}: {}", part.reason);
    assert_eq!(part.shells, 2, "seed {seed}: fur and skin merged as two shells");
    assert!(tail.iter().all(|v| part.vertices.contains(v)), "seed {seed}: all of the tail");
    let measured = measure(&case);
    assert!(
        !measured.failures.iter().any(|f| matches!(*f, "recall" | "split_tail" | "no_chain")),
        "seed {seed}: {:?}",
        measured.details
    );
}

#[test]
fn corpus_fur_shell_over_a_thigh_is_one_part_with_its_skin() {
    // 19: a thick hanging tail, the fur attached to the right thigh; 54: a
    // long level tail, the fur attached to a back shoulder joint.
    for seed in [19, 54] {
        fur_and_skin_are_one_chain(seed);
    }
}

#[test]
fn corpus_tail_skin_under_a_fur_shell_leaves_the_body_part() {
    // 17 and 176: short tails whose skin sits in a far piece wrapping a body
    // bone (centroid ratio 0.21 and 0.18: judged body) while the fur, a
    // shell of its own, got the chain with half the tail.
    assert_cases_pass(&[17, 176]);
}

#[test]
fn corpus_tail_skin_in_a_covering_at_the_furs_own_joint_goes_to_the_fur() {
    // 41645 (look window 40000..42000), second character: the tail's skin
    // (165 of its 181 vertices) lay in a far part of 519 welded vertices
    // wrapping the pelvis (centroid ratio 0.17: body), a covering hanging
    // from the pelvis like the fur. The carve skipped parts at the fur's own
    // joint, leaving them to T5, which never merges a covering with a shell
    // standing out of it: the chain grew on the fur alone (recall 0.500).
    // 665 and 1985 (held out) failed the same way, found by the rule.
    assert_cases_pass(&[41645, 665, 1985]);
}

#[test]
fn corpus_a_fur_shell_rides_the_bones_under_it_once_the_tail_grows_to_the_body() {
    // 98 and 181: the fur touches no body skin; once the skin's root grew to
    // the body the part's coordinate was measured from the skin's ring
    // alone, the fur was out of reach and every fur vertex rode the chain's
    // last bone (the tail's weighted bone distance fell 43% and 48%, under
    // the bar's 50%; the fur's was 6x the artist's).
    assert_cases_pass(&[98, 181]);
}

#[test]
fn corpus_a_fur_shell_only_partly_far_still_takes_the_skin_under_it() {
    // 184: a short hanging tail whose fur stands past the far threshold only
    // along its outer part. The far piece was part of the fur shell, with
    // edges on into the fur's own near part, so it did not read as a shell of
    // its own: the chain grew on the fur alone (recall 0.500) and the skin
    // under it stayed in a body part, on the rigger's leg weights.
    assert_cases_pass(&[184]);
}

#[test]
fn corpus_a_tails_root_half_left_in_layered_peel_remainders_joins_its_chain() {
    // 103: a thick hanging tail under a fur shell, peeled at a saddle half
    // way along. The peeled tip half (148 of the tail's 752 vertices) got
    // the chain on the pelvis; the root half stayed as two whole peel
    // remainders beside a thigh, the skin (257) and the fur over it (300),
    // and the tube walk stopped half a root radius into them at the thick
    // tail's slow widening (recall 0.197). Both remainders continue the
    // part's layers from its root ring and join the tail whole.
    assert_cases_pass(&[103]);
}

#[test]
fn corpus_a_fur_over_a_tail_lying_on_the_rump_is_one_part_with_it() {
    // Short hanging biped tails under a fur (look windows): the skin's tip
    // stands off less than its own width, so it reads as lying on the body
    // (a covering), while the fur proud of it stands out. The carve left the
    // skin, the fur's whole layer, to T5, which refused a covering with a
    // shell standing out of it: one chain each, recall 0.500
    // (`appendage::detect::merge` now merges such layers).
    // 40803's second character, a RatB, the same way.
    assert_cases_pass(&[40803, 44454, 55270]);
    for seed in [44454, 55270] {
        let case = corpus::case(seed);
        let model = gltf_io::load_bytes(&case.glb, None, "corpus").unwrap();
        let m = character(&model, &case.truth.characters[0]);
        let report = find_appendages(&m.rig, &DetectParams::default()).unwrap();
        let chains: Vec<_> =
            report.parts.iter().filter(|p| p.decision == Decision::Chain).collect();
        assert_eq!(chains.len(), 1, "seed {seed}: one chain");
        assert_eq!(chains[0].shells, 2, "seed {seed}: the skin and the fur in one part");
    }
}

#[test]
fn corpus_a_fur_takes_its_tail_skin_out_of_far_skin_wrapping_the_pelvis_at_its_own_joint() {
    // Short and thick hanging tails under a fur (look windows). The tail's
    // skin lay in one far region with the rump's (553 and 548 welded
    // vertices, wrapping the pelvis) hanging from the fur's own joint, so
    // the carve left the pair to T5, which merged them whole: 750 and 753
    // welded vertices, centroid ratio 0.13 and 0.10, judged body, no chain
    // (40092, 47652). The fur, which stands out, now takes the skin under
    // it. 49826 (Imp): the same, and a blanket on the back had carved 127
    // vertices of that far skin (the tail's root among them) as its own
    // layer; the skin under a covering is the body's, and it no longer
    // carves from far skin that wraps a bone.
    assert_cases_pass(&[40092, 47652, 49826]);
}

#[test]
fn corpus_a_piece_that_only_shares_a_separate_shells_box_is_not_merged_with_it() {
    // Separate surfaces at one attachment whose boxes overlap by more than
    // half were one part whatever lay in the boxes. A piece of rump skin or
    // of a cape beside a separate tail shell's root lies mostly outside the
    // shell (3-8% of its vertices under it): merged, it gave the part its
    // collar and root, and the chain's root joint left the centre line
    // (48175, 51146: 2.55 and 3.12 local radii) or the part read broad or
    // body (45661, 53852: no chain). The smaller now merges only when more
    // than half of it lies under the larger (`appendage::detect::merge`).
    assert_cases_pass(&[45661, 48175, 51146, 53852]);
    // A skin lies under its fur all along: still one part, one chain.
    for seed in [40411, 52861] {
        fur_and_skin_are_one_chain(seed);
    }
}
