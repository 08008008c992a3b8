from . import bake_tail, build_armature, transfer_animation

classes = (
    build_armature.CAUDAL_OT_build_armature,
    bake_tail.CAUDAL_OT_bake_tail,
    transfer_animation.CAUDAL_OT_transfer_animation,
)
