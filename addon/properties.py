"""Settings stored on the armature object as ``Object.caudal``.

Spring defaults are the article's (SPEC S1-S8, the constants in
``src/spring/params.rs``): root 0.9 Hz, tip at half of it, damping ratio
0.65, gravity 1 m/s², carry 50°, coupling 12 /s, elastic stop 30°, floor at
0 with contact on, restCurve 0 (centred arc); bend capacity 0.5 (caudal's, not
the article's: a stub's carry and stop shrink with its bones' length).
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

    # Spring (SPEC S1-S8)
    frequency: FloatProperty(
        name="Frequency",
        description="Root link frequency (the tip swings at half of it)",
        default=0.9,
        min=0.05,
        soft_max=5.0,
        unit="NONE",
        subtype="NONE",
        update=_live_changed,
    )
    damping: FloatProperty(
        name="Damping",
        description="Damping ratio ζ (1 = critically damped)",
        default=0.65,
        min=0.0,
        soft_max=2.0,
        update=_live_changed,
    )
    gravity: FloatProperty(
        name="Gravity",
        description="Downward pull in m/s² for a character of 1.91 m, scaled with the model's height (a tail has muscles: not 9.8)",
        default=1.0,
        min=0.0,
        soft_max=20.0,
        update=_live_changed,
    )
    carry: FloatProperty(
        name="Carry",
        description="Target elevation of the tail above straight down: a tail modelled lower is lifted about the hips' side axis, spread over its joints; a level or curled one is left as modelled",
        default=0.8726646,
        min=-3.14159265,
        max=3.14159265,
        subtype="ANGLE",
        update=_live_changed,
    )
    rest_curve: FloatProperty(
        name="Rest Curve",
        description="0 = centred rest arc, 1 = keep the modelled side curvature",
        default=0.0,
        min=0.0,
        max=1.0,
        subtype="FACTOR",
        update=_live_changed,
    )
    coupling: FloatProperty(
        name="Coupling",
        description="Bend coupling rate between neighbouring links, 1/s (0 = off)",
        default=12.0,
        min=0.0,
        soft_max=60.0,
        update=_live_changed,
    )
    bend_limit: FloatProperty(
        name="Bend Limit",
        description="Elastic stop: largest bend beyond the rest direction",
        default=0.5235988,
        min=0.01,
        max=3.14159265,
        subtype="ANGLE",
        update=_live_changed,
    )
    bend_capacity: FloatProperty(
        name="Bend Capacity",
        description="A tail whose bones are shorter than this many times its skin's thickness gets its carry and bend limit scaled down in proportion, so a stub does not tear (0 = off)",
        default=0.5,
        min=0.0,
        soft_max=2.0,
        update=_live_changed,
    )
    use_floor: BoolProperty(
        name="Floor",
        description="Ground contact: the tail slides on a horizontal floor",
        default=True,
        update=_live_changed,
    )
    floor_height: FloatProperty(
        name="Floor Height",
        description="Floor height in metres for a character of 1.91 m, scaled with the model's height",
        default=0.0,
        update=_live_changed,
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


classes = (CaudalPart, CaudalWarning, CaudalSettings)


def register() -> None:
    for c in classes:
        bpy.utils.register_class(c)
    bpy.types.Object.caudal = PointerProperty(type=CaudalSettings)


def unregister() -> None:
    del bpy.types.Object.caudal
    for c in reversed(classes):
        bpy.utils.unregister_class(c)
