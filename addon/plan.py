"""What Build Armature will write, computed before Blender data is touched:
fingers merged into the hands (caudal's ``merge_fingers``), tail chains
grown (caudal's ``grow_chains``), the new weights and the rows they change,
and where each new bone's tail goes. bpy-free."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from . import rig_edit
from .rig_table import RigTable

# Rows whose weights moved less than this are left alone (float32 noise of
# the normalisation round trip is ~1e-7).
WEIGHT_TOLERANCE = 1e-5
# A chain's end helper (weightless) is drawn this fraction of its parent bone long.
END_BONE_FRACTION = 0.25


@dataclass
class BuildPlan:
    names: list[str]  # all joints after the build (old ones first)
    parents: np.ndarray
    bind_core: np.ndarray
    dense: np.ndarray  # (N, len(names))
    rows: np.ndarray  # vertices whose weights change
    new_joints: list[int]
    removed: list[str]  # finger bones merged into the hands
    report: dict | None
    warnings: list[str] = field(default_factory=list)
    hand_of: dict[str, str] = field(default_factory=dict)  # finger bone -> hand bone


def grow_chains(rig, pelvis: str | None = None):
    """``caudal.grow_chains``: (new rig, report dict); ``pelvis`` names the
    pelvis bone (None: found from the skeleton's structure)."""
    import caudal

    return caudal.grow_chains(rig, pelvis=pelvis)


def plan(
    table: RigTable, use_tail: bool, use_fingers: bool, grow=None, pelvis: str | None = None
) -> BuildPlan:
    """The build of ``table``: fingers kept or merged, tails grown or not
    (by ``grow``, a test's stand-in, else caudal's, from ``pelvis`` when the
    artist named it)."""
    import caudal

    rig = table.to_rig()
    hand_of: dict[str, str] = {}
    dense = table.dense
    if not use_fingers:
        rig, merges = caudal.merge_fingers(rig)
        hand_of = dict(merges)
        if merges:
            dense = rig_edit.dense_weights(rig.skin_joints, rig.skin_weights, rig.joint_count)
    names, parents, bind = list(table.joint_names), table.parents, table.bind_core
    report = None
    if use_tail:
        new_rig, report = grow(rig) if grow is not None else grow_chains(rig, pelvis)
        names = list(new_rig.joint_names)
        if names[: len(table.joint_names)] != table.joint_names:
            raise RuntimeError("caudal reordered the joints; refusing to write the result")
        parents = np.asarray(new_rig.parents)
        bind = np.asarray(new_rig.bind_matrices, dtype=np.float64)
        dense = rig_edit.dense_weights(
            np.asarray(new_rig.skin_joints), np.asarray(new_rig.skin_weights), len(names)
        )
    return BuildPlan(
        names=names,
        parents=parents,
        bind_core=bind,
        dense=dense,
        rows=rig_edit.changed_rows(table.dense, dense, WEIGHT_TOLERANCE),
        new_joints=list(range(len(table.joint_names), len(names))),
        removed=list(hand_of),
        hand_of=hand_of,
        report=report,
        warnings=list(table.warnings),
    )


def bone_tail(
    heads: np.ndarray, j: int, parent: int, children: list[int], min_length: float
) -> np.ndarray:
    """Where a new bone's tail goes: its first child's head, or (the
    weightless end helper) on along its parent's direction. Never shorter
    than ``min_length``: Blender deletes zero-length bones."""
    head = heads[j]
    if children:
        d = heads[children[0]] - head
    elif parent >= 0:
        d = (head - heads[parent]) * END_BONE_FRACTION
    else:
        d = np.array([0.0, 0.0, 1.0])
    n = float(np.linalg.norm(d))
    if n < min_length:
        d = (d / n if n > 0 else np.array([0.0, 0.0, 1.0])) * min_length
    return head + d
