//! The tube wall past the low side of a slanted root ring joins the tail:
//! skin next to the part nearer the root's cut centre than the part's own
//! root ring lies on average (`take_ring_low_side` in
//! src/appendage/detect/root_growth.rs).

use super::harness::assert_cases_pass;

#[test]
fn corpus_the_tube_wall_past_a_slanted_rings_low_side_joins_the_tail() {
    // Seed 30 (the Otter, a short hanging tail, `rigger_pelvis`): the walk
    // back kept 1.5 radii over the top of the root and left 18 underside
    // vertices (tail_u 0-0.18), 0.83-1.01 truth root radii from the root's
    // centre, in a peel remainder judged body after the tail: recall failed
    // with 199 of the 217 tail vertices.
    assert_cases_pass(&[30]);
}
