# Hand-written stub of the native module; checked by `python -m mypy.stubtest caudal._core`.
from collections.abc import Iterator
from os import PathLike
from typing import Any, Final, Literal, Unpack, final, overload

import numpy as np
import numpy.typing as npt

from caudal.dicts import (
    AnimationInfo,
    AppendageReport,
    BakeClipParams,
    BakeParams,
    BakeSummary,
    CorpusTruth,
    CrouchStretch,
    DetectParams,
    EdgeStretch,
    GrowParams,
    PelvisLift,
    Primitive,
    RoleOverrides,
    Roles,
    SkinInfo,
    SolveParams,
    SolveReport,
    SpringParams,
    StretchTableEntry,
    TailChainNames,
    Track,
    TransferParams,
)

__version__: str

class CaudalError(ValueError): ...
class RigError(CaudalError): ...
class UnknownJointError(CaudalError): ...
class ParameterError(CaudalError): ...
class GltfError(CaudalError): ...
class NotFoundError(CaudalError): ...

# Panics inside the FFI guard (the guard's own test): raises CaudalError.
def _selftest_panic(message: str) -> None: ...

_F32 = npt.NDArray[np.float32]
_U32 = npt.NDArray[np.uint32]
_I32 = npt.NDArray[np.int32]
_ArrayLike = npt.ArrayLike

@final
class Rig:
    def __new__(
        cls,
        vertices: _ArrayLike,
        triangles: _ArrayLike | None,
        skin_joints: _ArrayLike,
        skin_weights: _ArrayLike,
        joint_names: list[str],
        parents: _ArrayLike,
        *,
        bind_matrices: _ArrayLike | None = None,
        inverse_bind_matrices: _ArrayLike | None = None,
        rest_translations: _ArrayLike | None = None,
        rest_rotations: _ArrayLike | None = None,
        rest_scales: _ArrayLike | None = None,
        normalize: bool = False,
    ) -> Rig: ...
    vertices: Final[_F32]
    triangles: Final[_U32]
    skin_joints: Final[_U32]
    skin_weights: Final[_F32]
    def influences(self) -> tuple[_U32, _U32, _F32]: ...
    joint_names: Final[list[str]]
    parents: Final[_I32]
    bind_matrices: Final[_F32]
    inverse_bind_matrices: Final[_F32]
    rest_translations: Final[_F32]
    rest_rotations: Final[_F32]
    rest_scales: Final[_F32]
    vertex_count: Final[int]
    joint_count: Final[int]
    height: Final[float]
    diagonal: Final[float]
    def roles(self, overrides: RoleOverrides | None = None) -> Roles: ...

@final
class Clip:
    def __new__(
        cls,
        name: str,
        rate: float,
        translations: _ArrayLike,
        rotations: _ArrayLike,
        scales: _ArrayLike | None = None,
    ) -> Clip: ...
    name: Final[str]
    rate: Final[float]
    duration: Final[float]
    frame_count: Final[int]
    joint_count: Final[int]
    times: Final[_F32]
    translations: Final[_F32]
    rotations: Final[_F32]
    scales: Final[_F32]
    def for_rig(self, rig: Rig) -> Clip: ...

class _ClipSource:
    """What a Model and each of its Characters both give: a rig, the clips
    sampled for it, the mesh primitives (not a runtime class)."""

    rig: Final[Rig]
    joint_nodes: Final[list[int]]
    def primitives(self) -> list[Primitive]: ...
    def clip(
        self, name: str, rate: float | None = None, rig: Rig | None = None, *, keys: bool = False
    ) -> Clip: ...
    def clip_together(
        self,
        names: list[str] | None = None,
        rate: float | None = None,
        name: str | None = None,
        rig: Rig | None = None,
    ) -> Clip: ...

@final
class Character(_ClipSource):
    index: Final[int]
    name: Final[str]
    height: Final[float]
    skins: Final[list[int]]

