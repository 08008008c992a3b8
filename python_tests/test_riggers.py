"""Another template rigger: the artists' tails handed to the *nearest* bone.

The degraded fixtures (`*_notail.glb`) were made one way: each tail vertex's
weight went to the hind legs (distal part to the left shin, proximal part
over both thighs). A rigger that weights by distance instead gives every
tail vertex to the non-tail bone segment nearest to it (the root to the
spine, the rest to whichever leg bone is closest). The repair must not
depend on which of the two made the file: the tail is still found and
chained, and the chain tears nothing while it moves.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from conftest import asset

import caudal


def segment_distances(points: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    ab = b - a
    t = np.clip(((points - a) @ ab) / max(float(ab @ ab), 1e-12), 0.0, 1.0)
    return np.linalg.norm(points - (a + np.outer(t, ab)), axis=1)


def nearest_bone_rigger(model: caudal.Model, tail_pattern: str) -> tuple[caudal.Rig, np.ndarray]:
    """The model's rig with each vertex's tail-bone weight moved to the
    nearest bone segment of a weighted non-tail joint (tail joints kept in
    the skeleton, unweighted). Returns the rig and the artist's tail share."""
    r = model.rig
    names = r.joint_names
    parents = np.asarray(r.parents)
    heads = np.asarray(r.bind_matrices)[:, :3, 3]
    joints, weights = np.asarray(r.skin_joints), np.asarray(r.skin_weights)
    points = np.asarray(r.vertices)
    tail = np.array([re.match(tail_pattern, n) is not None for n in names])
    weighted = np.zeros(len(names), bool)
    weighted[joints[weights > 0]] = True
    near = np.full((len(points), len(names)), np.inf)
    for j, p in enumerate(parents):
        if p >= 0 and weighted[p] and not tail[p] and not tail[j]:
            near[:, p] = np.minimum(near[:, p], segment_distances(points, heads[p], heads[j]))
    nearest = near.argmin(axis=1)
    share = np.where(tail[joints], weights, 0.0).sum(axis=1)
    dense = np.zeros((len(points), len(names)))
    np.add.at(
        dense, (np.arange(len(points))[:, None], joints), np.where(tail[joints], 0.0, weights)
    )
    dense[np.arange(len(points)), nearest] += share
    top = np.argsort(-dense, axis=1)[:, :4]
    top_w = np.take_along_axis(dense, top, axis=1)
    top_w /= top_w.sum(axis=1, keepdims=True)
    rig = caudal.Rig(
        points,
        np.asarray(r.triangles),
        top,
        top_w.astype(np.float32),
        names,
        parents,
        bind_matrices=np.asarray(r.bind_matrices),
    )
    return rig, share


# (file, tail joints, geometry-alone recall measured: the cue that reads a
# template rigger's leg weights does not apply when the root went to the spine).
# The Shiba's 0.901 fell to 0.870 when the root's axis extension took the
# collar's median radius instead of its farthest vertex (docs/decisions.md,
# "The axis extension measures its ring by the median radius"): the cut that
# keeps rump skin off thick, slanted tails on the corpus leaves the Shiba's
# last root ring.
CASES = [
    ("quaternius_wolf/Wolf.gltf", r"^Tail\d+$", 0.80),
    ("quaternius_shiba_inu/ShibaInu.gltf", r"^Tail\d+$", 0.87),
    ("quaternius_alpaca/Alpaca.gltf", r"^Tail\d*$", 0.95),
    ("fox/Fox.glb", r"^b_Tail", 0.99),
]


@pytest.mark.parametrize("rel, pattern, recall_floor", CASES)
def test_a_nearest_bone_rigger_is_repaired_too(rel, pattern, recall_floor, tmp_path):
    model = caudal.load(asset(rel))
    rig, share = nearest_bone_rigger(model, pattern)
    truth = set(np.flatnonzero(share > 0.5).tolist())
    _, report = caudal.grow_chains(rig)
    chains = [p for p in report["parts"] if p["decision"] == "chain"]
    assert len(chains) == 1 and chains[0]["attachment"] == report["pelvis"], chains
    found = set(chains[0]["vertices"])
    recall, precision = len(found & truth) / len(truth), len(found & truth) / len(found)
    print(f"{rel}: recall {recall:.3f}, precision {precision:.3f}")
    assert recall >= recall_floor and precision >= 0.9

    # The same file as a rigger would deliver it, through the whole repair.
    degraded = tmp_path / "nearest.glb"
    model.write(degraded, rig=rig)
    clips = [c for c in ("Walk", "Gallop", "Run") if c in model.clip_names][:2]
    for t in caudal.stretch_table(caudal.load(degraded), clips):
        rows = {r["rig"]: r for r in t["rows"]}
        chain, body, collar = rows["chain"], rows["body"], rows["collar"]
        print(
            f"  {t['clip']}: chain max {chain['max']:.2f} torn {chain['torn_share']:.3f}, amplitude {chain['amplitude_deg']:.1f}; collar torn {collar['torn_share']:.3f}"
        )
        assert chain["torn_share"] == 0.0 and chain["p99"] <= body["p99"], (t["clip"], chain, body)
        # The seam reaches the artists' own figures (0-14% on these meshes).
        assert collar["torn_share"] <= 0.15, (t["clip"], collar)
