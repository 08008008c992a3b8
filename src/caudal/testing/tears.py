"""``assert_no_new_tears``: the repair may not tear an edge that the tail
bound rigidly to the pelvis keeps (the baseline of issue 13 and SPEC M1's
self-check), anywhere on the mesh, at any sampled time."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

import caudal
from caudal.pipeline.settings import RepairSettings
from caudal.testing.subject import (
    DEFAULT_SAMPLES,
    ClipLike,
    ModelLike,
    clip_name,
    clip_pair,
    compared,
    heaviest_joint,
    unique_edges,
)

TORN_ABOVE = 1.5
"""An edge longer than this times its bind length is torn (SPEC M1; the
core's ``measure::stretch::TORN_ABOVE``)."""
TORN_BELOW = 0.67
"""An edge shorter than this times its bind length is torn (SPEC M1)."""


def edge_ratios(
    posed: npt.NDArray[np.float32], bind: npt.NDArray[np.float32], edges: npt.NDArray[np.int64]
) -> npt.NDArray[np.float64]:
    """Skinned over bind length, per sampled time and edge."""
    rest = np.linalg.norm(bind[edges[:, 0]] - bind[edges[:, 1]], axis=1).astype(np.float64)
    now = np.linalg.norm(posed[:, edges[:, 0]] - posed[:, edges[:, 1]], axis=2).astype(np.float64)
    out: npt.NDArray[np.float64] = now / np.maximum(rest, 1e-12)
    return out


def torn(ratios: npt.NDArray[np.float64]) -> npt.NDArray[np.bool_]:
    out: npt.NDArray[np.bool_] = (ratios > TORN_ABOVE) | (ratios < TORN_BELOW)
    return out


def assert_no_new_tears(
    model: ModelLike,
    clip: ClipLike,
    *,
    samples: int = DEFAULT_SAMPLES,
    settings: RepairSettings | None = None,
    repaired: ModelLike | None = None,
    character: int | None = None,
) -> None:
    """Fails when the repaired file (``repaired``, or caudal's repair of
    ``model`` with ``settings``) tears an edge, at one of ``samples`` evenly
    spaced times of ``clip``, that the rigid baseline keeps whole."""
    __tracebackhide__ = True
    name = clip_name(clip)
    for where, before, after in compared(model, settings, repaired, character):
        rigid, _ = caudal.grow_chains(
            before.rig, rigid=True, broad=(settings or RepairSettings()).broad
        )
        clip_before, clip_after, frames = clip_pair(before, after, name, samples)
        edges = unique_edges(after.rig.triangles)
        base = torn(edge_ratios(caudal.skin(rigid, clip_before, frames), rigid.vertices, edges))
        ratios = edge_ratios(caudal.skin(after.rig, clip_after, frames), after.rig.vertices, edges)
        new = torn(ratios) & ~base
        if not new.any():
            continue
        badness = np.where(new, np.abs(np.log(np.maximum(ratios, 1e-12))), -1.0)
        s, e = np.unravel_index(int(np.argmax(badness)), badness.shape)
        a, b = (int(v) for v in edges[e])
        r = float(ratios[s, e])
        bound = f"the bound {TORN_ABOVE}x" if r > 1.0 else f"the bound {TORN_BELOW}x"
        count = int(new.any(axis=0).sum())
        raise AssertionError(
            f"{where}, clip {name!r}: the repair tears {count} edge(s) "
            f"({100 * count / len(edges):.2f}% of {len(edges):,}) that the rigid baseline keeps; worst: edge {a}-{b} "
            f"(vertex {a} weighted most to {heaviest_joint(after.rig, a)}) at t={float(clip_after.times[frames[s]]):.3f} s, "
            f"{'stretched' if r > 1.0 else 'shrunk'} to {r:.2f}x its bind length against {bound}"
        )
