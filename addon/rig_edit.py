"""Rig-table bookkeeping, not numerics: influence lists in the shapes caudal
and Blender want, and which vertex rows changed. bpy-free (finger merging
is caudal's ``merge_fingers``).
"""

from __future__ import annotations

import numpy as np


def padded_influences(
    rows: np.ndarray, cols: np.ndarray, weights: np.ndarray, vertex_count: int
) -> tuple[np.ndarray, np.ndarray]:
    """Sparse (vertex, joint, weight) triples -> padded (N, K) joint and weight
    arrays as ``caudal.Rig`` takes them (zero weights pad short rows)."""
    rows = np.asarray(rows, dtype=np.int64)
    order = np.argsort(rows, kind="stable")
    rows, cols, weights = (
        rows[order],
        np.asarray(cols)[order],
        np.asarray(weights, dtype=np.float32)[order],
    )
    counts = np.bincount(rows, minlength=vertex_count)
    k = max(1, int(counts.max()) if counts.size else 1)
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    slot = np.arange(rows.size) - starts[rows]
    joints = np.zeros((vertex_count, k), dtype=np.uint32)
    w = np.zeros((vertex_count, k), dtype=np.float32)
    joints[rows, slot] = cols
    w[rows, slot] = weights
    return joints, w


def dense_weights(
    skin_joints: np.ndarray, skin_weights: np.ndarray, joint_count: int
) -> np.ndarray:
    """Padded influences -> (N, J) weights, repeated joints summed."""
    n = skin_joints.shape[0]
    dense = np.zeros((n, joint_count), dtype=np.float32)
    np.add.at(
        dense,
        (np.repeat(np.arange(n), skin_joints.shape[1]), skin_joints.reshape(-1)),
        skin_weights.reshape(-1),
    )
    return dense


def changed_rows(before: np.ndarray, after: np.ndarray, tolerance: float = 1e-6) -> np.ndarray:
    """Vertices whose weights differ; ``after`` may have more joints (new
    bones), ``before``'s missing columns count as zero."""
    pad = after.shape[1] - before.shape[1]
    if pad > 0:
        before = np.pad(before, ((0, 0), (0, pad)))
    return np.flatnonzero(np.any(np.abs(after - before) > tolerance, axis=1))


def sparse_of(
    dense: np.ndarray, rows: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(vertex, joint, weight) triples of the non-zero entries (of ``rows``)."""
    sub = dense if rows is None else dense[rows]
    r, c = np.nonzero(sub > 0.0)
    vr = r if rows is None else np.asarray(rows)[r]
    return vr, c, sub[r, c]
