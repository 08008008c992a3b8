"""The caudal panel, twice: in the 3D View sidebar (N panel, "caudal" tab)
and in the Armature properties. Both draw the same sections."""

from __future__ import annotations

import bpy

from . import spring_settings
from .operators.common import armature_of

# Drawn on one row after the sliders: the floor switch and its height.
FLOOR = ("ground", "floor_height")


def draw_rig(layout, arm) -> None:
    s = arm.caudal
    box = layout.box()
    box.label(text="Rig", icon="ARMATURE_DATA")
    row = box.row(align=True)
    row.prop(s, "use_fingers", toggle=False)
    row.prop(s, "use_tail", toggle=False)
    box.prop_search(s, "pelvis_bone", arm.data, "bones", icon="BONE_DATA")
    box.operator("caudal.build_armature", icon="BONE_DATA")


def draw_card(layout, arm) -> None:
    s = arm.caudal
    if not s.card_title and not s.parts and s.transfer_quality < 0 and not s.bake_report:
        return
    box = layout.box()
    if s.card_title:
        box.label(text=s.card_title, icon="INFO")
    for p in s.parts:
        col = box.column(align=True)
        col.label(
            text=f"{p.kind.capitalize()} at {p.attachment}: {p.decision}",
            icon="OUTLINER_OB_ARMATURE" if p.decision == "chain" else "MESH_DATA",
        )
        col.label(text=f"{p.vertex_count} vertices, length {p.length:.3g}, {p.bone_count} bones")
        after = f"{p.distance_after:.3g}" if p.has_after else "-"
        col.label(text=f"Bone distance {p.distance_before:.3g} -> {after}")
    for w in s.warnings:
        box.label(text=w.text, icon="ERROR")
    if s.bake_report:
        box.label(text=s.bake_report, icon="ACTION")
    if s.transfer_quality >= 0:
        box.label(
            text=f"Transfer quality {100.0 * s.transfer_quality:.1f}% ({s.transfer_action})",
            icon="MOD_DATA_TRANSFER",
        )


def draw_spring(layout, arm) -> None:
    s = arm.caudal
    box = layout.box()
    box.label(text="Tail Spring", icon="FORCE_HARMONIC")
    col = box.column(align=True)
    for name in spring_settings.NAMES:
        if name not in FLOOR:
            col.prop(s, name)
    row = box.row(align=True)
    row.prop(s, "ground")
    sub = row.row(align=True)
    sub.active = s.ground
    sub.prop(s, "floor_height", text="Height")
    box.prop(s, "live_preview", icon="PLAY")
    box.prop(s, "bake_actions")
    box.operator("caudal.bake_tail", icon="KEYINGSET")


def draw_transfer(layout, arm) -> None:
    s = arm.caudal
    box = layout.box()
    box.label(text="Transfer Animation", icon="MOD_DATA_TRANSFER")
    box.prop(s, "source_armature")
    box.prop(s, "source_action")
    box.operator("caudal.transfer_animation", icon="ACTION_TWEAK")
    box.prop(s, "show_heat_map")


def draw_all(layout, context) -> None:
    arm = armature_of(context)
    if arm is None:
        layout.label(text="Select a rigged character")
        return
    draw_rig(layout, arm)
    draw_card(layout, arm)
    draw_spring(layout, arm)
    draw_transfer(layout, arm)


class VIEW3D_PT_caudal(bpy.types.Panel):
    bl_label = "caudal"
    bl_space_type = "VIEW_3D"
    bl_region_type = "UI"
    bl_category = "caudal"

    def draw(self, context):
        draw_all(self.layout, context)


class DATA_PT_caudal(bpy.types.Panel):
    bl_label = "caudal"
    bl_space_type = "PROPERTIES"
    bl_region_type = "WINDOW"
    bl_context = "data"

    @classmethod
    def poll(cls, context):
        return context.object is not None and context.object.type == "ARMATURE"

    def draw(self, context):
        draw_all(self.layout, context)


classes = (VIEW3D_PT_caudal, DATA_PT_caudal)
