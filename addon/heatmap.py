"""The transfer error heat map (SPEC X6): a point colour attribute
``caudal_error`` on the target's meshes (blue 0, red at 3% of the model
diagonal, colours from caudal), shown or hidden by the panel's toggle."""

from __future__ import annotations

import bpy

from . import bpy_arrays

ATTRIBUTE = "caudal_error"
# The rest-pose distance from each target vertex to the artist's surface
# (the correspondence gap), apart from the motion error.
GAP_ATTRIBUTE = "caudal_gap"
_PREVIOUS = "caudal_previous_colour"


def _meshes(arm):
    return [o for o in bpy_arrays.deform_meshes(arm) if ATTRIBUTE in o.data.color_attributes]


def _viewports(context):
    screen = getattr(context, "screen", None)
    if screen is None:
        return []
    return [s for a in screen.areas if a.type == "VIEW_3D" for s in a.spaces if s.type == "VIEW_3D"]


def keep_active_colour(table):
    """The meshes' active colour attribute names, to put back after the
    heat map is (re)written while hidden."""
    return {
        sl.name: bpy.data.objects[sl.name].data.color_attributes.active_color_name
        for sl in table.meshes
    }


def restore_active_colour(active: dict) -> None:
    for name, colour in active.items():
        me = bpy.data.objects[name].data
        me.color_attributes.active_color_name = colour if colour in me.color_attributes else ""


def show(settings, context) -> None:
    arm = settings.id_data
    on = settings.show_heat_map
    for obj in _meshes(arm):
        me = obj.data
        if on:
            if me.color_attributes.active_color_name != ATTRIBUTE:
                me[_PREVIOUS] = me.color_attributes.active_color_name or ""
            me.color_attributes.active_color_name = ATTRIBUTE
        else:
            prev = me.get(_PREVIOUS, "")
            me.color_attributes.active_color_name = prev if prev in me.color_attributes else ""
            if _PREVIOUS in me:
                del me[_PREVIOUS]
    for space in _viewports(context):
        if on:
            space.shading.type = "SOLID"
            space.shading.color_type = "ATTRIBUTE"
        elif space.shading.color_type == "ATTRIBUTE":
            space.shading.color_type = "MATERIAL"
