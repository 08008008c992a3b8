//! Measurement (SPEC M1, G): edge stretch with its self-check and the tables
//! for the shared animals; grounding that ignores the tail.

#[path = "measure/ground.rs"]
mod ground;
#[path = "measure/stretch_known.rs"]
mod stretch_known;
#[path = "measure/stretch_mesh.rs"]
mod stretch_mesh;
#[path = "measure/stretch_tables.rs"]
mod stretch_tables;
