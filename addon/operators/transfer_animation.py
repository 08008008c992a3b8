from __future__ import annotations

import bpy

from .. import transfer
from .common import ArmatureOperator, armature_of, message


class CAUDAL_OT_transfer_animation(ArmatureOperator, bpy.types.Operator):
    """Solve the artist's action onto this armature so its own skinning reproduces the artist's surface"""

    bl_idname = "caudal.transfer_animation"
    bl_label = "Transfer Animation"

    def execute(self, context):
        arm = armature_of(context)
        s = arm.caudal
        try:
            r = transfer.transfer(arm, s.source_armature, s.source_action)
        except Exception as e:
            self.report({"ERROR"}, message(e))
            return {"CANCELLED"}
        self.report({"INFO"}, f"Transfer quality {100.0 * r.quality:.1f}% -> action '{r.action}'")
        return {"FINISHED"}
