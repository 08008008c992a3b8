use glam::{Mat4, Vec3};
use rayon::prelude::*;

use super::{Influences, Rig};

/// Skinning matrices `world_j * inverse_bind_j`: they carry bind-space
/// vertices to posed positions. At the bind pose they are the identity.
pub fn skin_matrices(rig: &Rig, worlds: &[Mat4]) -> Vec<Mat4> {
    worlds.iter().zip(rig.inverse_bind()).map(|(w, ib)| *w * *ib).collect()
}

/// Linear blend skinning of every vertex of `rig` by `skin` matrices.
pub fn skin_vertices(rig: &Rig, skin: &[Mat4]) -> Vec<Vec3> {
    let mut out = vec![Vec3::ZERO; rig.vertex_count()];
    skin_vertices_into(rig.vertices(), rig.influences(), skin, &mut out);
    out
}

/// Chunks are fixed-size, so results do not depend on the thread count.
pub fn skin_vertices_into(
    vertices: &[Vec3],
    influences: &Influences,
    skin: &[Mat4],
    out: &mut [Vec3],
) {
    const CHUNK: usize = 4096;
    out.par_chunks_mut(CHUNK).enumerate().for_each(|(c, chunk)| {
        let base = c * CHUNK;
        for (k, o) in chunk.iter_mut().enumerate() {
            let v = base + k;
            let p = vertices[v];
            let (js, ws) = influences.of(v);
            let mut acc = Vec3::ZERO;
            for (&j, &w) in js.iter().zip(ws) {
                acc += w * skin[j as usize].transform_point3(p);
            }
            *o = acc;
        }
    });
}
