"""Transfer Animation (SPEC X): the artist's action, played on the artist's
armature and mesh, solved onto the target armature by caudal's surface
solver. The solved clip becomes a new action on the target; the transfer
quality goes on the card and the per-vertex motion error of the worst
frame (colours from caudal's heat scale: blue 0, red 3% of the diagonal)
becomes the ``caudal_error`` colour attribute; the rest-pose gap between the
two meshes (same scale) is its own layer, ``caudal_gap``."""

from __future__ import annotations

from dataclasses import dataclass

import bpy
import numpy as np

from . import bpy_arrays, heatmap


@dataclass
class TransferResult:
    action: str
    quality: float
    report: dict


def transfer(target, source, action, frame_rate: float | None = None) -> TransferResult:
    """Computes everything, then writes the action and the heat map."""
    import caudal

    if source is None or source.type != "ARMATURE":
        raise ValueError("choose the artist's armature as Source")
    if action is None:
        raise ValueError("choose the artist's action to transfer")
    if source == target:
        raise ValueError("source and target are the same armature")
    scene = bpy.context.scene
    fps = scene.render.fps / scene.render.fps_base if frame_rate is None else frame_rate
    src_table = bpy_arrays.read_rig(source)
    src_rig = src_table.to_rig()
    tgt_table = bpy_arrays.read_rig(target)
    tgt_rig = tgt_table.to_rig()
    frames = bpy_arrays.action_frames(action, fps)
    clip = bpy_arrays.sample_action(source, action, src_table, src_rig, frames, fps)
    solved, report = caudal.transfer_clip(src_rig, clip, tgt_rig)

    name = f"{action.name} ({target.name})"
    old = bpy.data.actions.get(name)
    if old is not None:
        bpy.data.actions.remove(old)
    new = bpy.data.actions.new(name)
    new.use_fake_user = True
    if target.animation_data is None:
        target.animation_data_create()
    target.animation_data.action = new
    bpy_arrays.write_clip(target, solved, tgt_rig, new, frame_start=float(action.frame_range[0]))
    colours = np.asarray(report["colours"])[int(report["worst_frame"])]
    active = heatmap.keep_active_colour(tgt_table)
    bpy_arrays.write_vertex_colours(tgt_table, heatmap.ATTRIBUTE, colours)
    bpy_arrays.write_vertex_colours(
        tgt_table, heatmap.GAP_ATTRIBUTE, np.asarray(report["correspondence"]["gap_colours"])
    )
    s = target.caudal
    if not s.show_heat_map:
        heatmap.restore_active_colour(active)
    s.transfer_quality = float(report["quality"])
    s.transfer_action = new.name
    if s.show_heat_map:
        heatmap.show(s, bpy.context)
    return TransferResult(new.name, float(report["quality"]), report)
