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
    forward: npt.ArrayLike | None
    up: npt.ArrayLike


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
