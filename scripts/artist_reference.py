"""The bar "nothing torn that the rigid baseline keeps" applied to an
artist's own rig, for the whole-mesh tables (scripts/whole_mesh_table.py on
the shared fixtures, scripts/corpus_whole_mesh.py on the generated corpus):
how many edges the artist's skinning tears that the same rig, with its true
tail bound rigidly to the tail's parent, keeps. The skinning is the core's
(`caudal.skin`); edges, sampled times and thresholds are the core's
whole-mesh table's."""

from __future__ import annotations

import numpy as np

import caudal

SAMPLES = 24  # times per clip, as the core's stretch table samples them
TORN = (0.67, 1.5)  # caudal's TORN_BELOW, TORN_ABOVE (SPEC M1)


def sample_frames(frame_count: int) -> list[int]:
    """The core's `sample_frames`: SAMPLES times spread over the clip, the
    last frame (a loop's copy of the first) left out."""
    if frame_count <= 1:
        return [0] * min(SAMPLES, frame_count)
    span = frame_count - 1
    return [min(round(i * span / SAMPLES), span) for i in range(SAMPLES)]


def artist_torn_by_tail(
    artist: caudal.Model, clip: caudal.Clip, tail: np.ndarray, parent: str
) -> int:
    """The bar "nothing torn that the rigid baseline keeps" applied to the
    artist's own rig: edges its skinning tears at a sampled time where the
    same rig with the true tail bound rigidly to the tail's parent (the
    removed root's parent) keeps them. Same edges (the triangles' unique
    edges, degenerate ones left out), times and thresholds as the core's
    whole-mesh table; the skinning is the core's."""
    r = artist.rig
    names = list(r.joint_names)
    joints, weights = r.skin_joints.copy(), r.skin_weights.copy()
    joints[tail] = names.index(parent)
    weights[tail] = 0.0
    weights[tail, 0] = 1.0
    rigid = caudal.Rig(
        r.vertices,
        r.triangles,
        joints,
        weights,
        names,
        r.parents,
        inverse_bind_matrices=r.inverse_bind_matrices,
        rest_translations=r.rest_translations,
        rest_rotations=r.rest_rotations,
        rest_scales=r.rest_scales,
    )
    tri = r.triangles.astype(np.int64)
    e = np.unique(
        np.sort(np.concatenate([tri[:, [0, 1]], tri[:, [1, 2]], tri[:, [2, 0]]]), axis=1), axis=0
    )
    bind = r.vertices.astype(np.float64)
    diag = np.linalg.norm(bind.max(0) - bind.min(0))
    rest = np.linalg.norm(bind[e[:, 0]] - bind[e[:, 1]], axis=1)
    e, rest = e[rest > 1e-6 * diag], rest[rest > 1e-6 * diag]
    frames = sample_frames(clip.frame_count)

    def torn(rig: caudal.Rig) -> np.ndarray:
        p = caudal.skin(rig, clip, frames).astype(np.float64)
        ratio = np.linalg.norm(p[:, e[:, 0]] - p[:, e[:, 1]], axis=2) / rest
        return (ratio < TORN[0]) | (ratio > TORN[1])

    return int((torn(r) & ~torn(rigid)).any(axis=0).sum())
