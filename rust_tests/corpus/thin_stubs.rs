//! A thin short tail hanging behind the thighs (issue 12's `no_chain`
//! class): its far part is not long (tube ratio 0.80-0.89) and its tip
//! stands only 1.48-1.57 far thresholds off the skeleton, under
//! `appendage::MIN_STUB_REACH` (1.6), which is in H and blind to how thin
//! the part is; it was left to the rigger as a broad part. Its tip rises
//! above the far cut by more than its own mean radius (0.59-0.71 of its
//! mean width), which a bulge of body skin does not (0.11-0.37), so it is
//! a stub tail (`appendage::STUB_RISE_RADII`).

use caudal::appendage::{find_appendages, Decision, DetectParams};
use caudal::demo::corpus;
use caudal::gltf_io;

use super::harness::assert_cases_pass;

#[test]
fn corpus_a_thin_short_tail_under_the_stub_reach_gets_a_chain() {
    // 94: a fur-covered 0.066 H tail on a quadruped; 262, 323: 0.057 and
    // 0.061 H tails on bipeds (hanging, curled).
    assert_cases_pass(&[94, 262, 323]);
}

/// The report says which reach bar a stub met: a thin stub's reason names
/// its rise above the far cut, not `min_stub_reach`, which it is under.
#[test]
fn a_thin_stubs_reason_names_the_rule_that_found_it() {
    let case = corpus::case(94);
    let model = gltf_io::load_bytes(&case.glb, None, "corpus").unwrap();
    let report = find_appendages(&model.characters[0].rig, &DetectParams::default()).unwrap();
    let stubs: Vec<&str> = report
        .parts
        .iter()
        .filter(|p| p.decision == Decision::Chain && p.reason.starts_with("a stub tail"))
        .map(|p| p.reason.as_str())
        .collect();
    assert_eq!(stubs.len(), 1, "{}", report.to_json());
    assert!(
        stubs[0].contains("< min_stub_reach") && stubs[0].contains("STUB_RISE_RADII"),
        "{}",
        stubs[0]
    );
}

#[test]
fn corpus_a_short_tail_is_as_long_as_the_skin_its_rigger_grew_at_the_root() {
    // Short level tails (0.050-0.059 H along their centre lines) whose
    // rigger's weights took their first ring or two: measured from the tube
    // alone, which starts past that skin (0.13-0.14 up the tail), they read
    // 0.044-0.048 H, under `min_tail_length_ratio` (0.05), and got no chain.
    // The stub bar now adds how far that skin moved the root back (43617:
    // 9.74 + 2.56 = 12.30 against 12.34 along its centre line).
    assert_cases_pass(&[43617, 48006, 55121]);
}
