"""Rig-table edits that are bookkeeping, not numerics: influence lists in the
shapes caudal and Blender want, finger bones found by name and hierarchy and
their weights handed to the hand, and which vertex rows changed. bpy-free.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

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


# Finger bones by name in the conventions riggers use: Mixamo
# (mixamorig:LeftHandIndex1), Rigify (DEF-f_index.01.L, DEF-thumb.01.L),
# Unreal (index_01_l), Quaternius (Index1.L), plain "finger".
FINGER_NAME = re.compile(r"(finger|thumb|index|middle|ring|pinky|pinkie|little|f_)", re.IGNORECASE)
HAND_NAME = re.compile(r"(hand|wrist|palm)(?!le)", re.IGNORECASE)


@dataclass(frozen=True)
class FingerMerge:
    finger: int
    hand: int


def finger_merges(names: list[str], parents: np.ndarray) -> list[FingerMerge]:
    """Each finger joint with the hand joint that takes its weight.

    A finger is a joint below a hand (by name: hand, wrist, palm) whose own
    name or an ancestor's up to the hand names a digit. Palms/metacarpals
    below the hand are fingers too when a digit hangs from them. Joints not
    under a hand are never fingers (a "ring" on a belt stays).
    """
    parents = np.asarray(parents)
    merges: list[FingerMerge] = []
    for j, name in enumerate(names):
        hand = None
        digit = bool(FINGER_NAME.search(name))
        p = int(parents[j])
        # The topmost hand above takes the weight (a palm under the hand is merged too).
        while p >= 0:
            if HAND_NAME.search(names[p]) and not FINGER_NAME.search(names[p]):
                hand = p
            elif hand is None:
                digit = digit or bool(FINGER_NAME.search(names[p]))
            p = int(parents[p])
        if hand is None:
            continue
        if digit or _has_digit_descendant(j, names, parents):
            merges.append(FingerMerge(j, hand))
    return merges


def _has_digit_descendant(j: int, names: list[str], parents: np.ndarray) -> bool:
    for c in np.flatnonzero(parents == j):
        if FINGER_NAME.search(names[c]) or _has_digit_descendant(int(c), names, parents):
            return True
    return False


def merge_fingers(dense: np.ndarray, merges: list[FingerMerge]) -> np.ndarray:
    """Moves every finger joint's weight onto its hand (a copy)."""
    out = dense.copy()
    for m in merges:
        out[:, m.hand] += out[:, m.finger]
        out[:, m.finger] = 0.0
    return out


def sparse_of(
    dense: np.ndarray, rows: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(vertex, joint, weight) triples of the non-zero entries (of ``rows``)."""
    sub = dense if rows is None else dense[rows]
    r, c = np.nonzero(sub > 0.0)
    vr = r if rows is None else np.asarray(rows)[r]
    return vr, c, sub[r, c]
