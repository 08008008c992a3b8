//! One error type for the whole core. Every variant names the input field (or
//! file) it is about, so a caller can tell *what* to fix, not only that
//! something failed. The Python layer maps each variant to an exception in a
//! single exhaustive `match` (src/python/errors.rs).

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum CaudalError {
    /// An array has the wrong length or shape.
    #[error("{field}: {message}")]
    Shape { field: String, message: String },

    /// NaN or infinity where a finite number is required.
    #[error("{field}: non-finite value at index {index}")]
    NonFinite { field: String, index: usize },

    /// An index (vertex, joint, parent) points outside its table.
    #[error("{field}: index {value} at position {index} is out of range (must be < {bound})")]
    IndexOutOfRange { field: String, index: usize, value: i64, bound: usize },

    /// Skin weights that are negative or do not sum to one.
    #[error("{field}: {message}")]
    Weights { field: String, message: String },

    /// The parent table contains a cycle.
    #[error("parents: joint {joint:?} is its own ancestor (cyclic parents)")]
    CyclicParents { joint: String },

    /// Two joints share a name.
    #[error("joint_names: duplicate joint name {name:?}")]
    DuplicateName { name: String },

    /// A joint name that the rig does not have.
    #[error("{field}: unknown joint name {name:?}")]
    UnknownJoint { field: String, name: String },

    /// The mesh has no vertices or no triangles.
    #[error("{field}: empty mesh ({message})")]
    EmptyMesh { field: String, message: String },

    /// A parameter outside its documented range.
    #[error("{field}: {message}")]
    Parameter { field: String, message: String },

    /// A malformed or unsupported glTF file.
    #[error("glTF {path}: {message}")]
    Gltf { path: String, message: String },

    /// A named clip or role that is not present.
    #[error("{field}: {message}")]
    NotFound { field: String, message: String },

    /// A panic caught at the boundary ([`crate::guard`]): a caudal bug, not
    /// bad input; the message and place say where.
    #[error("internal error (a caudal bug; please report it): {message} at {place}")]
    Internal { message: String, place: String },

    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

pub type Result<T> = std::result::Result<T, CaudalError>;

impl CaudalError {
    pub fn shape(field: impl Into<String>, message: impl Into<String>) -> Self {
        CaudalError::Shape { field: field.into(), message: message.into() }
    }
    pub fn param(field: impl Into<String>, message: impl Into<String>) -> Self {
        CaudalError::Parameter { field: field.into(), message: message.into() }
    }
    pub fn gltf(path: impl Into<String>, message: impl Into<String>) -> Self {
        CaudalError::Gltf { path: path.into(), message: message.into() }
    }
    pub fn not_found(field: impl Into<String>, message: impl Into<String>) -> Self {
        CaudalError::NotFound { field: field.into(), message: message.into() }
    }
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        CaudalError::Io { path: path.into(), source }
    }

    /// The same error named after `field`: a caller whose own parameter
    /// carried the value (`clips`, `name`) renames what a shared helper
    /// reported, so the message names what the user passed. Errors about a
    /// file, or with a fixed field, are returned unchanged.
    pub fn with_field(mut self, field: &str) -> Self {
        if let Some(f) = self.field_mut() {
            *f = field.to_string();
        }
        self
    }

    /// The same error with its field inside `parent` (`carry_deg` of the
    /// bake's spring becomes `spring.carry_deg`).
    pub fn within(mut self, parent: &str) -> Self {
        if let Some(f) = self.field_mut() {
            *f = format!("{parent}.{f}");
        }
        self
    }

    fn field_mut(&mut self) -> Option<&mut String> {
        use CaudalError::*;
        match self {
            Shape { field, .. }
            | NonFinite { field, .. }
            | IndexOutOfRange { field, .. }
            | Weights { field, .. }
            | UnknownJoint { field, .. }
            | EmptyMesh { field, .. }
            | Parameter { field, .. }
            | NotFound { field, .. } => Some(field),
            CyclicParents { .. }
            | DuplicateName { .. }
            | Gltf { .. }
            | Io { .. }
            | Internal { .. } => None,
        }
    }
}
