"""Bake Tail: the tail spring run over chosen actions and written into them
as loop-closed quaternion keys (SPEC B).

SPEC R: the bake reads only rest data (bones' rest matrices, mesh rest
positions, vertex groups) and the actions' f-curves; it never reads or
writes the live pose, the current frame, the active action or the
selection, so moving the live pelvis first changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

import bpy
import numpy as np

from . import anim, axes, bake_loop, bpy_arrays, live

# SPEC B / src/bake/params.rs LOOP_POSE_ANGLE_DEG: a clip whose first and
# last poses agree this well is a loop and gets warm-up passes.
LOOP_POSE_ANGLE_DEG = 0.5


@dataclass
class BakeResult:
    action: str
    bones: list[str]
    frames: int
    looping: bool
    passes: int
    converged: bool
    closure_deg: float
    stretch: dict  # caudal.edge_stretch of the baked clip: tail, body, motion (SPEC M1)


def clip_loops(clip) -> bool:
    """First and last frame carry the same pose (root travel aside)."""
    q = np.asarray(clip.rotations, dtype=np.float64)
    return bake_loop._angle_deg(q[0], q[-1]) <= LOOP_POSE_ANGLE_DEG


# Skin counts as tail when tail bones hold more than half of its weight.
TAIL_SKIN_SHARE = 0.5


def measure(rig, table, clip, tail_joints: list[int], tail_rotations: np.ndarray, anchor: str) -> dict:
    """Edge stretch of the tail and body with the baked keys, and how much
    the tail swings (SPEC M1: stretch is only honest beside the motion)."""
    import caudal

    rot = np.array(clip.rotations, dtype=np.float32)
    rot[:, tail_joints] = tail_rotations
    baked = caudal.Clip(clip.name, clip.rate, np.asarray(clip.translations), rot, np.asarray(clip.scales))
    tail = np.flatnonzero(table.dense[:, tail_joints].sum(axis=1) > TAIL_SKIN_SHARE)
    return caudal.edge_stretch(rig, baked, tail, anchor=anchor)


def chosen_actions(arm, names: str) -> list:
    names = [n.strip() for n in names.split(",") if n.strip()]
    if not names:
        ad = arm.animation_data
        if ad is None or ad.action is None:
            raise ValueError(f"'{arm.name}' has no active action; name the actions to bake")
        return [ad.action]
    missing = [n for n in names if n not in bpy.data.actions]
    if missing:
        raise ValueError(f"no action named {', '.join(repr(m) for m in missing)}")
    return [bpy.data.actions[n] for n in names]


def bake_actions(arm, actions, settings, progress=None) -> list[BakeResult]:
    """Bakes the tail into every action; computes all keys before writing any."""
    import caudal

    scene = bpy.context.scene
    fps = scene.render.fps / scene.render.fps_base
    table = bpy_arrays.read_rig(arm)
    rig = table.to_rig()
    kwargs = live.spring_kwargs(settings)
    names = rig.joint_names
    planned = []
    for n, action in enumerate(actions):
        spring = caudal.TailSpring(rig, None, **kwargs)
        frames = bpy_arrays.action_frames(action, fps)
        clip = bpy_arrays.sample_action(arm, action, table, rig, frames, fps)
        anchors = caudal.world_matrices_of(rig, clip)[:, names.index(spring.parent)]
        looping = clip_loops(clip)
        tb = bake_loop.bake_tail(spring, anchors, fps, looping)
        idx = [names.index(b) for b in tb.bones]
        basis = axes.basis_from_local(np.asarray(rig.rest_rotations)[idx], tb.rotations)
        stretch = measure(rig, table, clip, idx, tb.rotations, spring.parent)
        planned.append((action, frames, tb, basis, looping, stretch))
        if progress:
            progress(n + 1)
    out = []
    for action, frames, tb, basis, looping, stretch in planned:
        curves = anim.fcurves(action, anim.slot_for(arm, action), create=True)
        for k, bone in enumerate(tb.bones):
            path = f'pose.bones["{bpy.utils.escape_identifier(bone)}"].rotation_quaternion'
            for i in range(4):
                anim.write_curve(curves, path, i, frames, basis[:, k, i], group=bone)
        out.append(BakeResult(action.name, tb.bones, len(frames), looping, tb.passes, tb.converged, tb.closure_deg, stretch))
    for bone in out[0].bones if out else []:
        arm.pose.bones[bone].rotation_mode = "QUATERNION"
    return out
