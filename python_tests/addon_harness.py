"""Loads the Blender add-on from ../addon for the add-on tests (the package is
imported as ``addon`` from the repository root and registered once)."""

from __future__ import annotations

import sys

from conftest import ROOT, asset, import_bpy

_registered = None


def helpers():
    """The add-on package, not registered and without bpy: its bpy-free
    modules (axes, card, plan, rig_edit, rig_table, spring_settings)."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    import addon as pkg
    from addon import axes, card, plan, rig_edit, rig_table, spring_settings  # noqa: F401

    return pkg


def addon():
    """The registered add-on package (bpy imported first)."""
    global _registered
    import_bpy()
    if _registered is None:
        pkg = helpers()
        pkg.register()
        _registered = pkg
    return _registered


def fresh_fox(path: str = "fox/Fox_notail.glb"):
    """An empty scene with the Fox imported by Blender's glTF importer:
    (armature object, skinned mesh object)."""
    import bpy

    bpy.ops.wm.read_homefile(use_empty=True)
    bpy.ops.import_scene.gltf(filepath=str(asset(path)))
    arm = next(o for o in bpy.context.scene.objects if o.type == "ARMATURE")
    mesh = next(
        o for o in bpy.context.scene.objects if o.type == "MESH" and o.find_armature() is arm
    )
    bpy.context.view_layer.objects.active = arm
    arm.select_set(True)
    return arm, mesh


def action(name: str):
    """An imported clip's action: Blender 4.4+'s importer names it after the
    glTF animation ("Walk"), 4.2/4.3's after animation and object ("Walk_root")."""
    import bpy

    a = bpy.data.actions.get(name)
    if a is None:
        a = next((a for a in bpy.data.actions if a.name.startswith(name + "_")), None)
    if a is None:
        raise KeyError(f"no action for clip {name!r} among {[a.name for a in bpy.data.actions]}")
    return a
