"""What every caudal operator shares: finding the armature and turning
caudal's errors into a report the artist reads."""

from __future__ import annotations


def armature_of(context):
    """The selected armature, or the armature deforming the selected mesh."""
    obj = context.object
    if obj is None:
        return None
    if obj.type == "ARMATURE":
        return obj
    if obj.type == "MESH":
        return obj.find_armature()
    return None


class ArmatureOperator:
    """Mixin for operators that act on the selected character's armature:
    one undo step, available only when there is one. ``run(context, arm)``
    does the work and returns the line for the status bar; an error is
    reported and cancels (every step computes before it writes, or takes
    its writes back)."""

    bl_options = {"REGISTER", "UNDO"}

    @classmethod
    def poll(cls, context):
        return armature_of(context) is not None

    def execute(self, context):
        try:
            text = self.run(context, armature_of(context))
        except Exception as e:
            self.report({"ERROR"}, message(e))
            return {"CANCELLED"}
        self.report({"INFO"}, text)
        return {"FINISHED"}


def message(e: BaseException) -> str:
    """One line for the status bar: caudal's messages already name the field."""
    text = str(e).strip() or type(e).__name__
    name = type(e).__name__
    return text if name in {"RuntimeError", "ValueError"} else f"{name}: {text}"
