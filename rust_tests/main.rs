//! Integration tests: one binary, one module per pipeline stage.
mod common;
mod rig_table;
mod solve;
