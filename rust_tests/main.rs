//! Integration tests: one binary, one module per pipeline stage.
mod common;
mod merge;
mod gltf_io;
mod rig_table;
mod roles;
mod spring;
mod spring_lanes;
mod tail_creature;
mod appendage;
mod bake;
mod measure;
mod solve;
mod solve_transfer;
mod characters;
mod files;
mod corpus;
mod grown_rig_clip;
