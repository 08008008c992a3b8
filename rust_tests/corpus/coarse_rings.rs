//! A coarse thin tail's rings lie two to four tube radii apart. Walked back
//! from where the far cut left it, the skin next to what lies within a
//! geodesic level mixed two rings once part of a ring was walked (read
//! 1.5-2x the tube's radius) or, beside a few walked vertices, was a patch a
//! fraction of it (so the next full ring "flared"), and the walk stopped
//! short of the body. The ring is now the level set's contour across the
//! mesh's edges (`follow_tube` in `src/appendage/root.rs`).

use super::harness::assert_cases_pass;

#[test]
fn corpus_a_coarse_tails_rings_are_walked_to_the_body() {
    // Each failed recall (0.66-0.77) with the walk stopped on a half-walked
    // ring (38, 80) or after a patch read narrow (6); each passes every bar.
    assert_cases_pass(&[6, 38, 80]);
}
