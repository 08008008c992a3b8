//! Appendage detection and chain growth (SPEC T1-T10): synthetic creatures
//! with known answers, and the degraded fixtures in assets/.

#[path = "appendage/anchor.rs"]
mod anchor;
#[path = "appendage/axial.rs"]
mod axial;
#[path = "appendage/checks.rs"]
mod checks;
#[path = "appendage/fixtures.rs"]
mod fixtures;
#[path = "appendage/geometry.rs"]
mod geometry;
#[path = "appendage/synth.rs"]
pub mod synth;
#[path = "appendage/synthetic.rs"]
mod synthetic;
