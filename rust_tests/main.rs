//! Integration tests: one binary, one module per pipeline stage.
mod appendage;
mod bake;
mod characters;
mod common;
mod corpus;
mod files;
mod gltf_io;
mod grown_rig_clip;
mod measure;
mod merge;
mod rig_table;
mod roles;
mod solve;
mod solve_transfer;
mod spring;
mod spring_lanes;
mod tail_creature;
