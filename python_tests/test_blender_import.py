"""A file caudal wrote opens in Blender's own glTF importer (bpy, headless)."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import asset, import_bpy
from test_gltf_io import add_bone

import caudal

pytestmark = pytest.mark.blender


def import_into_empty_scene(bpy, path):
    bpy.ops.wm.read_homefile(use_empty=True)
    bpy.ops.import_scene.gltf(filepath=str(path))
    arm = next(o for o in bpy.context.scene.objects if o.type == "ARMATURE")
    # Only skinned meshes: the importer adds an icosphere as a bone display shape.
    meshes = [o for o in bpy.context.scene.objects if o.type == "MESH" and o.find_armature() is arm]
    return arm, meshes


def test_added_bone_and_vertex_group_in_blender(tmp_path):
    bpy = import_bpy()
    model = caudal.load(asset("fox/Fox_notail.glb"))
    tail_like = np.arange(model.rig.vertex_count)[model.rig.vertices[:, 2] < -60]  # behind the hips
    rig = add_bone(model.rig, "Extra", parent="b_Hip_01", vertices=tail_like)
    out = tmp_path / "fox_extra.glb"
    model.write(out, rig=rig)
    arm, meshes = import_into_empty_scene(bpy, out)
    bones = arm.data.bones
    assert "Extra" in bones
    assert bones["Extra"].parent.name == "b_Hip_01"
    mesh = meshes[0]
    assert "Extra" in mesh.vertex_groups
    gi = mesh.vertex_groups["Extra"].index
    weighted = sum(
        1 for v in mesh.data.vertices for g in v.groups if g.group == gi and g.weight > 0.99
    )
    # Blender merges seam-split glTF vertices, so count at most what we wrote.
    assert 0 < weighted <= len(tail_like)
    # The original clips are still there as actions.
    names = {a.name for a in bpy.data.actions}
    assert all(any(n.startswith(clip) for n in names) for clip in ["Walk", "Run", "Survey"]), names


def test_demo_creature_imports_in_blender(tmp_path):
    bpy = import_bpy()
    out = tmp_path / "creature.glb"
    caudal.demo_creature().write(out)
    arm, meshes = import_into_empty_scene(bpy, out)
    assert len(arm.data.bones) == 22
    assert "mixamorig:Hips" in arm.data.bones
    assert len(meshes) == 1 and len(meshes[0].vertex_groups) >= 20
