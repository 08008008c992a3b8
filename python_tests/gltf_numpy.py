"""An independent glTF reader and skinning evaluator in plain numpy, used to
check caudal's core against a second implementation (written from the glTF
2.0 specification, sharing no code with the Rust reader)."""

from __future__ import annotations

import base64
import json
import struct
from pathlib import Path

import numpy as np

_COMPONENT = {
    5120: np.int8,
    5121: np.uint8,
    5122: np.int16,
    5123: np.uint16,
    5125: np.uint32,
    5126: np.float32,
}
_COUNT = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT4": 16}


class NumpyGltf:
    def __init__(self, path: Path):
        raw = Path(path).read_bytes()
        if raw[:4] == b"glTF":
            jlen = struct.unpack_from("<I", raw, 12)[0]
            self.doc = json.loads(raw[20 : 20 + jlen])
            off = 20 + jlen
            blen = struct.unpack_from("<I", raw, off)[0]
            blob = raw[off + 8 : off + 8 + blen]
        else:
            self.doc = json.loads(raw)
            blob = b""
        self.buffers = []
        for b in self.doc["buffers"]:
            uri = b.get("uri")
            if uri is None:
                self.buffers.append(blob)
            elif uri.startswith("data:"):
                self.buffers.append(base64.b64decode(uri.split(",", 1)[1]))
            else:
                self.buffers.append((Path(path).parent / uri).read_bytes())
        self._cache: dict[int, np.ndarray] = {}
        nodes = self.doc["nodes"]
        self.parent = [-1] * len(nodes)
        for i, n in enumerate(nodes):
            for c in n.get("children", []):
                self.parent[c] = i

    def accessor(self, i: int) -> np.ndarray:
        if i not in self._cache:
            self._cache[i] = self._read_accessor(i)
        return self._cache[i]

    def _read_accessor(self, i: int) -> np.ndarray:
        a = self.doc["accessors"][i]
        v = self.doc["bufferViews"][a["bufferView"]]
        dt = np.dtype(_COMPONENT[a["componentType"]])
        comps = _COUNT[a["type"]]
        start = v.get("byteOffset", 0) + a.get("byteOffset", 0)
        stride = v.get("byteStride", dt.itemsize * comps)
        buf = self.buffers[v["buffer"]]
        out = np.ndarray(
            (a["count"], comps), dtype=dt, buffer=buf, offset=start, strides=(stride, dt.itemsize)
        ).copy()
        if a.get("normalized"):
            out = out.astype(np.float64) / np.iinfo(dt).max
        return out

    def rest_trs(self, i: int):
        n = self.doc["nodes"][i]
        if "matrix" in n:
            m = np.array(n["matrix"], dtype=np.float64).reshape(4, 4).T
            return ("matrix", m)
        return (
            np.array(n.get("translation", [0, 0, 0]), dtype=np.float64),
            np.array(n.get("rotation", [0, 0, 0, 1]), dtype=np.float64),
            np.array(n.get("scale", [1, 1, 1]), dtype=np.float64),
        )


def quat_to_matrix(q: np.ndarray) -> np.ndarray:
    x, y, z, w = q / np.linalg.norm(q)
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
        ]
    )


def trs_matrix(t, r, s) -> np.ndarray:
    m = np.eye(4)
    m[:3, :3] = quat_to_matrix(r) * s
    m[:3, 3] = t
    return m


def slerp(a: np.ndarray, b: np.ndarray, u: float) -> np.ndarray:
    a = a / np.linalg.norm(a)
    b = b / np.linalg.norm(b)
    d = float(np.dot(a, b))
    if d < 0:
        b, d = -b, -d
    if d > 0.9995:
        q = a + u * (b - a)
        return q / np.linalg.norm(q)
    th = np.arccos(d)
    return (np.sin((1 - u) * th) * a + np.sin(u * th) * b) / np.sin(th)


def sample_channel(g: NumpyGltf, sampler: dict, path: str, t: float) -> np.ndarray:
    times = g.accessor(sampler["input"])[:, 0].astype(np.float64)
    vals = g.accessor(sampler["output"]).astype(np.float64)
    interp = sampler.get("interpolation", "LINEAR")
    if interp == "CUBICSPLINE":
        vals = vals[1::3]
    if t <= times[0]:
        return vals[0]
    if t >= times[-1]:
        return vals[-1]
    k = int(np.searchsorted(times, t, side="right") - 1)
    u = (t - times[k]) / (times[k + 1] - times[k])
    if interp == "STEP":
        return vals[k]
    if path == "rotation":
        return slerp(vals[k], vals[k + 1], u)
    return vals[k] * (1 - u) + vals[k + 1] * u


def world_matrices(g: NumpyGltf, animation: int | None, t: float) -> list[np.ndarray]:
    nodes = g.doc["nodes"]
    trs = [g.rest_trs(i) for i in range(len(nodes))]
    trs = [x if isinstance(x[0], str) else list(x) for x in trs]
    if animation is not None:
        anim = g.doc["animations"][animation]
        for ch in anim["channels"]:
            path = ch["target"]["path"]
            if path == "weights":
                continue
            node = ch["target"]["node"]
            v = sample_channel(g, anim["samplers"][ch["sampler"]], path, t)
            slot = {"translation": 0, "rotation": 1, "scale": 2}[path]
            trs[node][slot] = v
    local = [x[1] if isinstance(x[0], str) else trs_matrix(*x) for x in trs]
    world: list[np.ndarray | None] = [None] * len(nodes)

    def get(i: int) -> np.ndarray:
        if world[i] is None:
            p = g.parent[i]
            world[i] = local[i] if p < 0 else get(p) @ local[i]
        return world[i]  # type: ignore[return-value]

    return [get(i) for i in range(len(nodes))]


def skinned_positions(g: NumpyGltf, animation: int | None, t: float) -> np.ndarray:
    """Every skinned primitive's vertices at time t, concatenated in node order."""
    worlds = world_matrices(g, animation, t)
    out = []
    for n in g.doc["nodes"]:
        if "mesh" not in n or "skin" not in n:
            continue
        skin = g.doc["skins"][n["skin"]]
        ibm = (
            g.accessor(skin["inverseBindMatrices"])
            .astype(np.float64)
            .reshape(-1, 4, 4)
            .transpose(0, 2, 1)
        )
        mats = np.array([worlds[j] @ ibm[k] for k, j in enumerate(skin["joints"])])
        for prim in g.doc["meshes"][n["mesh"]]["primitives"]:
            pos = g.accessor(prim["attributes"]["POSITION"]).astype(np.float64)
            joints = g.accessor(prim["attributes"]["JOINTS_0"]).astype(np.int64)
            weights = g.accessor(prim["attributes"]["WEIGHTS_0"]).astype(np.float64)
            weights = weights / weights.sum(axis=1, keepdims=True)
            hom = np.c_[pos, np.ones(len(pos))]
            acc = np.zeros((len(pos), 3))
            for k in range(4):
                m = mats[joints[:, k]]
                acc += weights[:, k : k + 1] * np.einsum("nij,nj->ni", m, hom)[:, :3]
            out.append(acc)
    return np.concatenate(out)
