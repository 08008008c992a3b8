//! Bake the spring into loop-closed keyframes (SPEC B).
