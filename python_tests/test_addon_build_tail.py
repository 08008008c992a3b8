"""Must show (issue 7): Blender's glTF import of Fox_notail, Tail ticked,
Build Armature: Tail_1..Tail_K under the pelvis bone, the vertex groups hold
caudal's new weights, the card lists one tail; one undo restores it all."""

from __future__ import annotations

import numpy as np
import pytest
from addon_harness import action, addon, fresh_fox

import caudal

pytestmark = pytest.mark.blender


def test_build_armature_grows_the_fox_tail_and_undo_restores():
    pkg = addon()
    import bpy

    from addon import bpy_arrays, plan

    arm, mesh = fresh_fox()
    name, mesh_name = arm.name, mesh.name
    before = bpy_arrays.read_rig(arm)
    bones_before = [b.name for b in arm.data.bones]
    # What caudal's Python API makes of the same rig table.
    want_rig, want_report = plan.grow_chains(before.to_rig())
    want = pkg.rig_edit.dense_weights(
        want_rig.skin_joints, want_rig.skin_weights, want_rig.joint_count
    )

    bpy.ops.ed.undo_push(message="before caudal")
    arm.caudal.use_tail = True
    arm.caudal.use_fingers = True
    assert "UNDO" in bpy.types.CAUDAL_OT_build_armature.bl_options
    assert bpy.ops.caudal.build_armature() == {"FINISHED"}
    # Headless bpy pushes no undo step after an operator; the UI does (the
    # UNDO flag). Push it here as the UI would, then one undo must restore
    # everything: the whole build is one step.
    bpy.ops.ed.undo_push(message="Build Armature")
    arm = bpy.data.objects[name]
    mesh = bpy.data.objects[mesh_name]  # undo pushes reallocate ID data
    tails = sorted(
        (b for b in arm.data.bones if b.name.startswith("Tail_") and b.name[5:].isdigit()),
        key=lambda b: int(b.name[5:]),
    )
    k = len(tails)
    assert 3 <= k <= 8
    assert [b.name for b in tails] == [f"Tail_{i}" for i in range(1, k + 1)]
    assert tails[0].parent.name == "b_Hip_01"
    for a, b in zip(tails, tails[1:], strict=False):
        assert b.parent == a
    assert arm.data.bones["Tail_End"].parent == tails[-1]
    # Heads where caudal put the joints.
    frames = bpy_arrays.bone_frames_from_core(
        arm, np.asarray(want_rig.bind_matrices, dtype=np.float64)
    )
    for b in tails:
        np.testing.assert_allclose(
            b.head_local, frames[want_rig.joint_names.index(b.name), :3, 3], atol=1e-3
        )

    after = bpy_arrays.read_rig(arm)
    assert after.joint_names[: len(bones_before)] == bones_before
    cols = [after.joint_names.index(n) for n in want_rig.joint_names]
    np.testing.assert_allclose(after.dense[:, cols], want, atol=1e-5)
    tail_cols = [after.joint_names.index(b.name) for b in tails]
    weighted = np.flatnonzero(after.dense[:, tail_cols].sum(axis=1) > 0)
    assert len(weighted) > 100  # the Fox's tail is a few hundred vertices
    weighted_bones = [
        b.name for b in tails if want[:, want_rig.joint_names.index(b.name)].max() > 0
    ]
    assert len(weighted_bones) >= 3
    assert all(n in mesh.vertex_groups for n in weighted_bones)

    chains = [p for p in arm.caudal.parts if p.decision == "chain"]
    assert len(chains) == 1 and chains[0].kind == "tail"
    assert chains[0].attachment == "b_Hip_01" and chains[0].bone_count == k
    assert chains[0].has_after and chains[0].distance_after < chains[0].distance_before
    assert arm.caudal.card_title.startswith("1 tail(s)")
    want_parts = want_report["parts"]
    assert len(arm.caudal.parts) == len(want_parts)

    bpy.ops.ed.undo()
    arm = bpy.data.objects[name]
    assert [b.name for b in arm.data.bones] == bones_before
    restored = bpy_arrays.read_rig(arm)
    np.testing.assert_array_equal(restored.dense, before.dense)
    assert not any(g.name.startswith("Tail") for g in bpy.data.objects[mesh_name].vertex_groups)


