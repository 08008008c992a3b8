use glam::Mat4;

use super::Trs;

/// Forward kinematics: world matrices from local transforms. `order` must list
/// parents before children (see [`super::Rig::topological_order`]).
pub fn world_matrices(parents: &[Option<usize>], order: &[usize], locals: &[Trs]) -> Vec<Mat4> {
    let mut out = vec![Mat4::IDENTITY; locals.len()];
    world_matrices_into(parents, order, locals, &mut out);
    out
}

/// [`world_matrices`] into a caller's buffer (one matrix per joint), for loops that pose every frame.
pub fn world_matrices_into(
    parents: &[Option<usize>],
    order: &[usize],
    locals: &[Trs],
    out: &mut [Mat4],
) {
    for &j in order {
        let local = locals[j].matrix();
        out[j] = match parents[j] {
            Some(p) => out[p] * local,
            None => local,
        };
    }
}
