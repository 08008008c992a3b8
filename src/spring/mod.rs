//! The tail spring chain at run time (SPEC S1-S9, C).
