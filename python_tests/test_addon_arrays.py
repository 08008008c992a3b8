"""bpy <-> rig table: what the add-on reads from Blender's import of a file is
what caudal reads from the file itself (Z-up <-> Y-up at the boundary)."""

from __future__ import annotations

import numpy as np
import pytest
from addon_harness import action, addon, fresh_fox
from conftest import asset

import caudal

pytestmark = pytest.mark.blender


def test_rig_table_from_blender_matches_caudal_load():
    pkg = addon()
    from addon import bpy_arrays

    arm, mesh = fresh_fox()
    table = bpy_arrays.read_rig(arm)
    ref = caudal.load(asset("fox/Fox_notail.glb")).rig
    assert table.joint_names == ref.joint_names
    assert np.array_equal(table.parents, ref.parents)
    # The importer keeps glTF joint frames, so whole bind matrices agree.
    np.testing.assert_allclose(table.bind_core, ref.bind_matrices, atol=1e-3)
    assert table.vertex_count == ref.vertex_count
    np.testing.assert_allclose(table.vertices_core, ref.vertices, atol=1e-3)
    dense_ref = pkg.rig_edit.dense_weights(ref.skin_joints, ref.skin_weights, ref.joint_count)
    np.testing.assert_allclose(table.dense, dense_ref, atol=1e-5)
    assert table.triangles.shape == ref.triangles.shape
    # Same triangles up to the order of corners.
    np.testing.assert_array_equal(
        np.sort(np.sort(table.triangles, axis=1), axis=0),
        np.sort(np.sort(ref.triangles, axis=1), axis=0),
    )
    rig = table.to_rig()
    assert rig.roles()["pelvis"] == "b_Hip_01"
    np.testing.assert_allclose(caudal.skin_bind_pose(rig), caudal.skin_bind_pose(ref), atol=1e-2)


def test_written_weights_read_back_and_untouched_rows_stay():
    addon()
    from addon import bpy_arrays

    arm, mesh = fresh_fox()
    table = bpy_arrays.read_rig(arm)
    dense = np.pad(table.dense, ((0, 0), (0, 1)))
    rows = np.array([0, 5, 17, 1000])
    dense[rows] = 0.0
    dense[rows, -1] = [1.0, 0.25, 0.5, 0.125]
    dense[rows[1:], 2] = [0.75, 0.5, 0.875]
    names = table.joint_names + ["Extra"]
    bpy_arrays.write_weights(table, names, dense, rows)
    g = mesh.vertex_groups["Extra"]
    assert g.weight(5) == pytest.approx(0.25)
    assert mesh.vertex_groups["b_Hip_01"].weight(17) == pytest.approx(0.5)
    with pytest.raises(RuntimeError):  # vertex 0 left every other group
        mesh.vertex_groups["b_Hip_01"].weight(0)
    back = bpy_arrays.group_weights(mesh)
    r = back[0]
    assert set(np.unique(r)) == set(range(table.vertex_count))
    # A vertex we did not touch reads back the same.
    i = 3
    got = {back[3][g]: w for v, g, w in zip(*back[:3], strict=False) if v == i}
    want = {table.joint_names[j]: table.dense[i, j] for j in np.flatnonzero(table.dense[i])}
    assert got.keys() == want.keys() and all(abs(got[k] - want[k]) < 1e-5 for k in got)


def test_action_sampled_from_blender_matches_the_files_clip():
    """An imported action read back through the add-on (f-curves -> caudal
    Clip) poses the skeleton exactly as caudal's own reading of the file."""
    addon()
    import bpy

    from addon import bpy_arrays

    arm, mesh = fresh_fox()
    frame, active = bpy.context.scene.frame_current, arm.animation_data.action
    table = bpy_arrays.read_rig(arm)
    rig = table.to_rig()
    walk = action("Walk")
    frames = bpy_arrays.action_frames(walk, 24.0)
    clip = bpy_arrays.sample_action(arm, walk, table, rig, frames, 24.0)
    model = caudal.load(asset("fox/Fox_notail.glb"))
    ref = model.clip("Walk", rate=24)
    assert clip.frame_count == ref.frame_count == 18
    got = caudal.world_matrices_of(rig, clip)[:, :, :3, 3]
    want = caudal.world_matrices_of(model.rig, ref)[:, :, :3, 3]
    np.testing.assert_allclose(got, want, atol=1e-3 * model.rig.height)
    # Reading never touches the live state.
    assert bpy.context.scene.frame_current == frame and arm.animation_data.action == active


def test_clip_written_as_action_reads_back_the_same():
    addon()
    import bpy

    from addon import bpy_arrays

    arm, mesh = fresh_fox()
    table = bpy_arrays.read_rig(arm)
    rig = table.to_rig()
    fps = bpy.context.scene.render.fps
    walk = action("Walk")
    frames = bpy_arrays.action_frames(walk, fps)
    clip = bpy_arrays.sample_action(arm, walk, table, rig, frames, fps)
    copy = bpy.data.actions.new("WalkCopy")
    bpy_arrays.write_clip(arm, clip, rig, copy)
    back = bpy_arrays.sample_action(arm, copy, table, rig, frames, fps)
    got = caudal.world_matrices_of(rig, back)
    want = caudal.world_matrices_of(rig, clip)
    np.testing.assert_allclose(got, want, atol=1e-4 * rig.height)


def test_vertex_colours_written_per_vertex():
    addon()
    from addon import bpy_arrays

    arm, mesh = fresh_fox()
    table = bpy_arrays.read_rig(arm)
    rgb = np.random.default_rng(1).random((table.vertex_count, 3)).astype(np.float32)
    bpy_arrays.write_vertex_colours(table, "caudal_error", rgb)
    attr = mesh.data.color_attributes["caudal_error"]
    back = np.empty(len(attr.data) * 4, np.float32)
    attr.data.foreach_get("color", back)
    np.testing.assert_allclose(back.reshape(-1, 4)[:, :3], rgb, atol=1e-6)


def test_keys_written_linear_in_a_group_on_the_objects_slot():
    addon()
    import bpy

    from addon import anim

    bpy.ops.wm.read_homefile(use_empty=True)
    obj = bpy.data.objects.new("o", None)
    bpy.context.scene.collection.objects.link(obj)
    action = bpy.data.actions.new("a")
    curves = anim.fcurves(action, anim.slot_for(obj, action), create=True)
    fc = anim.write_curve(
        curves, "location", 1, np.arange(3.0), np.array([1.0, 2.0, 4.0]), group="G"
    )
    # Writing again replaces the curve instead of adding a second one.
    fc = anim.write_curve(
        curves, "location", 1, np.arange(3.0), np.array([1.0, 2.0, 3.0]), group="G"
    )
    assert len([c for c in curves if c.data_path == "location"]) == 1
    assert fc.group.name == "G"
    assert all(k.interpolation == "LINEAR" for k in fc.keyframe_points)
    f, v = anim.read_curve(fc)
    np.testing.assert_array_equal(v, [1.0, 2.0, 3.0])
    assert fc.evaluate(1.5) == pytest.approx(2.5)
    if anim.SLOTTED:
        assert anim.slot_for(obj, action).target_id_type == "OBJECT"
