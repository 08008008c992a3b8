//! A long thin tail widens slowly towards the body. Walked back from where
//! the far cut left it (`follow_tube` in `src/appendage/root.rs`), its ring
//! was held against the narrowest ring since the start, so the taper alone
//! passed the flare after 8-25 radii and the walk stopped short of the body;
//! and a walk that ran the part's whole length back along the tail, its
//! front still a tube's ring, took nothing. A flare is now a widening within
//! a few radii walked, and the tube walked to the length bound is kept
//! once the walk is long enough to have seen a flare.

use super::harness::assert_cases_pass;

#[test]
fn corpus_a_tapering_tail_is_walked_past_its_taper() {
    // Each failed recall (0.69-0.94): the taper read as a flare (46, 171) or
    // the walk reached the length bound and took nothing (4, 39, 56); each
    // passes every bar.
    assert_cases_pass(&[4, 39, 46, 56, 171]);
}
