//! A peeled tail whose root ring is slanted is walked back twice: from that
//! ring and from the ring across its tube. When the walk from the slanted
//! ring keeps less than two radii of tube before its flare, it stopped in
//! the flare at the ring's low side and its skin is the collar round the
//! root: only the walk across joins (`take_walks` in
//! src/appendage/detect/root_growth.rs). A front that flares for one step
//! and is the tube's ring again at the next is such a ring turning level,
//! not the body (`FlareWatch` in src/appendage/root.rs).

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

#[test]
fn corpus_a_front_that_flares_for_one_step_is_a_slanted_ring_turning_level() {
    // 42482, a long thin hanging tail peeled where it passes a thigh: the
    // piece's root ring lies aslant (radius 0.0216 on a tail 0.0116
    // thick). The walk back read the front 0.0161, then 0.0246 (1.53 times
    // it: a flare), then 0.0164 and about the tail's own width for 0.34 of
    // the height. Stopped at that one step, it took nothing, and the tail's
    // root half stayed on the rigger's leg weights (recall 0.602). 46701
    // (recall 0.907) and 48946 (a joint 2.51 local radii off the centre
    // line) each had a walk stopped by a front that flared for one step and
    // read a tube's ring at the next. Walked on, each passes every bar.
    assert_cases_pass(&[42482, 46701, 48946]);
}
