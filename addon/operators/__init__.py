from . import bake_tail, build_armature

classes = (build_armature.CAUDAL_OT_build_armature, bake_tail.CAUDAL_OT_bake_tail)
