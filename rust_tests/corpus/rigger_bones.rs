//! A tail the rigger weighted to different bones along its length (issue
//! 12's `recall` class): a nearest-bone or leg rigger gives a long hanging
//! tail's far part to a shin and its near part to the thigh, pelvis or
//! spine it passes. The walk back along the tube over skin the rigger's
//! weights read as tail stopped at that change of bones and left the near
//! part of the tail on the body; the weights now bound the walk only within
//! a tube radius of where the tube's shape opens onto the body
//! (`appendage::RIGGER_ROOT_TUBE_RADII`).

use super::harness::assert_cases_pass;

#[test]
fn corpus_a_riggers_change_of_bones_along_the_tail_is_not_its_root() {
    // Each failed recall (0.60-0.88) with the walk stopped at the rigger's
    // change of bones; each passes every bar with the shape deciding.
    assert_cases_pass(&[66, 81, 156]);
}
