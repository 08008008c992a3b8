# Hand-written stub of the native module; checked by `python -m mypy.stubtest caudal._core`.
from collections.abc import Iterator
from os import PathLike
from typing import Any, Unpack, final

import numpy as np
import numpy.typing as npt

from caudal.dicts import (
    AppendageReport,
    BakeSummary,
    DetectParams,
    GrowParams,
    RoleOverrides,
    Roles,
    SpringParams,
    TailChainNames,
    Track,
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
    @property
    def vertices(self) -> _F32: ...
    @property
    def triangles(self) -> _U32: ...
    @property
    def skin_joints(self) -> _U32: ...
    @property
    def skin_weights(self) -> _F32: ...
    def influences(self) -> tuple[_U32, _U32, _F32]: ...
    @property
    def joint_names(self) -> list[str]: ...
    @property
    def parents(self) -> _I32: ...
    @property
    def bind_matrices(self) -> _F32: ...
    @property
    def inverse_bind_matrices(self) -> _F32: ...
    @property
    def rest_translations(self) -> _F32: ...
    @property
    def rest_rotations(self) -> _F32: ...
    @property
    def rest_scales(self) -> _F32: ...
    @property
    def vertex_count(self) -> int: ...
    @property
    def joint_count(self) -> int: ...
    @property
    def height(self) -> float: ...
    @property
    def diagonal(self) -> float: ...
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
    @property
    def name(self) -> str: ...
    @property
    def rate(self) -> float: ...
    @property
    def duration(self) -> float: ...
    @property
    def frame_count(self) -> int: ...
    @property
    def joint_count(self) -> int: ...
    @property
    def times(self) -> _F32: ...
    @property
    def translations(self) -> _F32: ...
    @property
    def rotations(self) -> _F32: ...
    @property
    def scales(self) -> _F32: ...
    def for_rig(self, rig: Rig) -> Clip: ...

@final
class Character:
    @property
    def index(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def rig(self) -> Rig: ...
    @property
    def height(self) -> float: ...
    @property
    def skins(self) -> list[int]: ...
    @property
    def joint_nodes(self) -> list[int]: ...
    def primitives(self) -> list[dict[str, Any]]: ...
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
class Model:
    @property
    def rig(self) -> Rig: ...
    @property
    def characters(self) -> list[Character]: ...
    @property
    def warnings(self) -> list[str]: ...
    @property
    def node_names(self) -> list[str]: ...
    @property
    def path(self) -> str: ...
    @property
    def generator(self) -> str | None: ...
    @property
    def clip_names(self) -> list[str]: ...
    def animations(self) -> list[dict[str, Any]]: ...
    def primitives(self) -> list[dict[str, Any]]: ...
    def skins(self) -> list[dict[str, Any]]: ...
    @property
    def joint_nodes(self) -> list[int]: ...
    @property
    def bind_from_file(self) -> _F32: ...
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
def generated_creature(
    seed: int, force: str | None = None
) -> tuple[bytes, bytes, dict[str, Any]]: ...
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
    @property
    def joints(self) -> list[str]: ...
    @property
    def end(self) -> str | None: ...
    @property
    def parent(self) -> str: ...
    @property
    def rotations(self) -> _F32: ...
    @property
    def rest_rotations(self) -> _F32: ...
    @property
    def particles(self) -> _F32: ...
    @property
    def velocities(self) -> _F32: ...
    @property
    def bends(self) -> _F32: ...
    @property
    def grounded(self) -> list[bool]: ...
    @property
    def frequencies(self) -> _F32: ...
    @property
    def lengths(self) -> _F32: ...
    @property
    def units_per_metre(self) -> float: ...
    @property
    def teleports(self) -> int: ...
    @property
    def bend_capacity(self) -> float: ...
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
    @property
    def name(self) -> str: ...
    @property
    def bones(self) -> list[str]: ...
    @property
    def times(self) -> _F32: ...
    @property
    def rotations(self) -> _F32: ...
    @property
    def looping(self) -> bool: ...
    def summary(self) -> BakeSummary: ...
    def tracks(self, animation: str | None = None) -> list[Track]: ...

@final
class Bake:
    @property
    def clips(self) -> list[BakedClip]: ...
    @property
    def rig(self) -> Rig: ...
    @property
    def appendages(self) -> AppendageReport | None: ...
    def tracks(self) -> list[Track]: ...
    @property
    def character(self) -> int: ...
    def write(self, path: str | PathLike[str], gltf_json: bool | None = None) -> None: ...

def bake(
    model: Model | Character,
    rig: Rig | None = None,
    clips: list[str] | None = None,
    *,
    chains: list[list[str]] | None = None,
    rate: float | None = None,
    loops: dict[str, str | bool] | None = None,
    default_loop: str | bool | None = None,
    state_tolerance_deg: float | None = None,
    max_warmup_passes: int | None = None,
    max_settle: float | None = None,
    settle_chunk: float | None = None,
    loop_pose_angle_deg: float | None = None,
    loop_pose_distance_ratio: float | None = None,
    spring: SpringParams | None = None,
) -> Bake: ...
def bake_clip(
    rig: Rig,
    clip: Clip,
    chain: list[str] | list[int] | None = None,
    *,
    loop: str | bool | None = None,
    state_tolerance_deg: float | None = None,
    max_warmup_passes: int | None = None,
    max_settle: float | None = None,
    settle_chunk: float | None = None,
    loop_pose_angle_deg: float | None = None,
    loop_pose_distance_ratio: float | None = None,
    spring: SpringParams | None = None,
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
) -> dict[str, Any]: ...
def stretch_table(
    model: Model | Character,
    clips: list[str] | None = None,
    *,
    samples: int | None = None,
    rate: float | None = None,
    spring: SpringParams | None = None,
    ratios: bool = False,
    truth: _ArrayLike | None = None,
) -> list[dict[str, Any]]: ...
def crouch_stretch(
    model: Model | Character,
    *,
    truth: _ArrayLike | None = None,
    rate: float | None = None,
    spring: SpringParams | None = None,
    ratios: bool = False,
) -> dict[str, Any]: ...
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
) -> dict[str, Any]: ...
def crouch_clip(rig: Rig, depth: float, *, duration: float = 1.5, rate: float = 30.0) -> Clip: ...

# Appendages and tail chains (SPEC T1-T10): reports are dicts (the JSON of
# `caudal tail --report`), each part with its `vertices` (u32 indices).
def find_appendages(rig: Rig, **params: Unpack[DetectParams]) -> AppendageReport: ...
def grow_chains(rig: Rig, **params: Unpack[GrowParams]) -> tuple[Rig, AppendageReport]: ...
def weighted_bone_distance(rig: Rig, vertices: Any = None, *, per_vertex: bool = False) -> Any: ...
def merge_fingers(rig: Rig) -> tuple[Rig, list[tuple[str, str]]]: ...

# --- surface solve (SPEC X): src/python/solve.rs ---
@final
class Solved:
    @property
    def clip(self) -> Clip: ...
    @property
    def skinning(self) -> npt.NDArray[np.float64]: ...
    @property
    def times(self) -> _F32: ...
    @property
    def report(self) -> dict[str, Any] | None: ...
    def __iter__(self) -> Iterator[Any]: ...
    def __len__(self) -> int: ...

def solve_surface(
    target_rig: Rig,
    surfaces: _ArrayLike,
    *,
    name: str = "solved",
    rate: float = 24.0,
    times: _ArrayLike | None = None,
    mode: str = "rigid",
    report: str = "full",
    constraint_budget: int = 5000,
    max_sweeps: int = 200,
    progress_tolerance: float = 1e-9,
    error_floor: float | None = None,
    affine_seed: bool = True,
) -> Solved: ...
def transfer_clip(
    source_rig: Rig,
    clip: Clip,
    target_rig: Rig,
    *,
    mode: str = "rigid",
    report: str = "full",
    alignment: str = "auto",
    max_median_gap: float = 0.01,
    constraint_budget: int = 5000,
    max_sweeps: int = 200,
    progress_tolerance: float = 1e-9,
    error_floor: float | None = None,
    affine_seed: bool = True,
) -> Solved: ...
def transfer_quality(
    rig: Rig, skinned: _ArrayLike, targets: _ArrayLike, vertices: _ArrayLike | None = None
) -> float: ...
def clip_tracks(
    model: Model | Character, clip: Clip, animation: str | None = None, rig: Rig | None = None
) -> list[Track]: ...
