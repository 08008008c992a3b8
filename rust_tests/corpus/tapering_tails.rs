//! A long thin tail widens slowly towards the body. Walked back from where
//! the far cut left it (`follow_tube` in `src/appendage/root.rs`), its ring
//! was held against the narrowest ring since the start, so the taper alone
//! passed the flare after 8-25 radii and the walk stopped short of the body;
//! and a walk that ran the part's whole length back along the tail, its
//! front still a tube's ring, took nothing. A flare is now a widening within
//! a few radii walked, and the tube walked to the length bound is kept
//! once the walk is long enough to have seen a flare. A thick tail walked
//! back from its tip end widens fast enough to pass the flare within its
//! window; it is told from the body by its front's pace.

use super::harness::assert_cases_pass;

#[test]
fn corpus_a_tapering_tail_is_walked_past_its_taper() {
    // Each failed recall (0.69-0.94): the taper read as a flare (46, 171) or
    // the walk reached the length bound and took nothing (4, 39, 56); each
    // passes every bar.
    assert_cases_pass(&[4, 39, 46, 56, 171]);
}

/// A thick hanging tail whose far cut or saddle left only its tip end in
/// the part is walked back from a ring that widens a fifth to a quarter of
/// a radius per radius walked: 1.5x within three radii, read as the flare.
/// Its front's centre keeps moving along its line as fast as the walk,
/// which a front spreading onto the body does not
/// (`appendage::root::TUBE_TAPER_PACE`).
#[test]
fn corpus_a_thick_tails_steep_taper_is_walked_while_its_front_keeps_pace() {
    // Recall 0.708 and 0.881 with the walk stopped in the taper (47875 at
    // 1.5 radii, 49126 at 1.0); each passes every bar.
    assert_cases_pass(&[47875, 49126]);
}
