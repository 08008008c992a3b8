//! Appendage detection and decisions: far skin, collar, attachment, the centroid/reach and elongation tests, merging (SPEC T1-T6).
