//! Weld by position, the welded mesh graph, and the skeleton distance field (SPEC T1, T2).
