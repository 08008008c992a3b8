//! A short hanging tail whose peeled piece is joined, rim to rim, to a band
//! of rump skin along the ridge of the skeleton distance (the rump's midline
//! between the thighs): the band's cores that do not stick out on their own
//! go back to the body before the piece is trimmed and grown
//! (`appendage::peel::without_bands`).

use super::harness::assert_cases_pass;

#[test]
fn corpus_a_ridge_band_on_the_rump_does_not_ride_with_a_short_tail() {
    // Seed 192's LizardB: the piece held 86 tail vertices and a 27-vertex
    // band running 4-7 root radii down the rump; grown back as one piece,
    // its collar lay at the band's end (root 2.2 root radii off, precision
    // 0.873). Without the band: 181 of 181 tail, root 0.04 radii off.
    assert_cases_pass(&[192]);
}
