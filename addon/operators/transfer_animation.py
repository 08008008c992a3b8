from __future__ import annotations

import bpy

from .. import transfer
from .common import ArmatureOperator


class CAUDAL_OT_transfer_animation(ArmatureOperator, bpy.types.Operator):
    """Solve the artist's action onto this armature so its own skinning reproduces the artist's surface"""

    bl_idname = "caudal.transfer_animation"
    bl_label = "Transfer Animation"

    def run(self, context, arm) -> str:
        r = transfer.transfer(arm, arm.caudal.source_armature, arm.caudal.source_action)
        return f"Transfer quality {100.0 * r.quality:.1f}% -> action '{r.action}'"
