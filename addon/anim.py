"""Actions across Blender versions: 4.4+ (and 5.0, where ``Action.fcurves``
is gone) keep f-curves in a channelbag per slot; 4.2/4.3 keep them on the
action. Everything else in the add-on goes through these few functions.
Keys are written and read with foreach_set/foreach_get."""

from __future__ import annotations

import bpy
import numpy as np

SLOTTED = bpy.app.version >= (4, 4, 0)


def slot_for(obj, action):
    """The slot ``obj`` animates ``action`` through (None before 4.4): the
    assigned one, else the first object slot (created if there is none)."""
    if not SLOTTED:
        return None
    ad = obj.animation_data
    if ad is not None and ad.action == action and ad.action_slot is not None:
        return ad.action_slot
    for s in action.slots:
        if s.target_id_type == "OBJECT":
            return s
    return action.slots.new(id_type="OBJECT", name=obj.name)


def fcurves(action, slot, create: bool = False):
    """The f-curve collection of ``action`` for ``slot`` (or None)."""
    if not SLOTTED:
        return action.fcurves
    from bpy_extras import anim_utils

    if create:
        return anim_utils.action_ensure_channelbag_for_slot(action, slot).fcurves
    bag = anim_utils.action_get_channelbag_for_slot(action, slot)
    return None if bag is None else bag.fcurves


def find(curves, data_path: str, index: int):
    if curves is None:
        return None
    return curves.find(data_path, index=index)


def _new_curve(curves, data_path: str, index: int, group: str):
    if not SLOTTED:
        return curves.new(data_path, index=index, action_group=group)
    try:
        return curves.new(data_path, index=index, group_name=group)
    except TypeError:  # 4.4 channelbags took no group name
        return curves.new(data_path, index=index)


def write_curve(
    curves,
    data_path: str,
    index: int,
    frames: np.ndarray,
    values: np.ndarray,
    group: str | None = None,
):
    """Replaces one f-curve's keys with (frames, values), linear."""
    fc = curves.find(data_path, index=index)
    if fc is not None:
        curves.remove(fc)
    fc = _new_curve(curves, data_path, index, group or "")
    n = len(frames)
    fc.keyframe_points.add(n)
    co = np.empty(2 * n, dtype=np.float32)
    co[0::2] = frames
    co[1::2] = values
    fc.keyframe_points.foreach_set("co", co)
    linear = bpy.types.Keyframe.bl_rna.properties["interpolation"].enum_items["LINEAR"].value
    fc.keyframe_points.foreach_set("interpolation", np.full(n, linear, dtype=np.int32))
    fc.update()
    return fc


def read_curve(fc) -> tuple[np.ndarray, np.ndarray]:
    n = len(fc.keyframe_points)
    co = np.empty(2 * n, dtype=np.float32)
    fc.keyframe_points.foreach_get("co", co)
    return co[0::2].copy(), co[1::2].copy()


def sample(fc, frames: np.ndarray, default: float) -> np.ndarray:
    """An f-curve evaluated at the given frames (its own interpolation and
    modifiers); ``default`` when the channel is not animated."""
    if fc is None:
        return np.full(len(frames), default, dtype=np.float64)
    return np.array([fc.evaluate(float(f)) for f in frames], dtype=np.float64)
