"""caudal: gives tails the bones auto-riggers forgot, and carries artists'
animation onto any auto-rig.

The numerics live in the Rust core (``caudal._core``); this package re-exports
it with a few thin helpers. Arrays go in and come out as numpy.
"""

from __future__ import annotations

from caudal._core import (
    Bake,
    BakedClip,
    CaudalError,
    Clip,
    GltfError,
    Model,
    NotFoundError,
    ParameterError,
    Rig,
    RigError,
    TailSpring,
    UnknownJointError,
    __version__,
    bake,
    body_floor,
    crouch_clip,
    demo_creature,
    demo_creature_glb,
    edge_stretch,
    load,
    load_bytes,
    pelvis_lift,
    placement_offset,
    simulate,
    skin,
    skin_bind_pose,
    step_springs,
    stretch_table,
    tail_chains,
    world_matrices_of,
)

__all__ = [
    "Bake",
    "BakedClip",
    "CaudalError",
    "Clip",
    "GltfError",
    "Model",
    "NotFoundError",
    "ParameterError",
    "Rig",
    "RigError",
    "TailSpring",
    "UnknownJointError",
    "__version__",
    "bake",
    "body_floor",
    "crouch_clip",
    "demo_creature",
    "demo_creature_glb",
    "edge_stretch",
    "load",
    "load_bytes",
    "pelvis_lift",
    "placement_offset",
    "simulate",
    "skin",
    "skin_bind_pose",
    "step_springs",
    "stretch_table",
    "tail_chains",
    "world_matrices_of",
]
