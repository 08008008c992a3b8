"""Settings stored on the armature object as ``Object.caudal``: the Rig
checkboxes, the tail spring's parameters (``spring_settings``: the core's
names and defaults), the bake and transfer choices, and the result card.
"""

from __future__ import annotations

import bpy
from bpy.props import (
    BoolProperty,
    CollectionProperty,
    FloatProperty,
    IntProperty,
    PointerProperty,
    StringProperty,
)
from bpy.types import PropertyGroup

from . import spring_settings


def _live_changed(self, context):
    from . import live

    live.settings_changed(self)


def _heat_map_toggled(self, context):
    from . import heatmap

    heatmap.show(self, context)


class CaudalPart(PropertyGroup):
    """One row of the result card (SPEC T6)."""

    kind: StringProperty(name="Kind")
    decision: StringProperty(name="Decision")
    attachment: StringProperty(name="Attachment")
    vertex_count: IntProperty(name="Vertices")
    length: FloatProperty(name="Length")
    bone_count: IntProperty(name="Bones")
    bones: StringProperty(name="Bone names")
    distance_before: FloatProperty(name="Bone distance before")
    distance_after: FloatProperty(name="Bone distance after")
    has_after: BoolProperty()
    reason: StringProperty(name="Why")


class CaudalWarning(PropertyGroup):
    text: StringProperty()


class CaudalSettings(PropertyGroup):
    # The artist's word where the skeleton's structure reads wrong.
    pelvis_bone: StringProperty(
        name="Pelvis",
        description="The bone where the hind legs and the spine meet, which tail chains hang from (empty: caudal finds it from the skeleton; set it when the card names the wrong one)",
    )
    use_tail: BoolProperty(
        name="Tail",
        description="Find tails (and other appendages) the rigger missed and grow them a bone chain",
        default=True,
    )
    use_fingers: BoolProperty(
        name="Fingers",
        description="Keep finger bones; off merges their weights into the hands and removes them",
        default=True,
    )

    live_preview: BoolProperty(
        name="Live Preview",
        description="Run the tail spring during playback (no keys are written)",
        default=False,
        update=_live_changed,
    )

    # Bake / transfer choices
    bake_actions: StringProperty(
        name="Actions",
        description="Comma-separated action names to bake (empty: the active action)",
        default="",
    )
    source_armature: PointerProperty(
        name="Source",
        type=bpy.types.Object,
        description="The artist's armature whose action is transferred",
        poll=lambda self, o: o.type == "ARMATURE",
    )
    source_action: PointerProperty(
        name="Action", type=bpy.types.Action, description="The artist's clip to transfer"
    )
    show_heat_map: BoolProperty(
        name="Show Error Heat Map",
        description="Colour the mesh by the transfer's per-vertex error (blue 0, red 3% of the diagonal)",
        default=False,
        update=_heat_map_toggled,
    )

    # Result card
    parts: CollectionProperty(type=CaudalPart)
    warnings: CollectionProperty(type=CaudalWarning)
    card_title: StringProperty(default="")
    transfer_quality: FloatProperty(name="Transfer Quality", default=-1.0)
    transfer_action: StringProperty(default="")
    bake_report: StringProperty(default="")


def _spring_property(field: spring_settings.SpringField, default):
    """A Blender property for one spring parameter, the core's default."""
    if isinstance(default, bool):
        return BoolProperty(
            name=field.label, description=field.description, default=default, update=_live_changed
        )
    limits = {"min": field.min, "max": field.max, "soft_max": field.soft_max}
    return FloatProperty(
        name=field.label,
        description=field.description,
        default=default,
        subtype=field.subtype,
        update=_live_changed,
        **{k: v for k, v in limits.items() if v is not None},
    )


def _add_spring_properties(cls) -> None:
    defaults = spring_settings.defaults()
    for field in spring_settings.FIELDS:
        cls.__annotations__[field.name] = _spring_property(field, defaults[field.name])


_add_spring_properties(CaudalSettings)

classes = (CaudalPart, CaudalWarning, CaudalSettings)


def register() -> None:
    for c in classes:
        bpy.utils.register_class(c)
    bpy.types.Object.caudal = PointerProperty(type=CaudalSettings)


def unregister() -> None:
    del bpy.types.Object.caudal
    for c in reversed(classes):
        bpy.utils.unregister_class(c)