@final
class Model(_ClipSource):
    characters: Final[list[Character]]
    warnings: Final[list[str]]
    node_names: Final[list[str]]
    path: Final[str]
    generator: Final[str | None]
    clip_names: Final[list[str]]
    def animations(self) -> list[AnimationInfo]: ...
    def skins(self) -> list[SkinInfo]: ...
    bind_from_file: Final[_F32]
    def write(
        self,
        path: str | PathLike[str],
        rig: Rig | None = None,
        tracks: list[Track] | list[dict[str, Any]] | None = None,
        gltf_json: bool | None = None,
        *,
        rigs: list[Rig | None] | None = None,
        sidecars: list[tuple[str | PathLike[str], bytes]] | None = None,
    ) -> None: ...

DEFAULT_MAX_BYTES: int

def load(path: str | PathLike[str], *, max_bytes: int | None = None) -> Model: ...
def load_bytes(
    data: bytes,
    base_dir: str | PathLike[str] | None = None,
    label: str | None = None,
    *,
    max_bytes: int | None = None,
) -> Model: ...
def write_atomic(path: str | PathLike[str], data: bytes) -> None: ...
def world_matrices_of(rig: Rig, clip: Clip) -> _F32: ...
def skin(
    rig: Rig, clip: Clip, frames: list[int] | None = None, *, max_bytes: int | None = None
) -> _F32: ...
def skin_bind_pose(rig: Rig) -> _F32: ...
def demo_creature_glb() -> bytes: ...
def demo_creature() -> Model: ...
def generated_creature(seed: int, force: str | None = None) -> tuple[bytes, bytes, CorpusTruth]: ...
def corpus_classes() -> list[str]: ...

# --- tail spring (SPEC S) -------------------------------------------------
# Physical lengths (gravity, floor_height, clearance, teleport_distance) are
# metres of a character: scaled by model height / 1.91 m unless
# units_per_metre gives an absolute scale (1.0 = world units).

@final
class TailSpring:
    def __new__(
        cls,
        rig: Rig,
        chain: list[str] | list[int] | None = None,
        **params: Unpack[SpringParams],
    ) -> TailSpring: ...
    def step(self, parent_world: _ArrayLike, dt: float) -> _F32: ...
    def reset(self) -> None: ...
    def reset_to(self, parent_world: _ArrayLike) -> _F32: ...
    joints: Final[list[str]]
    end: Final[str | None]
    parent: Final[str]
    rotations: Final[_F32]
    rest_rotations: Final[_F32]
    particles: Final[_F32]
    velocities: Final[_F32]
    bends: Final[_F32]
    grounded: Final[list[bool]]
    frequencies: Final[_F32]
    lengths: Final[_F32]
    units_per_metre: Final[float]
    teleports: Final[int]
    bend_capacity: Final[float]
    def params(self) -> SpringParams: ...
    def __len__(self) -> int: ...

def step_springs(springs: list[TailSpring], parent_worlds: _ArrayLike, dt: float) -> _F32: ...
def spring_defaults() -> SpringParams: ...
def simulate(
    rig: Rig,
    clip: Clip,
    chain: list[str] | list[int] | None = None,
    **params: Unpack[SpringParams],
) -> _F32: ...

# --- bake (SPEC B) ---

@final
class BakedClip:
    name: Final[str]
    bones: Final[list[str]]
    times: Final[_F32]
    rotations: Final[_F32]
    looping: Final[bool]
    def summary(self) -> BakeSummary: ...
    def tracks(self, animation: str | None = None) -> list[Track]: ...

@final
class Bake:
    clips: Final[list[BakedClip]]
    rig: Final[Rig]
    appendages: Final[AppendageReport | None]
    def tracks(self) -> list[Track]: ...
    character: Final[int]
    def write(self, path: str | PathLike[str], gltf_json: bool | None = None) -> None: ...

def bake(
    model: Model | Character,
    rig: Rig | None = None,
    clips: list[str] | None = None,
    *,
    chains: list[list[str]] | None = None,
    **params: Unpack[BakeParams],
) -> Bake: ...
def bake_clip(
    rig: Rig,
    clip: Clip,
    chain: list[str] | list[int] | None = None,
    *,
    loop: str | bool | None = None,
    **params: Unpack[BakeClipParams],
) -> BakedClip: ...
def tail_chains(rig: Rig) -> list[TailChainNames]: ...

