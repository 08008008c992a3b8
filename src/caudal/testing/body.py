"""``assert_body_unchanged``: the repair moves no vertex it did not take
over. Every vertex whose skin weights the repair left as they were must be
where the delivered file's own skinning puts it, at every sampled time:
the written file's clips may not move the body (no pelvis lift, no
resampling drift of the rigger's keys)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

import caudal
from caudal.pipeline.settings import RepairSettings
from caudal.testing import subject

WEIGHT_TOLERANCE = 1e-6
"""Weights equal within this are unchanged (the file stores float32)."""


def untouched(before: caudal.Rig, after: caudal.Rig) -> npt.NDArray[np.bool_]:
    """Vertices whose influences (joint and weight, in any order, zero
    weights ignored) are the same."""
    k = max(before.skin_joints.shape[1], after.skin_joints.shape[1])
    jb, wb = _influences(before, k)
    ja, wa = _influences(after, k)
    out: npt.NDArray[np.bool_] = (jb == ja).all(axis=1) & (np.abs(wb - wa) <= WEIGHT_TOLERANCE).all(
        axis=1
    )
    return out


def _influences(rig: caudal.Rig, k: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    """Each vertex's influences sorted by joint, no-joint (-1) padding last, width ``k``."""
    w = np.asarray(rig.skin_weights, np.float64)
    j = np.where(
        w > WEIGHT_TOLERANCE, np.asarray(rig.skin_joints, np.int64), np.iinfo(np.int64).max
    )
    order = np.argsort(j, axis=1, kind="stable")
    j, w = np.take_along_axis(j, order, 1), np.take_along_axis(w, order, 1)
    w = np.where(j == np.iinfo(np.int64).max, 0.0, w)
    pad = k - j.shape[1]
    j = np.pad(j, ((0, 0), (0, pad)), constant_values=np.iinfo(np.int64).max)
    w = np.pad(w, ((0, 0), (0, pad)))
    return j, w


def assert_body_unchanged(
    model: subject.ModelLike,
    clip: subject.ClipLike,
    *,
    within: float = 0.002,
    samples: int = subject.DEFAULT_SAMPLES,
    settings: RepairSettings | None = None,
    repaired: subject.ModelLike | None = None,
    character: int | None = None,
) -> None:
    """Fails when a vertex the repair did not reweight moves, at one of
    ``samples`` evenly spaced times of ``clip``, more than ``within`` times
    the character's height from where the delivered file puts it."""
    __tracebackhide__ = True
    name = subject.clip_name(clip)
    for where, before, after in subject.compared(model, settings, repaired, character):
        body = np.flatnonzero(untouched(before.rig, after.rig))
        if len(body) == 0:
            continue
        clip_before, clip_after, frames = subject.clip_pair(before, after, name, samples)
        moved = np.linalg.norm(
            caudal.skin(after.rig, clip_after, frames)[:, body]
            - caudal.skin(before.rig, clip_before, frames)[:, body],
            axis=2,
        )
        s, k = np.unravel_index(int(np.argmax(moved)), moved.shape)
        worst = float(moved[s, k]) / before.height
        if worst > within:
            v = int(body[k])
            raise AssertionError(
                f"{where}, clip {name!r}: body vertex {v} (weighted most to "
                f"{subject.heaviest_joint(before.rig, v)}) moved {100 * worst:.3f}% of the height at t={float(clip_after.times[frames[s]]):.3f} s "
                f"against the bound {100 * within:.3f}%; {len(body):,} vertices checked (those the repair did not reweight)"
            )
