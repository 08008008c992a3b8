"""Baking a tail for one clip with caudal's native TailSpring (SPEC B),
bpy-free.

Why here and not ``caudal.bake``: the package's bake entry point takes a
glTF ``Model`` and bakes the clips stored in that file; inside Blender the
clips are actions, so the add-on drives the same steps itself: anchor path
by ``caudal.world_matrices_of``, warm-up passes until the tail's state at the
loop start repeats (root travel carried forward each cycle, as the core's
``warm_loop``), then one recorded cycle. Every step is the native
``TailSpring.step``; the only arithmetic here is the convergence check.
Replace with a ``bake_clip(rig, clip)`` binding when the package has one.

Every run starts from a fresh spring built on the rig table captured from
the armature's rest data, never the live pose (SPEC R).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

# SPEC B / src/bake/params.rs: the loop-start state must repeat within this
# many degrees; at most this many silent passes.
LOOP_STATE_TOLERANCE_DEG = 0.05
MAX_WARMUP_PASSES = 64


@dataclass
class TailBake:
    bones: list[str]
    rotations: np.ndarray  # (F, K, 4) xyzw local rotations per clip frame
    passes: int
    residual_deg: float
    converged: bool
    closure_deg: float  # largest angle between first and last key


def _state(spring) -> np.ndarray:
    """Rotations and, as angles per second of swing, velocities."""
    q = np.asarray(spring.rotations, dtype=np.float64)
    v = np.asarray(spring.velocities, dtype=np.float64)
    return q, v


def _angle_deg(a: np.ndarray, b: np.ndarray) -> float:
    d = np.abs(np.sum(a * b, axis=-1)).clip(0.0, 1.0)
    return float(np.degrees(2.0 * np.arccos(d)).max(initial=0.0))


def _distance_deg(spring, a, b) -> float:
    """State change in degrees: rotation change, plus the velocity change
    expressed as swing per spring period (length and frequency from the
    spring)."""
    rot = _angle_deg(a[0], b[0])
    lengths = np.asarray(spring.lengths, dtype=np.float64)
    omega = 2.0 * np.pi * np.asarray(spring.frequencies, dtype=np.float64)
    dv = np.linalg.norm(a[1] - b[1], axis=-1)
    vel = float(np.degrees(dv / (omega * np.maximum(lengths, 1e-12))).max(initial=0.0))
    return max(rot, vel)


def bake_tail(spring, anchors: np.ndarray, rate: float, looping: bool = True) -> TailBake:
    """Bakes the spring along the pelvis path ``anchors`` (F, 4, 4, core
    world) sampled at ``rate`` frames per second."""
    anchors = np.asarray(anchors, dtype=np.float32)
    f = anchors.shape[0]
    dt = 1.0 / rate
    travel = anchors[-1, :3, 3] - anchors[0, :3, 3] if looping else np.zeros(3, np.float32)

    def at(cycle: int, i: int) -> np.ndarray:
        m = anchors[i].copy()
        m[:3, 3] += travel * cycle
        return m

    spring.reset_to(at(0, 0))
    before = _state(spring)
    passes, residual = 0, float("inf")
    while looping and passes < MAX_WARMUP_PASSES:
        for i in range(1, f):
            spring.step(at(passes, i), dt)
        passes += 1
        now = _state(spring)
        residual = _distance_deg(spring, now, before)
        before = now
        if residual <= LOOP_STATE_TOLERANCE_DEG:
            break
    out = np.empty((f, len(spring), 4), dtype=np.float64)
    out[0] = spring.rotations
    for i in range(1, f):
        out[i] = spring.step(at(passes, i), dt)
    return TailBake(
        bones=list(spring.joints),
        rotations=out,
        passes=passes,
        residual_deg=residual,
        converged=residual <= LOOP_STATE_TOLERANCE_DEG or not looping,
        closure_deg=_angle_deg(out[0], out[-1]),
    )
