"""Transfer Animation in real Blender: the Fox's Walk solved onto the
tail-less Fox repaired by Build Armature;
the quality on the card equals what caudal's Python API computes, and the
error heat map is a colour attribute the toggle shows and hides."""

from __future__ import annotations

import numpy as np
import pytest
from addon_harness import action, addon
from conftest import asset

import caudal

pytestmark = pytest.mark.blender


def source_and_target(repair: bool):
    import bpy

    bpy.ops.wm.read_homefile(use_empty=True)
    bpy.ops.import_scene.gltf(filepath=str(asset("fox/Fox.glb")))
    source = next(o for o in bpy.context.scene.objects if o.type == "ARMATURE")
    walk = action("Walk")
    bpy.ops.import_scene.gltf(filepath=str(asset("fox/Fox_notail.glb")))
    target = next(o for o in bpy.context.scene.objects if o.type == "ARMATURE" and o != source)
    bpy.context.view_layer.objects.active = target
    if repair:
        target.caudal.use_tail = True
        assert bpy.ops.caudal.build_armature() == {"FINISHED"}
        assert "Tail_1" in target.data.bones
    return source, target, walk


def test_transfer_quality_on_the_card_equals_the_python_api():
    addon()
    import bpy

    from addon import bpy_arrays, heatmap

    source, target, walk = source_and_target(repair=True)
    s = target.caudal
    s.source_armature = source
    s.source_action = walk
    active_before = source.animation_data.action
    assert bpy.ops.caudal.transfer_animation() == {"FINISHED"}

    # The same computation through the Python API on the same rig tables.
    fps = bpy.context.scene.render.fps
    src = bpy_arrays.read_rig(source)
    tgt = bpy_arrays.read_rig(target)
    src_rig, tgt_rig = src.to_rig(), tgt.to_rig()
    clip = bpy_arrays.sample_action(
        source, walk, src, src_rig, bpy_arrays.action_frames(walk, fps), fps
    )
    solved, report = caudal.transfer_clip(src_rig, clip, tgt_rig)
    assert s.transfer_quality == pytest.approx(report["quality"], rel=1e-6)
    # And caudal reading both files itself agrees to float noise.
    m_src, m_tgt = caudal.load(asset("fox/Fox.glb")), caudal.load(asset("fox/Fox_notail.glb"))
    repaired, _ = caudal.grow_chains(m_tgt.rig)
    _, file_report = caudal.transfer_clip(m_src.rig, m_src.clip("Walk", rate=fps), repaired)
    assert s.transfer_quality == pytest.approx(file_report["quality"], abs=2e-3)
    assert 0.5 < s.transfer_quality <= 1.0

    # The solved action is on the target and poses it like the solved clip.
    new = bpy.data.actions[s.transfer_action]
    assert target.animation_data.action == new
    back = bpy_arrays.sample_action(
        target, new, tgt, tgt_rig, bpy_arrays.action_frames(new, fps), fps
    )
    np.testing.assert_allclose(
        caudal.world_matrices_of(tgt_rig, back)[:, :, :3, 3],
        caudal.world_matrices_of(tgt_rig, solved)[:, :, :3, 3],
        atol=1e-3 * tgt_rig.height,
    )
    assert source.animation_data.action == active_before

    # Heat map: caudal's colours of the worst frame, per vertex; the toggle.
    mesh = next(o for o in bpy_arrays.deform_meshes(target))
    attr = mesh.data.color_attributes[heatmap.ATTRIBUTE]
    got = np.empty(len(attr.data) * 4, np.float32)
    attr.data.foreach_get("color", got)
    np.testing.assert_allclose(
        got.reshape(-1, 4)[:, :3], np.asarray(report["colours"])[report["worst_frame"]], atol=1e-6
    )
    assert mesh.data.color_attributes.active_color_name != heatmap.ATTRIBUTE  # written, not shown
    # The gap between the meshes is its own layer (zero here: the same mesh).
    gap = mesh.data.color_attributes[heatmap.GAP_ATTRIBUTE]
    got = np.empty(len(gap.data) * 4, np.float32)
    gap.data.foreach_get("color", got)
    np.testing.assert_allclose(
        got.reshape(-1, 4)[:, :3], np.asarray(report["correspondence"]["gap_colours"]), atol=1e-6
    )
    s.show_heat_map = True
    assert mesh.data.color_attributes.active_color_name == heatmap.ATTRIBUTE
    s.show_heat_map = False
    assert mesh.data.color_attributes.active_color_name != heatmap.ATTRIBUTE


def test_transfer_without_a_source_reports_the_error():
    addon()
    import bpy

    bpy.ops.wm.read_homefile(use_empty=True)
    bpy.ops.import_scene.gltf(filepath=str(asset("fox/Fox_notail.glb")))
    target = next(o for o in bpy.context.scene.objects if o.type == "ARMATURE")
    bpy.context.view_layer.objects.active = target
    with pytest.raises(RuntimeError, match="Source"):
        bpy.ops.caudal.transfer_animation()
