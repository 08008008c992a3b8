"""caudal for Blender: Build Armature (tail bones, fingers), live tail spring,
Bake Tail, Transfer Animation. All numerics run in the caudal package (the
bundled wheel); this add-on only moves data between Blender and it."""

from __future__ import annotations

import bpy

from . import live, operators, panels, properties


def _classes():
    return (*operators.classes, *panels.classes)


def register() -> None:
    properties.register()
    for c in _classes():
        bpy.utils.register_class(c)
    live.register()


def unregister() -> None:
    live.unregister()
    for c in reversed(_classes()):
        bpy.utils.unregister_class(c)
    properties.unregister()