# --- measure (SPEC M1, G) ---

def edge_stretch(
    rig: Rig,
    clip: Clip,
    tail_vertices: _ArrayLike,
    *,
    anchor: str | None = None,
    reference: Clip | None = None,
    samples: int | None = None,
) -> EdgeStretch: ...
def stretch_table(
    model: Model | Character,
    clips: list[str] | None = None,
    *,
    samples: int | None = None,
    rate: float | None = None,
    spring: SpringParams | None = None,
    ratios: bool = False,
    truth: _ArrayLike | None = None,
    grow: GrowParams | None = None,
) -> list[StretchTableEntry]: ...
def crouch_stretch(
    model: Model | Character,
    *,
    truth: _ArrayLike | None = None,
    rate: float | None = None,
    spring: SpringParams | None = None,
    ratios: bool = False,
    grow: GrowParams | None = None,
) -> CrouchStretch: ...
def body_floor(
    rig: Rig,
    *,
    exclude_tail: bool = True,
    tail_joints: list[str] | None = None,
    tail_vertices: _ArrayLike | None = None,
    calibration: Clip | None = None,
    up: _ArrayLike | None = None,
) -> float: ...
def placement_offset(
    rig: Rig,
    clip: Clip,
    *,
    frame: int = 0,
    floor: float = 0.0,
    exclude_tail: bool = True,
    tail_joints: list[str] | None = None,
    tail_vertices: _ArrayLike | None = None,
    up: _ArrayLike | None = None,
) -> float: ...
def pelvis_lift(
    rig: Rig,
    clip: Clip,
    *,
    pelvis: str | None = None,
    exclude_tail: bool = True,
    tail_joints: list[str] | None = None,
    tail_vertices: _ArrayLike | None = None,
    contact_joints: list[str] | None = None,
    contact_vertices: _ArrayLike | None = None,
    allowed_sink: _ArrayLike | None = None,
    calibration: Clip | None = None,
    up: _ArrayLike | None = None,
) -> PelvisLift: ...
def crouch_clip(
    rig: Rig,
    depth: float,
    *,
    duration: float = 1.5,
    rate: float = 30.0,
    up: _ArrayLike | None = None,
    forward: _ArrayLike | None = None,
) -> Clip: ...

# Appendages and tail chains (SPEC T1-T10): reports are dicts (the JSON of
# `caudal tail --report`), each part with its `vertices` (u32 indices).
def find_appendages(rig: Rig, **params: Unpack[DetectParams]) -> AppendageReport: ...
def grow_chains(rig: Rig, **params: Unpack[GrowParams]) -> tuple[Rig, AppendageReport]: ...
@overload
def weighted_bone_distance(
    rig: Rig, vertices: _ArrayLike | None = None, *, per_vertex: Literal[False] = False
) -> float: ...
@overload
def weighted_bone_distance(
    rig: Rig, vertices: _ArrayLike | None = None, *, per_vertex: Literal[True]
) -> _F32: ...
def merge_fingers(rig: Rig) -> tuple[Rig, list[tuple[str, str]]]: ...

# --- surface solve (SPEC X): src/python/solve.rs ---
@final
class Solved:
    clip: Final[Clip]
    skinning: Final[npt.NDArray[np.float64]]
    times: Final[_F32]
    report: Final[SolveReport | None]
    def __iter__(self) -> Iterator[Any]: ...
    def __len__(self) -> int: ...

def solve_surface(
    target_rig: Rig,
    surfaces: _ArrayLike,
    *,
    name: str = "solved",
    rate: float = 24.0,
    times: _ArrayLike | None = None,
    **params: Unpack[SolveParams],
) -> Solved: ...
def transfer_clip(
    source_rig: Rig, clip: Clip, target_rig: Rig, **params: Unpack[TransferParams]
) -> Solved: ...
def transfer_quality(
    rig: Rig, skinned: _ArrayLike, targets: _ArrayLike, vertices: _ArrayLike | None = None
) -> float: ...
def clip_tracks(
    model: Model | Character, clip: Clip, animation: str | None = None, rig: Rig | None = None
) -> list[Track]: ...
