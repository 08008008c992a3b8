"""The dicts caudal takes and returns, as TypedDicts: what a type checker
reads for ``caudal._core``'s keyword arguments and results (the core checks
the values and names at run time)."""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

import numpy as np
import numpy.typing as npt


class SpringParams(TypedDict, total=False):
    """The spring's keyword arguments: ``TailSpring(rig, **p)``,
    ``simulate(rig, clip, **p)``, ``bake(..., spring=p)``;
    ``TailSpring.params()`` returns every one. Physical lengths are metres
    of a character unless ``units_per_metre`` gives an absolute scale."""

    root_frequency: float
    tip_frequency_ratio: float
    damping_ratio: float
    gravity: float
    carry_deg: float
    forward_plane: bool
    coupling_rate: float
    stop_deg: float
    bend_capacity: float
    ground: bool
    floor_height: float
    clearance: float
    contact_damping: float
    rest_curve: float
    segment_reference: float
    substep_rate: float
    max_substeps: int
    teleport_distance: float
    units_per_metre: float | None
    forward: npt.ArrayLike
    up: npt.ArrayLike


class DetectParams(TypedDict, total=False):
    """Detection's keyword arguments: ``find_appendages(rig, **p)``, and
    ``grow_chains`` with growth's own (``GrowParams``). Ratios are of the
    character's height or diagonal, as each constant's doc in
    ``src/appendage/params.rs`` says; None takes the default."""

    far_ratio: float | None
    leaf_stub_ratio: float | None
    weld_tolerance_ratio: float | None
    min_centroid_ratio: float | None
    min_elongation: float | None
    attachment_bias: float | None
    merge_overlap: float | None
    min_part_vertices: int | None
    min_protrusion_ratio: float | None
    min_tail_length_ratio: float | None
    min_slenderness: float | None
    min_tube_ratio: float | None
    broad: str | None  # "untouched" or "rigid"
    pelvis: str | None


class GrowParams(DetectParams, total=False):
    """``grow_chains(rig, **p)``: detection's keywords and growth's
    (``src/chain/params.rs``)."""

    rigid: bool | None
    segment_ratio: float | None
    min_bones: int | None
    max_bones: int | None
    smoothing_passes: int | None
    joint_blend: float | None
    segment_thickness: float | None
    handover_radii: float | None
    reserved_names: list[str] | None


class BakeClipParams(TypedDict, total=False):
    """``bake_clip(rig, clip, **p)``: warm-up, settling and loop detection
    (``src/bake/params.rs`` documents each); None takes the default."""

    state_tolerance_deg: float | None
    max_warmup_passes: int | None
    max_settle: float | None
    settle_chunk: float | None
    loop_pose_angle_deg: float | None
    loop_pose_distance_ratio: float | None
    spring: SpringParams | None


class BakeParams(BakeClipParams, total=False):
    """``bake(model, **p)``: ``bake_clip``'s keywords and the file-wide ones:
    the key rate, and the loop mode per clip and for the rest."""

    rate: float | None
    loops: dict[str, str | bool] | None
    default_loop: str | bool | None


class SolveParams(TypedDict, total=False):
    """``solve_surface(rig, surfaces, **p)``: the solver's settings
    (``src/solve/params.rs`` documents each and its default)."""

    mode: str  # "rigid" or "rotation_only"
    report: str  # "none", "summary" or "full"
    constraint_budget: int
    max_sweeps: int
    progress_tolerance: float
    error_floor: float | None
    proximal_weight: float
    affine_seed: bool
    seed_ridge: float


class TransferParams(SolveParams, total=False):
    """``transfer_clip(source, clip, target, **p)``: the solver's settings
    and how the two rest poses are aligned."""

    alignment: str  # "auto", "similarity", "bounds" or "none"
    max_median_gap: float


class TailChainNames(TypedDict):
    """One grown chain of a rig (``tail_chains``): its bones root first, the
    weightless end helper, the joint it hangs from."""

    bones: list[str]
    end: str | None
    anchor: str


