//! glTF 2.0 in and out.
