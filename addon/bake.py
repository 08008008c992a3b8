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

from . import anim, axes, bpy_arrays, spring_settings


@dataclass
class BakeResult:
    action: str
    bones: list[str]
    frames: int
    looping: bool
    passes: int
    converged: bool
    closure_deg: float
    seam_blend_deg: float  # a loop that never repeated, blended shut (0 when it converged)
    bend_capacity: float  # the chain's carry and stop were scaled by this (1: a slender tail)
    stretch: dict  # caudal.edge_stretch of the baked clip: tail, body, motion (SPEC M1)


# Skin counts as tail when tail bones hold more than half of its weight.
TAIL_SKIN_SHARE = 0.5


def measure(
    rig, table, clip, tail_joints: list[int], tail_rotations: np.ndarray, anchor: str
) -> dict:
    """Edge stretch of the tail and body with the baked keys, and how much
    the tail swings (SPEC M1: stretch is only honest beside the motion)."""
    import caudal

    rot = np.array(clip.rotations, dtype=np.float32)
    rot[:, tail_joints] = tail_rotations
    baked = caudal.Clip(
        clip.name, clip.rate, np.asarray(clip.translations), rot, np.asarray(clip.scales)
    )
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
    kwargs = spring_settings.spring_kwargs(settings)
    names = rig.joint_names
    planned = []
    for n, action in enumerate(actions):
        frames = bpy_arrays.action_frames(action, fps)
        clip = bpy_arrays.sample_action(arm, action, table, rig, frames, fps)
        # caudal's bake: loop detection (first and last pose), warm-up passes
        # or settling, one recorded cycle (SPEC B); nothing computed here.
        baked = caudal.bake_clip(rig, clip, spring=kwargs)
        s = baked.summary()
        rotations = np.asarray(baked.rotations, dtype=np.float64)
        idx = [names.index(b) for b in baked.bones]
        basis = axes.basis_from_local(np.asarray(rig.rest_rotations)[idx], rotations)
        anchor = names[int(np.asarray(rig.parents)[idx[0]])]
        stretch = measure(rig, table, clip, idx, rotations, anchor)
        result = BakeResult(
            action.name,
            baked.bones,
            len(frames),
            s["looping"],
            s["warmup_passes"],
            s["converged"],
            s["closure_deg"] or 0.0,
            s["seam_blend_deg"],
            s["bend_capacity"],
            stretch,
        )
        planned.append((action, frames, result, basis))
        if progress:
            progress(n + 1)
    out = []
    for action, frames, result, basis in planned:
        curves = anim.fcurves(action, anim.slot_for(arm, action), create=True)
        for k, bone in enumerate(result.bones):
            path = f'pose.bones["{bpy.utils.escape_identifier(bone)}"].rotation_quaternion'
            for i in range(4):
                anim.write_curve(curves, path, i, frames, basis[:, k, i], group=bone)
        out.append(result)
    for bone in out[0].bones if out else []:
        arm.pose.bones[bone].rotation_mode = "QUATERNION"
    return out
