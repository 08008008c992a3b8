//! Index checks against a rig: one error shape for every stage that takes
//! vertex or joint indices from a caller.

use super::table::check_index;
use super::Rig;
use crate::error::Result;

/// The first of `values` at or past `bound`, as the error naming `field`.
fn check_below(field: &str, values: impl Iterator<Item = usize>, bound: usize) -> Result<()> {
    for (index, value) in values.enumerate() {
        check_index(field, index, value, bound)?;
    }
    Ok(())
}

impl Rig {
    /// Errors naming `field` (and the position in it) unless every entry of
    /// `vertices` is a vertex of this rig.
    pub fn check_vertices(&self, field: &str, vertices: &[u32]) -> Result<()> {
        check_below(field, vertices.iter().map(|&v| v as usize), self.vertex_count())
    }

    /// Errors naming `field` (and the position in it) unless every entry of
    /// `joints` is a joint of this rig.
    pub fn check_joints(&self, field: &str, joints: &[usize]) -> Result<()> {
        check_below(field, joints.iter().copied(), self.joint_count())
    }
}
