//! Solve the surface, not the skeleton: per-frame bone transforms whose own skinning reproduces a target surface (SPEC X).
