//! A long tail whose root ring reaches the pelvis share of the trunk hangs
//! from the pelvis (issue 12): on a biped's short trunk the pelvis share is
//! shorter than a tail's root ring is wide, so a part judged at its
//! collar's centre sat up the spine when the far cut rose up its ring, and
//! the tail was carried rigidly by the spine: no chain. The part is now
//! judged on its whole collar (`Surface::collar_region` in
//! `src/appendage/detect/surface.rs`).

use super::harness::one_chain_per_tail_and_every_bar;

#[test]
fn corpus_a_long_tail_whose_ring_reaches_the_pelvis_share_hangs_from_the_pelvis() {
    // Look-window bipeds with no chain at stop 53: 45669 and 44037 thick
    // hanging tails, 47592 and 46331 curled, 46305 under fur.
    for seed in [45669, 47592, 44037, 46305, 46331] {
        one_chain_per_tail_and_every_bar(seed);
    }
}
