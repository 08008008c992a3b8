"""``assert_loop_closes``: on a clip that loops, every tail bone of the
repaired file is back at its first pose at the loop point."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from caudal.pipeline.settings import RepairSettings
from caudal.testing.subject import (
    ClipLike,
    ModelLike,
    clip_name,
    compared,
    grown_joints,
)


def quaternion_angle_deg(
    a: npt.NDArray[np.float32], b: npt.NDArray[np.float32]
) -> npt.NDArray[np.float64]:
    """Angle of the rotation from ``a`` to ``b`` (xyzw, last axis)."""
    dot = np.abs(np.sum(np.asarray(a, np.float64) * np.asarray(b, np.float64), axis=-1))
    out: npt.NDArray[np.float64] = np.degrees(2.0 * np.arccos(np.clip(dot, 0.0, 1.0)))
    return out


def assert_loop_closes(
    model: ModelLike,
    clip: ClipLike,
    deg: float = 0.5,
    *,
    settings: RepairSettings | None = None,
    repaired: ModelLike | None = None,
    character: int | None = None,
) -> None:
    """Fails when a tail bone's local rotation at the clip's end differs
    from its first by more than ``deg``, or when the clip itself (the
    body's joints in the delivered file) does not loop within ``deg``: a
    tail cannot close a loop its body does not make."""
    __tracebackhide__ = True
    name = clip_name(clip)
    for who_, original, after_ch in compared(model, settings, repaired, character):
        where = f"{who_}, clip {name!r}"
        before = original.clip(name)
        body = quaternion_angle_deg(before.rotations[0], before.rotations[-1])
        if body.max() > deg:
            j = int(np.argmax(body))
            joint = original.rig.joint_names[j]
            raise AssertionError(
                f"{where}: the clip does not loop: {joint} at t={float(before.times[-1]):.3f} s is "
                f"{float(body[j]):.3f} deg from its pose at t=0 against the bound {deg} deg (bake it as a one-shot)"
            )
        joints = grown_joints(original.rig, after_ch.rig)
        if not joints:
            continue
        after = after_ch.clip(name)
        gap = quaternion_angle_deg(after.rotations[0, joints], after.rotations[-1, joints])
        k = int(np.argmax(gap))
        if gap[k] > deg:
            raise AssertionError(
                f"{where}: the tail does not close its loop: {after_ch.rig.joint_names[joints[k]]} at "
                f"t={float(after.times[-1]):.3f} s (the loop point) is {float(gap[k]):.3f} deg from its pose at t=0 "
                f"against the bound {deg} deg"
            )
