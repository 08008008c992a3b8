"""caudal for Blender: Build Armature (tail bones, fingers), live tail spring,
Bake Tail, Transfer Animation. All numerics run in the caudal package (the
bundled wheel); this add-on only moves data between Blender and it.

bpy is imported by ``register()``, not here: the bpy-free helpers (``axes``,
``card``, ``rig_edit``, ``spring_settings``) import and test without Blender.
"""

from __future__ import annotations


def _parts():
    """(properties, Blender classes, live): what register() adds, in order."""
    from . import live, operators, panels, properties

    return properties, (*operators.classes, *panels.classes), live


def register() -> None:
    import bpy

    properties, classes, live = _parts()
    properties.register()
    for c in classes:
        bpy.utils.register_class(c)
    live.register()


def unregister() -> None:
    import bpy

    properties, classes, live = _parts()
    live.unregister()
    for c in reversed(classes):
        bpy.utils.unregister_class(c)
    properties.unregister()
