//! A short tail hanging against a quadruped's rump, the far level running
//! round it and a lump of haunch beside it: the stub's part held both,
//! joined only through skin next to the body, and the chain grew from
//! their common centre (look seeds 300 and 533: grown joints 2.4 and 3.9
//! local radii off the tail's line, precision 0.87 and 0.86). A stub's
//! part keeps, per shell, its largest inside (vertices whose neighbours
//! are all in the part) with the skin round it
//! (`Surface::stub_to_its_core`).

use super::harness::assert_cases_pass;

#[test]
fn corpus_a_stub_hanging_against_the_rump_keeps_its_own_core() {
    assert_cases_pass(&[300, 533]);
}
