use glam::{Mat4, Vec3};
use rayon::prelude::*;

use super::{world_matrices, Clip, Influences, Rig};
use crate::error::{CaudalError, Result};
use crate::limits::check_bytes;

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

/// Skinned positions of `frames` of `clip` (every frame when None) on
/// `rig`, frame-major. The output (12 bytes a vertex a frame) may take at
/// most `max_bytes`: a long clip on a dense mesh is refused before any work.
pub fn skin_frames(
    rig: &Rig,
    clip: &Clip,
    frames: Option<&[usize]>,
    max_bytes: usize,
) -> Result<Vec<Vec3>> {
    let asked = frames.map_or(clip.frame_count(), <[usize]>::len);
    let what = format!("skinning {asked} frames of {} vertices", rig.vertex_count());
    check_bytes("frames", &what, asked as f64 * rig.vertex_count() as f64 * 12.0, max_bytes)?;
    let all: Vec<usize>;
    let frames = match frames {
        Some(f) => f,
        None => {
            all = (0..clip.frame_count()).collect();
            &all
        }
    };
    if let Some((i, &bad)) = frames.iter().enumerate().find(|(_, &f)| f >= clip.frame_count()) {
        return Err(CaudalError::IndexOutOfRange {
            field: "frames".into(),
            index: i,
            value: bad as i64,
            bound: clip.frame_count(),
        });
    }
    clip.check_joints(rig)?;
    let mut out = Vec::with_capacity(frames.len() * rig.vertex_count());
    for &f in frames {
        let worlds = world_matrices(rig.parents(), rig.topological_order(), clip.frame(f));
        out.extend(skin_vertices(rig, &skin_matrices(rig, &worlds)));
    }
    Ok(out)
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
