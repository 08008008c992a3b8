"""The dicts caudal takes and returns, as TypedDicts: what a type checker
reads for ``caudal._core``'s keyword arguments and results (the core checks
the values and names at run time)."""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

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
    forward: npt.ArrayLike | None
    up: npt.ArrayLike
    roles: RoleOverrides


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
    min_stub_reach: float | None
    min_stub_standoff: float | None
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
    facing: list[float] | None  # the horizontal axis the skeleton faces, [x, y, z]


# --- files (Model) ---


class Primitive(TypedDict):
    """One mesh primitive of a file (``Model.primitives()``): where its
    vertices sit in the character's rig and in the file."""

    character: int
    mesh: int
    primitive: int
    node: int
    skin: int | None
    rigid_joint: int | None
    vertex_offset: int
    file_vertex_offset: int
    vertex_count: int
    max_influences: int


class AnimationInfo(TypedDict):
    """One animation of a file (``Model.animations()``)."""

    index: int
    name: str
    duration: float
    channels: int
    paths: list[str]
    joints: list[str]


class SkinInfo(TypedDict):
    """One skin of a file (``Model.skins()``): its joints (node indices) and
    the character it belongs to."""

    index: int
    name: str | None
    character: int
    joints: list[int]


class CorpusTruth(TypedDict):
    """The truth of a generated creature (``generated_creature``; format
    "caudal corpus truth v1"): what was generated and the answers a
    detection must find, per character (docs/appendage.md)."""

    format: str
    seed: int
    forced: str | None
    classes: list[str]
    units_per_metre: float
    characters: list[dict[str, Any]]
    spec: dict[str, Any]
    conventions: dict[str, str]


# --- measure ---


class StretchStats(TypedDict):
    """Edge-length ratios (posed over rest) of one region over the sampled
    times: how many, their spread, and the share outside the torn bounds."""

    samples: int
    p95: float
    p99: float
    max: float
    min: float
    torn_share: float


class TailMotion(TypedDict):
    """How far the tail turns from its rest direction, degrees (``swing``:
    its RMS about the clip's own mean)."""

    amplitude_deg: float
    max_deg: float
    mean_deg: float
    swing_deg: float


class WorstEdge(TypedDict):
    """One of the most stretched edges: its two vertices, the ratio, when,
    and the joint nearest to it."""

    vertices: tuple[int, int]
    ratio: float
    frame: int
    joint: str


class RegionStretch(StretchStats):
    """A row of the whole-mesh table: a region (tail, collar, body, mesh)."""

    region: str
    edges: int
    torn_edges: int
    worst: list[WorstEdge]
    ratios: NotRequired[npt.NDArray[np.float32]]  # with ratios=True


class EdgeStretch(TypedDict):
    """``edge_stretch(rig, clip, tail_vertices)``."""

    tail: StretchStats
    body: StretchStats
    collar: StretchStats
    motion: TailMotion
    tail_edges: int
    body_edges: int
    collar_edges: int
    frames: list[int]
    regions: list[RegionStretch]


class RigStretch(TypedDict):
    """One rig of the whole-mesh comparison: rigid, rigger or repaired."""

    rig: str
    rows: list[RegionStretch]


class TornByRepair(TypedDict):
    """Edges the repair tears that the rigid baseline keeps."""

    edges: int
    samples: int
    by_region: dict[str, int]
    worst: list[WorstEdge]


class BodyDrift(TypedDict):
    """How far body vertices outside the collar band moved from where the
    input's skinning puts them: metres and share of the height."""

    vertices: int
    max: float
    share_h: float
    vertex: int | None
    frame: int


class TailLowest(TypedDict):
    """The tail's lowest point over the clip, per rig."""

    rigid: float
    rigger: float
    repaired: float


class MeshStretch(TypedDict):
    """The whole-mesh report of one clip (issue 13): every edge, three
    rigs, what the repair tore, body drift, the collar band."""

    rigs: list[RigStretch]
    torn_by_repair: TornByRepair
    body_drift: BodyDrift
    band_width: float
    band_width_share_h: float
    root_radius: float
    seam: bool
    truth: bool
    tail_vertices: int
    motion: TailMotion
    tail_lowest: TailLowest
    frames: list[int]


class TailStretchRow(StretchStats):
    """A row of ``stretch_table``'s tail-only table: one rig's tail."""

    rig: str
    amplitude_deg: float | None  # None on the body row
    swing_deg: float | None
    ratios: NotRequired[npt.NDArray[np.float32]]  # with ratios=True


class StretchTableEntry(TypedDict):
    """``stretch_table``: one clip, baked and measured."""

    clip: str
    tail_vertices: int
    tail_edges: int
    body_edges: int
    collar_edges: int
    samples: int
    rows: list[TailStretchRow]
    bake: BakeSummary
    mesh: MeshStretch


class CrouchStretch(TypedDict):
    """``crouch_stretch``: the generated crouch (pelvis lowered by ``depth``
    toward ``floor``) measured like a clip."""

    depth: float
    floor: float
    mesh: MeshStretch


class PelvisLift(TypedDict):
    """``pelvis_lift``: per frame, how far the pelvis is lifted to keep the
    body above the floor (SPEC G), with the support it measured."""

    body_floor: float
    clearance: npt.NDArray[np.float32]
    lift: npt.NDArray[np.float32]
    pelvis_height: npt.NDArray[np.float32]
    pelvis_height_lifted: npt.NDArray[np.float32]
    body_check: npt.NDArray[np.float32]
    support_points: int
    tail_points: int
    contact_points: int


# --- solve ---


class Correspondence(TypedDict):
    """How a transfer's two meshes were aligned and how far apart they lie
    (the per-vertex arrays with report="full")."""

    alignment: str
    scale: float
    rotation: npt.NDArray[np.float64]
    translation: list[float]
    gap_mean: float
    gap_max: float
    gap: NotRequired[npt.NDArray[np.float32]]
    gap_colours: NotRequired[npt.NDArray[np.float32]]
    triangle: NotRequired[npt.NDArray[np.uint32]]
    barycentric: NotRequired[npt.NDArray[np.float32]]


class SolveReport(TypedDict):
    """A solve's report (``Solved.report``): the solve's own figures and the
    transfer quality (SPEC X5); per-vertex errors with report="full"."""

    mode: str
    report: str
    constraint_vertices: int
    sweeps: list[int]
    seeded_frames: int
    constraint_rms: list[float]
    looped: bool
    bone_length_change: float
    bone_length_changes: list[float]
    bone_stretch: list[float]
    stretch_bound: float
    source_bone_length_change: float
    stretched_bones: list[tuple[str, float]]
    quality: float
    quality_keys: float
    quality_halfway: float | None
    diagonal: float
    mean_error: float
    worst_error: float
    worst_vertex: int
    worst_time: float
    worst_frame: int
    frame_mean_error: list[float]
    bone_errors: list[float]
    worst_bones: list[tuple[str, float]]
    errors: NotRequired[npt.NDArray[np.float32]]
    colours: NotRequired[npt.NDArray[np.float32]]
    correspondence: NotRequired[Correspondence]
