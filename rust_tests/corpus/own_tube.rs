//! A tail's far part whose root ring lies on the rump is trimmed back to
//! its own tube before its root grows (`trim_to_own_tube` in
//! src/appendage/detect/root_growth.rs; docs/appendage.md, "A far part
//! whose root ring lies on the body is trimmed to its own tube").

use super::harness::assert_cases_pass;

#[test]
fn corpus_a_far_part_whose_root_ring_lies_on_the_rump_is_trimmed_to_its_tube() {
    // Seed 369 (a curled Fox tail on a biped, `rigger_nearest`): the far cut
    // ran over the slim rump beside the root, so the far part held 13
    // welded vertices of rump skin and its root ring (1.82 root radii, its
    // centre 1.42 radii off the tail's line) lay round them. Walked back
    // from that ring the tube saw no flare and climbed the back: 3353
    // vertices, 1477 of them body (precision 0.559). Trimmed to the tube
    // walked back from its outer half, the part keeps 304 welded vertices
    // (one of them body) and a ring of 1.22 radii 0.26 off; grown from
    // there it holds 1924 vertices, 1876 of them tail.
    assert_cases_pass(&[369]);
}
