"""caudal for Blender: Build Armature (tail bones, fingers), live tail spring,
Bake Tail, Transfer Animation. All numerics run in the caudal package."""

from __future__ import annotations


def register() -> None:
    pass


def unregister() -> None:
    pass
