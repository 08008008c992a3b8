"""Bake Tail in real Blender (SPEC B, R): loop-closed keys written into the
action; the live pose, frame, active action and selection untouched; moving
the live pelvis first gives identical keys; the keys survive Blender's glTF
exporter and caudal reads them back."""

from __future__ import annotations

import numpy as np
import pytest
from addon_harness import action, addon, fresh_fox

import caudal

pytestmark = pytest.mark.blender

TAIL = ["Tail_1", "Tail_2", "Tail_3"]


def fox_with_tail_chain():
    """The Khronos Fox with its three authored tail bones renamed to caudal's
    chain names (Tail_1..Tail_3), so the bake finds them as a grown chain."""
    arm, mesh = fresh_fox("fox/Fox.glb")
    for old, new in zip(["b_Tail01_012", "b_Tail02_013", "b_Tail03_014"], TAIL, strict=False):
        arm.data.bones[old].name = new
    return arm, mesh


def tail_keys(arm, action):
    from addon import anim

    curves = anim.fcurves(action, anim.slot_for(arm, action))
    out = []
    for b in TAIL:
        for i in range(4):
            fc = curves.find(f'pose.bones["{b}"].rotation_quaternion', index=i)
            assert fc is not None, (b, i)
            out.append(np.stack(anim.read_curve(fc)))
    return np.stack(out)  # (12, 2, F)


def live_state(arm):
    import bpy

    pose = np.array(
        [list(pb.location) + list(pb.rotation_quaternion) + list(pb.scale) for pb in arm.pose.bones]
    )
    sel = sorted(o.name for o in bpy.context.view_layer.objects if o.select_get())
    return (
        pose,
        bpy.context.scene.frame_current,
        arm.animation_data.action.name,
        sel,
        bpy.context.view_layer.objects.active.name,
    )


def quat_angle_deg(a, b):
    d = np.abs(np.sum(a * b, axis=-1)).clip(0, 1)
    return np.degrees(2 * np.arccos(d))


def test_bake_walk_closes_the_loop_and_leaves_the_live_state_alone():
    addon()
    import bpy

    arm, mesh = fox_with_tail_chain()
    bpy.context.scene.frame_set(7)
    before = live_state(arm)
    arm.caudal.bake_actions = action("Walk").name
    assert bpy.ops.caudal.bake_tail() == {"FINISHED"}
    after = live_state(arm)
    np.testing.assert_array_equal(after[0], before[0])
    assert after[1:] == before[1:]
    keys = tail_keys(arm, action("Walk"))
    frames, values = keys[:, 0], keys[:, 1]
    walk = action("Walk")
    assert frames[0, 0] == pytest.approx(walk.frame_range[0]) and frames[0, -1] == pytest.approx(
        walk.frame_range[1]
    )
    q = values.reshape(len(TAIL), 4, -1).transpose(2, 0, 1)  # (F, bones, wxyz)
    # Loop closed: first and last key of every tail bone within 0.5 degrees.
    assert quat_angle_deg(q[0], q[-1]).max() < 0.5
    # And the tail really moves over the cycle (not a bind-pose plank).
    assert quat_angle_deg(q[0], q).max() > 2.0
    assert "closure" in arm.caudal.bake_report


def test_moving_the_live_pelvis_first_gives_identical_keys():
    addon()
    import bpy

    from addon import bake

    arm, mesh = fox_with_tail_chain()
    walk = action("Walk")
    bake.bake_actions(arm, [walk], arm.caudal)
    clean = tail_keys(arm, walk)
    # Take the animation off, move and turn the live hips, bake again.
    arm.animation_data.action = None
    pb = arm.pose.bones["b_Hip_01"]
    pb.location = (3.0, -20.0, 5.0)
    pb.rotation_quaternion = (0.8, 0.3, -0.4, 0.33)
    bpy.context.view_layer.update()
    bake.bake_actions(arm, [walk], arm.caudal)
    np.testing.assert_array_equal(tail_keys(arm, walk), clean)
    assert tuple(pb.location) == pytest.approx((3.0, -20.0, 5.0))


def test_baked_keys_survive_blenders_gltf_exporter(tmp_path):
    addon()
    import bpy

    arm, mesh = fox_with_tail_chain()
    arm.caudal.bake_actions = action("Walk").name
    assert bpy.ops.caudal.bake_tail() == {"FINISHED"}
    out = tmp_path / "fox_baked.glb"
    bpy.ops.export_scene.gltf(
        filepath=str(out), export_format="GLB", export_animation_mode="ACTIONS"
    )
    model = caudal.load(out)
    assert all(t in model.rig.joint_names for t in TAIL)
    walk_name = next(n for n in model.clip_names if n.startswith("Walk"))
    clip = model.clip(walk_name)
    anims = {a["name"]: a for a in model.animations()}
    rot = np.asarray(clip.rotations)
    j = model.rig.joint_names.index("Tail_3")
    # The tip swings in the exported clip and closes the loop there too.
    assert quat_angle_deg(rot[0, j], rot[:, j]).max() > 2.0
    assert quat_angle_deg(rot[0, j], rot[-1, j]) < 0.5
    assert walk_name in anims
