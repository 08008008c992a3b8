//! A peeled tail whose root ring is slanted is walked back twice: from that
//! ring and from the ring across its tube. When the walk from the slanted
//! ring keeps less than two radii of tube before its flare, it stopped in
//! the flare at the ring's low side and its skin is the collar round the
//! root: only the walk across joins (`take_walks` in
//! src/appendage/detect/root_growth.rs).

use super::harness::assert_cases_pass;

#[test]
fn corpus_a_slanted_ring_walk_stopped_in_its_flare_gives_way_to_the_walk_across() {
    // Seed 436 (a thick hanging tail, Rat): the walk from the slanted ring
    // kept 0.5 radii, 10 welded vertices of which 6 were the truth's collar
    // and rump skin; with them the chain took 18 welded vertices of body
    // skin and precision was 0.949. The walk across kept 2.0 radii and every
    // tail vertex of those 10.
    assert_cases_pass(&[436]);
}
