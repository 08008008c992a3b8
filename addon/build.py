"""Build Armature: read the rig table, let caudal fix it (``plan``), write
the result back. The writes are ordered so each step can be taken back, and
a failure takes them back.
"""

from __future__ import annotations

import bpy
import numpy as np

from . import bpy_arrays, card, plan
from .plan import BuildPlan
from .rig_table import RigTable

# Shortest bone drawn, as a fraction of the skeleton's extent.
MIN_BONE_FRACTION = 1e-3


class _EditMode:
    """Edit mode on the armature, then back to the mode, active object and
    selection the user had."""

    def __init__(self, arm):
        self.arm = arm

    def __enter__(self):
        ctx = bpy.context
        self.active = ctx.view_layer.objects.active
        self.mode = self.arm.mode
        self.selected = [o for o in ctx.view_layer.objects if o.select_get()]
        if ctx.object is not None and ctx.object.mode != "OBJECT":
            bpy.ops.object.mode_set(mode="OBJECT")
        ctx.view_layer.objects.active = self.arm
        bpy.ops.object.mode_set(mode="EDIT")
        return self.arm.data.edit_bones

    def __exit__(self, *exc):
        bpy.ops.object.mode_set(mode="OBJECT")
        ctx = bpy.context
        for o in ctx.view_layer.objects:
            o.select_set(o in self.selected)
        ctx.view_layer.objects.active = self.active
        if self.active is self.arm and self.mode in {"POSE", "EDIT"}:
            bpy.ops.object.mode_set(mode=self.mode)
        return False


def _add_bones(arm, p: BuildPlan, made: list[str]) -> None:
    frames = bpy_arrays.bone_frames_from_core(arm, p.bind_core)
    heads = frames[:, :3, 3]
    extent = float(np.ptp(heads, axis=0).max()) if len(heads) > 1 else 1.0
    min_length = MIN_BONE_FRACTION * max(extent, 1e-6)
    with _EditMode(arm) as ebs:
        for j in p.new_joints:
            eb = ebs.new(p.names[j])
            made.append(eb.name)
            if eb.name != p.names[j]:
                raise RuntimeError(f"a bone named '{p.names[j]}' already exists")
            parent = int(p.parents[j])
            children = [c for c in p.new_joints if int(p.parents[c]) == j]
            eb.head = heads[j].tolist()
            eb.tail = plan.bone_tail(heads, j, parent, children, min_length).tolist()
            if parent >= 0:
                eb.parent = ebs[p.names[parent]]
                # Side axis of the new bones follows the pelvis' so the chain
                # bends about the same axes an animator sees on the hips.
                root = parent
                while root in p.new_joints:
                    root = int(p.parents[root])
                eb.align_roll(ebs[p.names[root]].z_axis)
            eb.use_connect = False
            eb.use_deform = True


def _children_of(arm, bones: list[str]) -> list[tuple]:
    """Objects parented to these bones (rigid props, bone-tip empties), with
    their world matrices, before the bones go."""
    names = set(bones)
    return [
        (o, o.parent_bone, o.matrix_world.copy())
        for o in bpy.data.objects
        if o.parent == arm and o.parent_type == "BONE" and o.parent_bone in names
    ]


def _reparent(moved: list[tuple], bone_for: dict[str, str]) -> None:
    """Objects that hung from a merged finger hang from its hand, where they
    were (``bone_for`` maps old to new bone; identity takes them back)."""
    if not moved:
        return
    for o, bone, _ in moved:
        o.parent_bone = bone_for.get(bone, bone)
    bpy.context.view_layer.update()
    for o, _, world in moved:
        o.matrix_world = world


def _remove_bones(arm, names: list[str]) -> None:
    if not names:
        return
    with _EditMode(arm) as ebs:
        for n in names:
            eb = ebs.get(n)
            if eb is not None:
                ebs.remove(eb)


def apply(arm, table: RigTable, p: BuildPlan) -> None:
    """Writes the plan; on any failure the armature and meshes are put back."""
    made: list[str] = []
    moved: list[tuple] = []
    groups_before = {
        sl.name: {g.name for g in bpy.data.objects[sl.name].vertex_groups} for sl in table.meshes
    }
    try:
        _add_bones(arm, p, made)
        bpy_arrays.write_weights(table, p.names, p.dense, p.rows)
        bpy_arrays.remove_groups(table, p.removed)
        moved = _children_of(arm, p.removed)
        _reparent(moved, p.hand_of)  # while the fingers still exist
        _remove_bones(arm, p.removed)
    except BaseException:
        _remove_bones(arm, made)
        _reparent([m for m in moved if m[1] in arm.data.bones], {})
        for sl in table.meshes:
            obj = bpy.data.objects[sl.name]
            for g in list(obj.vertex_groups):
                if g.name not in groups_before[sl.name]:
                    obj.vertex_groups.remove(g)
        bpy_arrays.write_weights(table, table.joint_names, table.dense, p.rows)
        raise
    arm.data.update_tag()
    for sl in table.meshes:
        bpy.data.objects[sl.name].data.update()


def store_card(settings, p: BuildPlan) -> None:
    settings.parts.clear()
    settings.warnings.clear()
    report = p.report or {"parts": [], "pelvis": "-"}
    for r in card.rows(report):
        item = settings.parts.add()
        item.kind, item.decision, item.attachment = r.kind, r.decision, r.attachment
        item.vertex_count, item.length, item.bone_count = r.vertex_count, r.length, r.bone_count
        item.bones = ", ".join(r.bones)
        item.distance_before = r.distance_before
        item.has_after = r.distance_after is not None
        item.distance_after = r.distance_after or 0.0
        item.reason = r.reason
    extra = list(p.warnings)
    if p.removed:
        extra.append(f"{len(p.removed)} finger bone(s) merged into the hands.")
    texts = card.warnings(report, extra) if p.report is not None else extra
    for t in texts:
        settings.warnings.add().text = t
    settings.card_title = (
        card.title(report)
        if p.report is not None
        else ("Fingers merged" if p.removed else "Nothing to change")
    )


def build_armature(
    arm, use_tail: bool, use_fingers: bool, grow=None, pelvis: str | None = None
) -> BuildPlan:
    table = bpy_arrays.read_rig(arm)
    p = plan.plan(table, use_tail, use_fingers, grow, pelvis)
    apply(arm, table, p)
    store_card(arm.caudal, p)
    return p