def test_built_tail_bakes_on_walk_and_exports_through_blenders_gltf_exporter(tmp_path):
    """The whole path in Blender: Build Armature on Fox_notail, Bake Tail on
    Walk, Blender's glTF exporter; caudal reads the tail bones, their
    weights and the baked channels back."""
    addon()
    import bpy
    from test_addon_bake import quat_angle_deg

    arm, mesh = fresh_fox()
    arm.caudal.use_tail = True
    assert bpy.ops.caudal.build_armature() == {"FINISHED"}
    tails = [b.name for b in arm.data.bones if b.name.startswith("Tail_") and b.name[5:].isdigit()]
    arm.caudal.bake_actions = action("Walk").name
    assert bpy.ops.caudal.bake_tail() == {"FINISHED"}
    assert "tail stretch p99" in arm.caudal.bake_report and "collar p99" in arm.caudal.bake_report
    # SPEC M1: the baked tail stretches less than the body does, while swinging.
    from addon import bake

    (r,) = bake.bake_actions(arm, [action("Walk")], arm.caudal)
    assert r.stretch["tail"]["p99"] < r.stretch["body"]["p99"]
    assert r.stretch["motion"]["swing_deg"] > 1.0
    out = tmp_path / "fox_tail.glb"
    bpy.ops.export_scene.gltf(
        filepath=str(out), export_format="GLB", export_animation_mode="ACTIONS"
    )
    model = caudal.load(out)
    names = model.rig.joint_names
    assert set(tails) | {"Tail_End"} <= set(names)
    # Tail skin exported: vertices weighted on the tail bones.
    sj, sw = np.asarray(model.rig.skin_joints), np.asarray(model.rig.skin_weights)
    tail_idx = [names.index(t) for t in tails]
    assert np.isin(sj, tail_idx)[sw > 0].sum() > 100
    walk = next(n for n in model.clip_names if n.startswith("Walk"))
    anim = next(a for a in model.animations() if a["name"] == walk)
    rot = np.asarray(model.clip(walk).rotations)
    for t in tails:
        j = names.index(t)
        assert quat_angle_deg(rot[0, j], rot[-1, j]) < 0.5  # loop closed in the exported clip
    tip = names.index(tails[-1])
    assert quat_angle_deg(rot[0, tip], rot[:, tip]).max() > 1.0  # and the tail swings
    assert anim is not None


def test_build_on_a_moved_rotated_scaled_armature_puts_the_tail_in_the_same_place():
    """FBX-style objects (scale 0.01, turned 90 degrees) are common: the rig
    table is read in world space and written back through the object's
    matrix, so the tail lands on the same skin in the armature's own space."""
    addon()
    import bpy

    arm, mesh = fresh_fox()
    arm.caudal.use_tail = True
    assert bpy.ops.caudal.build_armature() == {"FINISHED"}
    plain = {b.name: np.array(b.head_local) for b in arm.data.bones if b.name.startswith("Tail")}

    arm, mesh = fresh_fox()
    arm.location = (3.0, -2.0, 1.0)
    arm.rotation_euler = (np.pi / 2, 0.0, 0.4)
    arm.scale = (0.01, 0.01, 0.01)
    bpy.context.view_layer.update()
    arm.caudal.use_tail = True
    assert bpy.ops.caudal.build_armature() == {"FINISHED"}
    moved = {b.name: np.array(b.head_local) for b in arm.data.bones if b.name.startswith("Tail")}
    assert moved.keys() == plain.keys()
    for n in plain:
        np.testing.assert_allclose(moved[n], plain[n], atol=1e-2)


def test_building_twice_changes_nothing_the_second_time():
    addon()
    import bpy

    from addon import bpy_arrays

    arm, mesh = fresh_fox()
    assert bpy.ops.caudal.build_armature() == {"FINISHED"}
    bones = [b.name for b in arm.data.bones]
    first = bpy_arrays.read_rig(arm)
    assert bpy.ops.caudal.build_armature() == {"FINISHED"}
    assert [b.name for b in arm.data.bones] == bones
    np.testing.assert_array_equal(bpy_arrays.read_rig(arm).dense, first.dense)
    assert not any(p.decision == "chain" for p in arm.caudal.parts)


def test_the_pelvis_field_sets_where_the_chain_hangs():
    """The Pelvis field (empty: found from the skeleton) is what the chain
    hangs from; a name the armature lacks is an error and changes nothing."""
    addon()
    import bpy

    arm, mesh = fresh_fox()
    arm.caudal.pelvis_bone = "b_Spine01_02"
    assert bpy.ops.caudal.build_armature() == {"FINISHED"}
    assert arm.data.bones["Tail_1"].parent.name == "b_Spine01_02"
    assert any(p.decision == "chain" for p in arm.caudal.parts)

    arm, mesh = fresh_fox()
    arm.caudal.pelvis_bone = "Nope"
    with pytest.raises(RuntimeError, match="pelvis"):
        bpy.ops.caudal.build_armature()
    assert not any(b.name.startswith("Tail") for b in arm.data.bones)
