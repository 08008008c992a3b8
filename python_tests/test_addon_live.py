"""Live preview: the frame handler steps caudal's native TailSpring with the
pelvis' world matrix and the scene's frame time, and resets on jumps."""

from __future__ import annotations

import numpy as np
import pytest
from addon_harness import action, addon
from test_addon_bake import TAIL, fox_with_tail_chain

import caudal

pytestmark = pytest.mark.blender


def tail_pose(arm):
    return np.array([list(arm.pose.bones[b].rotation_quaternion) for b in TAIL])


def test_playback_steps_the_spring_and_a_jump_resets_it():
    addon()
    import bpy

    from addon import axes, bpy_arrays, live, spring_settings

    arm, mesh = fox_with_tail_chain()
    scene = bpy.context.scene
    arm.animation_data.action = action("Walk")
    scene.frame_set(0)
    # A reference spring stepped by hand with the same inputs.
    table = bpy_arrays.read_rig(arm)
    rig = table.to_rig()
    ref = caudal.TailSpring(rig, None, **spring_settings.spring_kwargs(arm.caudal))
    rest_q = np.asarray(rig.rest_rotations)[[rig.joint_names.index(b) for b in TAIL]]
    fps = scene.render.fps / scene.render.fps_base

    arm.caudal.live_preview = True
    live.set_playing(True)
    try:
        scene.frame_set(1)  # first frame seen: starts at rest here
        want = ref.reset_to(live.pelvis_world_core(arm, "b_Hip_01"))
        np.testing.assert_allclose(tail_pose(arm), axes.basis_from_local(rest_q, want), atol=1e-6)
        poses = []
        for f in range(2, 12):
            scene.frame_set(f)
            want = ref.step(live.pelvis_world_core(arm, "b_Hip_01"), 1.0 / fps)
            np.testing.assert_allclose(
                tail_pose(arm), axes.basis_from_local(rest_q, want), atol=1e-6
            )
            poses.append(tail_pose(arm))
        # The tail moved during playback.
        assert np.abs(np.diff(np.array(poses), axis=0)).max() > 1e-3
        # A jump restarts at rest under the pelvis there.
        scene.frame_set(40)
        want = ref.reset_to(live.pelvis_world_core(arm, "b_Hip_01"))
        np.testing.assert_allclose(tail_pose(arm), axes.basis_from_local(rest_q, want), atol=1e-6)
        # Playback wrapping from the last frame to the first keeps stepping.
        scene.frame_end = 41
        scene.frame_set(41)
        ref.step(live.pelvis_world_core(arm, "b_Hip_01"), 1.0 / fps)
        scene.frame_set(scene.frame_start)
        want = ref.step(live.pelvis_world_core(arm, "b_Hip_01"), 1.0 / fps)
        np.testing.assert_allclose(tail_pose(arm), axes.basis_from_local(rest_q, want), atol=1e-6)
        # Changing a setting rebuilds the spring with it.
        arm.caudal.root_frequency = 1.5
        assert arm.name not in live._previews
    finally:
        live.set_playing(False)
        arm.caudal.live_preview = False


def test_preview_off_leaves_the_pose_alone():
    addon()
    import bpy

    from addon import live

    arm, mesh = fox_with_tail_chain()
    arm.animation_data.action = None
    for b in TAIL:
        arm.pose.bones[b].rotation_quaternion = (1, 0, 0, 0)
    live.set_playing(True)
    try:
        for f in range(1, 5):
            bpy.context.scene.frame_set(f)
    finally:
        live.set_playing(False)
    np.testing.assert_array_equal(tail_pose(arm), np.tile([1.0, 0, 0, 0], (3, 1)))