class Track(TypedDict):
    """One animation track as ``Model.write(..., tracks=...)`` reads it."""

    animation: str
    character: NotRequired[int]
    joint: str
    path: Literal["rotation", "translation", "scale"]
    times: npt.NDArray[np.float32]
    values: npt.NDArray[np.float32]


class BakeSummary(TypedDict):
    """How one clip was baked (``BakedClip.summary()``): warm-up and loop
    closure figures; the seam's are None for a one-shot."""

    name: str
    frames: int
    duration: float
    looping: bool
    loop_detected: bool
    loop_pose_angle_deg: float
    root_travel: list[float]
    warmup_passes: int
    warmup_seconds: float
    warmup_residual_deg: float | None
    converged: bool
    seam_blend_deg: float
    bend_capacity: float
    closure_deg: float | None
    seam_step_deg: float | None
    median_step_deg: float | None
    seam_ratio: float | None


class PartTests(TypedDict):
    """The shape tests one part went through (SPEC T4): the centroid's
    share of its reach, covariance elongation, tube ratio, and the verdicts."""

    centroid_ratio: float
    centroid_passed: bool
    elongation: float
    elongation_passed: bool
    tube_ratio: float
    long: bool


class AppendagePart(TypedDict):
    """One part of an appendage report: what it is (``kind``), what was
    decided (``decision``, ``reason``), where it hangs, its size and tests,
    the bones grown for it; ``vertices`` its vertex indices (u32)."""

    index: int
    kind: str
    decision: str
    reason: str
    attachment: str | None
    attachment_joint: int | None
    region: str
    vertex_count: int
    welded_vertex_count: int
    collar_vertex_count: int
    shells: int
    length: float
    length_ratio: float
    reach: float
    collar_radius: float
    centroid: list[float]
    tests: PartTests
    bone_count: int
    bones: list[str]
    rigid_joint: str | None
    bone_distance_before: float
    bone_distance_after: float | None
    origin: str
    cut_level: float | None
    root_vertices: int
    contact_vertices: int
    rigger_signature: bool
    handover_vertices: int
    handover_width: float
    vertices: npt.NDArray[np.uint32]


class AppendageReport(TypedDict):
    """What ``find_appendages`` and ``grow_chains`` found (the JSON the CLI
    writes): the model's height H, the far threshold and weld tolerance in
    model units, vertex counts, the pelvis, every part found."""

    height: float
    far_threshold: float
    weld_tolerance: float
    vertex_count: int
    welded_vertex_count: int
    pelvis: str | None
    parts: list[AppendagePart]
    merged_fingers: NotRequired[list[dict[str, str]]]


class RoleSource(TypedDict):
    """Which joint plays a role and the rule that chose it (``override``,
    ``name``, ``topology``); ``overruled``: what a rule overruled."""

    role: str
    joint: str
    rule: Literal["override", "name", "topology"]
    detail: str
    overruled: str | None


class LimbPair(TypedDict):
    """A mirrored limb pair: ``legs`` or another ``pair``, the joint it
    branches from, each side's joint chain, how far from mirrored."""

    kind: Literal["legs", "pair"]
    junction: str
    chains: list[list[str]]
    mirror_error: float


class RoleOverrides(TypedDict, total=False):
    """``Rig.roles(overrides)``: joint names for the roles to impose."""

    pelvis: str
    spine: list[str]
    neck: str
    head: str
    thigh_l: str
    thigh_r: str
    shin_l: str
    shin_r: str


class Roles(TypedDict):
    """The roles of a rig's joints (``Rig.roles()``), by joint name: the
    pelvis, spine, neck, head, legs (left, right), every mirrored limb
    pair, the trunk, and the rule behind each role."""

    pelvis: str | None
    spine: list[str]
    neck: str | None
    head: str | None
    thighs: list[str | None]
    shins: list[str | None]
    sources: list[RoleSource]
    limbs: list[LimbPair]
    trunk: list[str]
