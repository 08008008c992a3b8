"""Independent scoring of a transfer, in plain numpy from the files alone
(python_tests/gltf_numpy.py reads and skins them; nothing here calls caudal).

* ``played(path, animation, times)``: what any glTF player shows, the file's
  skinned mesh at the given times (LINEAR keys interpolated as the glTF
  specification says);
* ``exact(source, animation, target, joint_names, times)``: the exact answer
  of a transfer onto a target whose weights came from the source: the
  target's own mesh and weights, skinned by the *source's* joints (each
  target joint named back to its source joint through ``joint_names``);
* ``score(got, want, rest, diagonal)``: transfer quality
  ``1 - sum|got - want| / sum|want - rest|`` and the worst vertex as a
  fraction of the diagonal.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from gltf_numpy import NumpyGltf, skinned_positions, world_matrices


def animation_index(g: NumpyGltf, name: str) -> int:
    for i, a in enumerate(g.doc.get("animations", [])):
        if a.get("name") == name:
            return i
    raise KeyError(name)


def duration(g: NumpyGltf, animation: int) -> float:
    anim = g.doc["animations"][animation]
    return max(float(g.accessor(s["input"])[-1, 0]) for s in anim["samplers"])


def key_times(g: NumpyGltf, animation: int) -> np.ndarray:
    """Union of every channel's key times."""
    anim = g.doc["animations"][animation]
    return np.unique(
        np.concatenate([g.accessor(s["input"])[:, 0].astype(np.float64) for s in anim["samplers"]])
    )


def even_times(g: NumpyGltf, animation: int, count: int = 24) -> np.ndarray:
    return np.linspace(0.0, duration(g, animation), count)


def _mesh(g: NumpyGltf):
    """Positions, joints (skin-local), weights of every skinned primitive, and the skin of each."""
    pos, joints, weights, skins = [], [], [], []
    for n in g.doc["nodes"]:
        if "mesh" not in n or "skin" not in n:
            continue
        for prim in g.doc["meshes"][n["mesh"]]["primitives"]:
            p = g.accessor(prim["attributes"]["POSITION"]).astype(np.float64)
            pos.append(p)
            joints.append(g.accessor(prim["attributes"]["JOINTS_0"]).astype(np.int64))
            w = g.accessor(prim["attributes"]["WEIGHTS_0"]).astype(np.float64)
            weights.append(w / w.sum(axis=1, keepdims=True))
            skins.append(np.full(len(p), n["skin"]))
    return (
        np.concatenate(pos),
        np.concatenate(joints),
        np.concatenate(weights),
        np.concatenate(skins),
    )


def rest(path: Path) -> np.ndarray:
    """Mesh-space positions (the bind pose in the files used here)."""
    return _mesh(NumpyGltf(path))[0]


def played(path: Path, animation: str, times) -> np.ndarray:
    g = NumpyGltf(path)
    a = animation_index(g, animation)
    return np.stack([skinned_positions(g, a, float(t)) for t in times])


def exact(
    source: Path, animation: str, target: Path, joint_names: dict[str, str], times
) -> np.ndarray:
    src = NumpyGltf(source)
    tgt = NumpyGltf(target)
    a = animation_index(src, animation)
    src_names = [n.get("name") for n in src.doc["nodes"]]
    skin = src.doc["skins"][0]
    ibm = (
        src.accessor(skin["inverseBindMatrices"])
        .astype(np.float64)
        .reshape(-1, 4, 4)
        .transpose(0, 2, 1)
    )
    src_joint = {src_names[j]: (j, ibm[k]) for k, j in enumerate(skin["joints"])}
    pos, joints, weights, skins = _mesh(tgt)
    if len(set(skins.tolist())) != 1:
        raise ValueError("one skin per target expected")
    tskin = tgt.doc["skins"][int(skins[0])]
    tnames = [tgt.doc["nodes"][j].get("name") for j in tskin["joints"]]
    mapped = [src_joint[joint_names.get(n, n)] for n in tnames]
    hom = np.c_[pos, np.ones(len(pos))]
    out = []
    for t in times:
        w = world_matrices(src, a, float(t))
        mats = np.array([w[node] @ inv for node, inv in mapped])
        acc = np.zeros((len(pos), 3))
        for k in range(joints.shape[1]):
            acc += weights[:, k : k + 1] * np.einsum("nij,nj->ni", mats[joints[:, k]], hom)[:, :3]
        out.append(acc)
    return np.stack(out)


def diagonal(points: np.ndarray) -> float:
    return float(np.linalg.norm(points.max(axis=0) - points.min(axis=0)))


def score(got: np.ndarray, want: np.ndarray, rest_positions: np.ndarray) -> dict[str, float]:
    err = np.linalg.norm(got - want, axis=2)
    motion = np.linalg.norm(want - rest_positions[None], axis=2)
    d = diagonal(rest_positions)
    return {
        "quality": float(1.0 - err.sum() / motion.sum()),
        "mean": float(err.mean() / d),
        "worst": float(err.max() / d),
    }
