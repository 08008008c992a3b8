"""Live tail preview: during playback a frame handler feeds the pelvis' world
matrix to caudal's native ``TailSpring.step`` and poses the tail bones with
what it returns. No scene re-evaluation, no keys. Scrubbing, jumping or
stopping resets the spring at rest under the current pelvis.

Only the preview writes to the live pose; baking never uses this state.
"""

from __future__ import annotations

from dataclasses import dataclass

import bpy
import numpy as np
from bpy.app.handlers import persistent

from . import axes, bpy_arrays, spring_settings


@dataclass
class Preview:
    """One armature's spring and what it needs each frame."""

    spring: object
    pelvis: str
    bones: list[str]
    rest_q: np.ndarray  # (K, 4) xyzw rest local rotations of the tail bones
    last_frame: int | None = None


_previews: dict[str, Preview] = {}


def make_spring(arm):
    """A TailSpring on the armature's rig (read once, as Build leaves it)."""
    import caudal

    table = bpy_arrays.read_rig(arm)
    rig = table.to_rig()
    spring = caudal.TailSpring(rig, None, **spring_settings.spring_kwargs(arm.caudal))
    names = rig.joint_names
    idx = [names.index(b) for b in spring.joints]
    rest_q = np.asarray(rig.rest_rotations)[idx]
    return Preview(spring=spring, pelvis=spring.parent, bones=list(spring.joints), rest_q=rest_q)


def pelvis_world_core(arm, pelvis: str) -> np.ndarray:
    """The pelvis' current evaluated world frame, in core space."""
    pb = arm.pose.bones[pelvis]
    return axes.frames_to_core(np.array(arm.matrix_world) @ np.array(pb.matrix))


def pose_tail(arm, p: Preview, local_xyzw: np.ndarray) -> None:
    basis = axes.basis_from_local(p.rest_q, np.asarray(local_xyzw, dtype=np.float64))
    for name, q in zip(p.bones, basis, strict=False):
        pb = arm.pose.bones[name]
        pb.rotation_mode = "QUATERNION"
        pb.rotation_quaternion = q.tolist()


def step(arm, scene, playing: bool) -> None:
    """One frame of preview for ``arm``."""
    p = _previews.get(arm.name)
    if p is None:
        p = _previews[arm.name] = make_spring(arm)
    frame = scene.frame_current
    world = pelvis_world_core(arm, p.pelvis)
    fps = scene.render.fps / scene.render.fps_base
    wrapped = p.last_frame == scene.frame_end and frame == scene.frame_start
    if (
        playing
        and p.last_frame is not None
        and (frame == p.last_frame + scene.frame_step or wrapped)
    ):
        # Playback goes on through the loop point: the spring keeps its
        # motion (a pelvis that jumps back far is caught by the spring's own
        # teleport rule).
        rot = p.spring.step(world, scene.frame_step / fps)
    else:
        # Scrub, jump or a still frame: start at rest here.
        rot = p.spring.reset_to(world)
    p.last_frame = frame
    pose_tail(arm, p, rot)


def _is_playing() -> bool:
    screen = getattr(bpy.context, "screen", None)
    return bool(screen and screen.is_animation_playing)


@persistent
def on_frame_change(scene, depsgraph=None):
    playing = _is_playing() or _forced_playing
    for obj in scene.objects:
        if obj.type == "ARMATURE" and obj.caudal.live_preview:
            try:
                step(obj, scene, playing)
            except Exception as e:  # a handler must never break playback
                obj.caudal.live_preview = False
                print(f"caudal live preview stopped on '{obj.name}': {e}")


# Tests (and scripted playback) step frames without a screen playing.
_forced_playing = False


def set_playing(value: bool) -> None:
    global _forced_playing
    _forced_playing = value


def settings_changed(settings) -> None:
    """Any spring setting changed: rebuild the spring on the next frame."""
    arm = settings.id_data
    _previews.pop(arm.name, None)


def register() -> None:
    if on_frame_change not in bpy.app.handlers.frame_change_post:
        bpy.app.handlers.frame_change_post.append(on_frame_change)


def unregister() -> None:
    if on_frame_change in bpy.app.handlers.frame_change_post:
        bpy.app.handlers.frame_change_post.remove(on_frame_change)
    _previews.clear()
