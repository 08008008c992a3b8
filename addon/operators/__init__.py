from . import build_armature

classes = (build_armature.CAUDAL_OT_build_armature,)
