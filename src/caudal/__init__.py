"""caudal: gives tails the bones auto-riggers forgot, and carries artists'
animation onto any auto-rig.

The numerics live in the Rust core (``caudal._core``); this package re-exports
it with a few thin helpers. Arrays go in and come out as numpy.
"""

from __future__ import annotations

from caudal._core import (
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
    clip_tracks,
    demo_creature,
    demo_creature_glb,
    find_appendages,
    grow_chains,
    load,
    load_bytes,
    simulate,
    skin,
    skin_bind_pose,
    step_springs,
    solve_surface,
    transfer_clip,
    transfer_quality,
    weighted_bone_distance,
    world_matrices_of,
)

__all__ = [
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
    "clip_tracks",
    "demo_creature",
    "demo_creature_glb",
    "find_appendages",
    "grow_chains",
    "load",
    "load_bytes",
    "simulate",
    "skin",
    "skin_bind_pose",
    "step_springs",
    "solve_surface",
    "transfer_clip",
    "transfer_quality",
    "weighted_bone_distance",
    "world_matrices_of",
]
