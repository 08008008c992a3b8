//! One error type for the whole core. Every variant names the input field (or
//! file) it is about, so a caller can tell *what* to fix, not only that
//! something failed. The Python layer maps each variant to an exception in a
//! single exhaustive `match` (src/python/errors.rs).

use std::path::PathBuf;

/// What went wrong and with which input; see the module doc.
#[derive(Debug, thiserror::Error)]
pub enum CaudalError {
    /// An array has the wrong length or shape.
    #[error("{field}: {message}")]
    Shape {
        /// The input whose length or shape is wrong (`vertices`, `weights`).
        field: String,
        /// What was expected and what came.
        message: String,
    },

    /// NaN or infinity where a finite number is required.
    #[error("{field}: non-finite value at index {index}")]
    NonFinite {
        /// The input holding the value.
        field: String,
        /// Position of the first non-finite number in the flat input.
        index: usize,
    },

    /// An index (vertex, joint, parent) points outside its table.
    #[error("{field}: index {value} at position {index} is out of range (must be < {bound})")]
    IndexOutOfRange {
        /// The index table (`parents`, `joints`, `triangles`).
        field: String,
        /// Position of the bad entry in that table.
        index: usize,
        /// The entry itself (signed: a negative index is reported as given).
        value: i64,
        /// Length of the table it points into; valid entries are below it.
        bound: usize,
    },

    /// Skin weights that are negative or do not sum to one.
    #[error("{field}: {message}")]
    Weights {
        /// The weight input (`weights`).
        field: String,
        /// Which vertex and what its weights hold.
        message: String,
    },

    /// The parent table contains a cycle.
    #[error("parents: joint {joint:?} is its own ancestor (cyclic parents)")]
    CyclicParents {
        /// Name of a joint on the cycle.
        joint: String,
    },

    /// Two joints share a name.
    #[error("joint_names: duplicate joint name {name:?}")]
    DuplicateName {
        /// The name given twice.
        name: String,
    },

    /// A joint name that the rig does not have.
    #[error("{field}: unknown joint name {name:?}")]
    UnknownJoint {
        /// The input that named it (`roles.pelvis`, `chain`).
        field: String,
        /// The name looked up.
        name: String,
    },

    /// The mesh has no vertices or no triangles.
    #[error("{field}: empty mesh ({message})")]
    EmptyMesh {
        /// The mesh input (`vertices`, `triangles`, a file's primitive).
        field: String,
        /// What is missing.
        message: String,
    },

    /// A parameter outside its documented range.
    #[error("{field}: {message}")]
    Parameter {
        /// The parameter's name as the caller spells it (`max_sweeps`,
        /// `spring.carry_deg`).
        field: String,
        /// The documented range and the value given.
        message: String,
    },

    /// A malformed or unsupported glTF file.
    #[error("glTF {path}: {message}")]
    Gltf {
        /// The file's path, or the label given to a document read from
        /// bytes.
        path: String,
        /// What is malformed or unsupported, naming the glTF object.
        message: String,
    },

    /// A named clip or role that is not present.
    #[error("{field}: {message}")]
    NotFound {
        /// The input that named it (`chains`, `support`).
        field: String,
        /// What was looked for and what there is.
        message: String,
    },

    /// A panic caught at the boundary ([`crate::guard`]): a caudal bug, not
    /// bad input; the message and place say where.
    #[error("internal error (a caudal bug; please report it): {message} at {place}")]
    Internal {
        /// The panic's message.
        message: String,
        /// `file:line` of the panic in the caudal source.
        place: String,
    },

    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
}

/// A core result: a value or the [`CaudalError`] naming the bad input.
pub type Result<T> = std::result::Result<T, CaudalError>;

impl CaudalError {
    /// A [`CaudalError::Shape`] about `field`.
    pub fn shape(field: impl Into<String>, message: impl Into<String>) -> Self {
        CaudalError::Shape { field: field.into(), message: message.into() }
    }
    /// A [`CaudalError::Parameter`] about `field`.
    pub fn param(field: impl Into<String>, message: impl Into<String>) -> Self {
        CaudalError::Parameter { field: field.into(), message: message.into() }
    }
    /// A [`CaudalError::Gltf`] about the file at `path`.
    pub fn gltf(path: impl Into<String>, message: impl Into<String>) -> Self {
        CaudalError::Gltf { path: path.into(), message: message.into() }
    }
    /// A [`CaudalError::NotFound`] about `field`.
    pub fn not_found(field: impl Into<String>, message: impl Into<String>) -> Self {
        CaudalError::NotFound { field: field.into(), message: message.into() }
    }
    /// A [`CaudalError::Io`] on `path`.
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

/// A switch from a boolean only: a format that reads any value as a truth
/// (Python's `bool("off")` is true) must not turn a typo into "on".
pub fn bool_only<'de, D: serde::Deserializer<'de>>(d: D) -> std::result::Result<bool, D::Error> {
    struct Switch;
    impl serde::de::Visitor<'_> for Switch {
        type Value = bool;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("True or False")
        }
        fn visit_bool<E: serde::de::Error>(self, v: bool) -> std::result::Result<bool, E> {
            Ok(v)
        }
    }
    d.deserialize_any(Switch)
}
