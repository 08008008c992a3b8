"""A rig as read from Blender: the arrays caudal takes, in core space, plus
where each mesh's vertices sit, so a result can be written back. bpy-free
(``bpy_arrays.read_rig`` fills it)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from . import rig_edit


@dataclass
class MeshSlice:
    """Where one mesh object's vertices sit in the rig table."""

    name: str
    start: int
    count: int


@dataclass
class RigTable:
    """A rig read from Blender: the arrays caudal takes plus the bookkeeping
    needed to write a result back."""

    armature: str
    joint_names: list[str]
    parents: np.ndarray  # int32 (J,)
    bind_core: np.ndarray  # (J, 4, 4) world bind in core space
    vertices_core: np.ndarray  # (N, 3)
    triangles: np.ndarray  # uint32 (M, 3)
    dense: np.ndarray  # (N, J) weights as read, normalised per vertex
    meshes: list[MeshSlice]
    unweighted: int = 0  # vertices with no deform weight (bound to the root)
    warnings: list[str] = field(default_factory=list)

    @property
    def vertex_count(self) -> int:
        return self.vertices_core.shape[0]

    def to_rig(self, dense: np.ndarray | None = None):
        import caudal

        d = self.dense if dense is None else dense
        rows, cols, w = rig_edit.sparse_of(d)
        sj, sw = rig_edit.padded_influences(rows, cols, w, self.vertex_count)
        return caudal.Rig(
            self.vertices_core.astype(np.float32),
            self.triangles,
            sj,
            sw,
            list(self.joint_names),
            self.parents,
            bind_matrices=self.bind_core.astype(np.float32),
            normalize=True,
        )
