from __future__ import annotations

import bpy

from .. import build
from .common import ArmatureOperator


class CAUDAL_OT_build_armature(ArmatureOperator, bpy.types.Operator):
    """Grow tail bones (and merge fingers if asked) on the selected rigged character"""

    bl_idname = "caudal.build_armature"
    bl_label = "Build Armature"

    def run(self, context, arm) -> str:
        s = arm.caudal
        p = build.build_armature(arm, s.use_tail, s.use_fingers, pelvis=s.pelvis_bone or None)
        return f"caudal: {s.card_title}; {len(p.new_joints)} bone(s) added, {len(p.rows)} vertices reweighted"
