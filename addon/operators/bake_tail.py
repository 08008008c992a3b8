from __future__ import annotations

import bpy

from .. import bake
from .common import ArmatureOperator


def summary(results: list[bake.BakeResult]) -> str:
    """One line for the card: loop closure, stretch beside the swing."""
    worst = max(r.closure_deg for r in results)
    p99 = max(r.stretch["tail"]["p99"] for r in results)
    body = max(r.stretch["body"]["p99"] for r in results)
    swing = min(r.stretch["motion"]["amplitude_deg"] for r in results)
    seams = [r.stretch["collar"] for r in results if r.stretch["collar"]["samples"] > 0]
    collar = f", collar p99 {max(c['p99'] for c in seams):.2f}" if seams else ""
    text = (
        f"Baked {len(results)} action(s), {len(results[0].bones)} tail bones; loop closure within {worst:.2f}°; "
        f"tail stretch p99 {p99:.2f} (body {body:.2f}{collar}), swing {swing:.1f}°"
    )
    capacity = results[0].bend_capacity
    if capacity < 1.0:
        text += f"; bend capacity {capacity:.2f} (short bones for the tail's thickness: carry and limit scaled)"
    return text


class CAUDAL_OT_bake_tail(ArmatureOperator, bpy.types.Operator):
    """Simulate the tail spring over the chosen actions and write loop-closed keys into them"""

    bl_idname = "caudal.bake_tail"
    bl_label = "Bake Tail"

    def run(self, context, arm) -> str:
        s = arm.caudal
        wm = context.window_manager
        actions = bake.chosen_actions(arm, s.bake_actions)
        wm.progress_begin(0, len(actions))
        try:
            results = bake.bake_actions(arm, actions, s, progress=wm.progress_update)
        finally:
            wm.progress_end()
        s.bake_report = summary(results)
        for r in results:
            if r.looping and not r.converged:
                self.report(
                    {"WARNING"},
                    f"{r.action}: the tail's motion never repeated in {r.passes} passes; "
                    f"its cycle was blended shut ({r.seam_blend_deg:.2f}° spread over the clip)",
                )
        return s.bake_report
