from __future__ import annotations

import bpy

from .. import build
from .common import ArmatureOperator, armature_of, message


class CAUDAL_OT_build_armature(ArmatureOperator, bpy.types.Operator):
    """Grow tail bones (and merge fingers if asked) on the selected rigged character"""

    bl_idname = "caudal.build_armature"
    bl_label = "Build Armature"

    def execute(self, context):
        arm = armature_of(context)
        s = arm.caudal
        try:
            p = build.build_armature(arm, s.use_tail, s.use_fingers)
        except Exception as e:  # the character is untouched: build.apply rolled back
            self.report({"ERROR"}, message(e))
            return {"CANCELLED"}
        self.report(
            {"INFO"},
            f"caudal: {s.card_title}; {len(p.new_joints)} bone(s) added, {len(p.rows)} vertices reweighted",
        )
        return {"FINISHED"}
