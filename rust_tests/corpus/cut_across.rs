//! A tail cut across into two parts whose roots meet: on seed 222 (an
//! otter whose tail is far skin end to end, weighted by the rigger along
//! the right hind leg) one part holds the skin from u 0.32 and the fur
//! from u 0.52 to the tip, the other the fur's root half, its collar at
//! u 0.52. The two parts' roots nearly coincide (0.0013 apart, ring
//! radius 0.028, traced by recall21), their shells hang from different joints and their boxes
//! overlap too little to merge, so the root half read as a second tail
//! hanging from the first one's root and grew its own chain. Two shells
//! whose collars' centres lie within the smaller ring radius are one tube
//! cut across (`merge_shells` in `src/appendage/detect/merge.rs`).

use super::harness::assert_cases_pass;

#[test]
fn corpus_a_tail_cut_across_into_two_parts_is_one_part() {
    // Failed recall 0.580 and split_tail (two chains on the tail); passes
    // every bar once the two parts are one.
    assert_cases_pass(&[222]);
}
