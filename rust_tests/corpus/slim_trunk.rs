//! A thick tail on a slim biped's trunk (issue 12): the tail thickens
//! steadily to its root and meets a trunk hardly wider than itself, so no
//! ring the walk from its tip read ever grew `TUBE_JOIN_FLARE` times the
//! narrowest: the walk ran on up and down the trunk, the far part kept its
//! ring on the trunk, and the walk back from that ring read the trunk as
//! the tube going on (52108: 242 trunk vertices on the chain, precision
//! 0.514, the first joint 2.8 radii off). The front's centre stalls there
//! instead of advancing along the tube (`TUBE_ADVANCE_SHARE` in
//! `src/appendage/root.rs`).

use super::harness::one_chain_per_tail_and_every_bar;

#[test]
fn corpus_a_thick_tail_on_a_slim_trunk_stops_where_the_trunk_begins() {
    // Look-window bipeds, precision 0.51-0.71 at stop 52: 52108 and 54269
    // level tails, 44013 and 51539 curled.
    for seed in [52108, 54269, 44013, 51539] {
        one_chain_per_tail_and_every_bar(seed);
    }
}
