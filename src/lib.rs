#![warn(missing_docs)]
//! caudal: gives tails the bones auto-riggers forgot, and carries artists'
//! animation onto any auto-rig.
//!
//! The crate is a pipeline of pure stages over plain data. Read the modules in
//! this order:
//!
//! | stage | module | SPEC |
//! |---|---|---|
//! | error type, panic guard, size limits, order statistics | [`error`], [`guard`], [`limits`], [`stats`] | - |
//! | rig table, joint roles, clips, skinning, tail joint names | [`rig`] | T (input) |
//! | weld, mesh graph, skeleton distance field, thickness, bone distance | [`geometry`] | T1, T2, T10 |
//! | appendage detection and decisions | [`appendage`] | T3-T6 |
//! | rigid fix and chain growth | [`chain`] | T7-T9 |
//! | spring chain at run time | [`spring`] | S, C |
//! | bake into loop-closed keyframes | [`bake`] | B |
//! | surface solve (clip transfer) | [`solve`] | X |
//! | measurement | [`measure`] | M, G, T10 |
//! | the whole pipeline on a file, measured (stretch tables) | [`pipeline`] | M1 |
//! | glTF 2.0 in and out | [`gltf_io`] | - |
//! | the built-in demo creature | [`demo`] | - |
//!
//! Core space is Y-up, right-handed; lengths are in the model's own units,
//! and every geometric threshold is relative to the model height `H`.
//! Nothing here knows about Python or Blender: the pyo3 layer lives in
//! `python` behind the `python` cargo feature.

pub mod appendage;
pub mod bake;
pub mod chain;
pub mod demo;
pub mod error;
pub mod geometry;
pub mod gltf_io;
pub mod guard;
pub mod limits;
pub mod measure;
pub mod pipeline;
pub mod rig;
pub mod solve;
pub mod spring;
pub mod stats;

#[cfg(feature = "python")]
mod python;

pub use error::{CaudalError, Result};
pub use rig::{Clip, JointRoles, Rig, Trs};
