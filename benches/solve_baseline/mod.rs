//! The surface solve as it was before issue 18 (commit 6668249,
//! src/solve), frozen so that benches/solve.rs times today's code and this
//! one side by side in one run. Not used by anything else; do not edit.
//! Only `crate::` paths became `caudal::`.
#![allow(dead_code, unused_imports, clippy::all)]

pub mod assemble;
pub mod constraints;
pub mod correspondence;
pub mod eigen4;
pub mod horn;
pub mod params;
pub mod quality;
pub mod rigid;
pub mod rotation_only;
pub mod surface;
pub mod transfer;

pub use params::{SolveMode, SolveParams};
