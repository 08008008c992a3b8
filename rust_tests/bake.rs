//! Baking (SPEC B, C "clean loop closure after warm-up", R): the demo
//! creature and the degraded fixtures after chain growth, synthetic clips
//! with known answers, and the file round trip.

#[path = "bake/digest.rs"]
mod digest;
#[path = "bake/fixtures.rs"]
pub mod fixtures;
#[path = "bake/loops.rs"]
mod loops;
#[path = "bake/roundtrip.rs"]
mod roundtrip;
#[path = "bake/rules.rs"]
mod rules;
#[path = "bake/shapes.rs"]
mod shapes;
