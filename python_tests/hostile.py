"""Test helper: hostile variants of a real file (the Khronos Fox), made by
editing its JSON, and a way to run code that might abort the interpreter in
a child process under an address-space limit."""

from __future__ import annotations

import copy
import json
import os
import resource
import subprocess
import sys
from pathlib import Path
from typing import Any

from conftest import asset
from glb_merge import glb, split_glb

FOUR_GIB = 4 << 30


def fox() -> tuple[dict[str, Any], bytes]:
    """The Fox's JSON (a fresh copy) and binary chunk."""
    doc, bin_ = split_glb(asset("fox/Fox.glb").read_bytes())
    return copy.deepcopy(doc), bin_


def glb_bytes(doc: dict[str, Any], bin_: bytes, describe_chunk: bool = True) -> bytes:
    """A GLB of `doc` and `bin_`. With `describe_chunk` buffer 0 is set to
    the chunk's length; without, `doc["buffers"]` is written as given (a
    lie about the chunk included)."""
    return glb(copy.deepcopy(doc), bin_, describe_chunk)


def write_glb(path: Path, doc: dict[str, Any], bin_: bytes, describe_chunk: bool = True) -> Path:
    path.write_bytes(glb_bytes(doc, bin_, describe_chunk))
    return path


def write_gltf(
    folder: Path,
    doc: dict[str, Any],
    bin_: bytes,
    uri: str,
    bin_name: str | None = "fox.bin",
    name: str = "fox.gltf",
) -> Path:
    """A .gltf in `folder` whose buffer 0 is `uri`; the binary written as
    `folder/bin_name` (unless None)."""
    folder.mkdir(parents=True, exist_ok=True)
    d = copy.deepcopy(doc)
    d["buffers"] = [{"uri": uri, "byteLength": len(bin_)}]
    if bin_name is not None:
        target = folder / bin_name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(bin_)
    p = folder / name
    p.write_text(json.dumps(d))
    return p


def limit_address_space() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (FOUR_GIB, FOUR_GIB))


def run_isolated(code: str, timeout: float = 60.0) -> subprocess.CompletedProcess[str]:
    """Runs `code` in a fresh interpreter (caudal importable, the tests'
    helpers on the path) under a 4 GiB address-space limit, so that an
    abort or a runaway allocation fails the test instead of the run."""
    here = Path(__file__).resolve().parent
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(here), os.environ.get("PYTHONPATH", "")]),
    }
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=timeout,
        preexec_fn=limit_address_space,
        env=env,
    )


def deep_chain(n: int) -> tuple[dict[str, Any], bytes]:
    """A skinned chain of `n` joints, each the child of the one before (a
    tail 10 m long in steps of 1 cm), with one small triangle on each joint."""
    import numpy as np

    step = 0.01
    tri = np.array([[0.0, 0.0, 0.0], [0.004, 0.0, 0.0], [0.0, 0.0, 0.004]], dtype=np.float32)
    pos = np.concatenate([tri + np.array([0.0, i * step, 0.0], dtype=np.float32) for i in range(n)])
    joints = np.repeat(np.arange(n, dtype=np.uint16), 3)
    j4 = np.zeros((3 * n, 4), dtype=np.uint16)
    j4[:, 0] = joints
    w4 = np.zeros((3 * n, 4), dtype=np.float32)
    w4[:, 0] = 1.0
    ibm = np.tile(np.eye(4, dtype=np.float32), (n, 1, 1))
    ibm[:, 1, 3] = -np.arange(n, dtype=np.float32) * step  # row 1, column 3: -y of each joint
    ibm_cols = np.ascontiguousarray(ibm.transpose(0, 2, 1))  # glTF stores columns
    blobs = [pos.tobytes(), j4.tobytes(), w4.tobytes(), ibm_cols.tobytes()]
    views, offset = [], 0
    for b in blobs:
        views.append({"buffer": 0, "byteOffset": offset, "byteLength": len(b)})
        offset += len(b)
    doc: dict[str, Any] = {
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": [0, n]}],
        "nodes": [
            {
                "name": f"j{i}",
                "translation": [0.0, step if i else 0.0, 0.0],
                **({"children": [i + 1]} if i + 1 < n else {}),
            }
            for i in range(n)
        ]
        + [{"name": "mesh", "mesh": 0, "skin": 0}],
        "meshes": [
            {"primitives": [{"attributes": {"POSITION": 0, "JOINTS_0": 1, "WEIGHTS_0": 2}}]}
        ],
        "skins": [{"joints": list(range(n)), "inverseBindMatrices": 3}],
        "accessors": [
            {
                "bufferView": 0,
                "componentType": 5126,
                "count": 3 * n,
                "type": "VEC3",
                "min": pos.min(0).tolist(),
                "max": pos.max(0).tolist(),
            },
            {"bufferView": 1, "componentType": 5123, "count": 3 * n, "type": "VEC4"},
            {"bufferView": 2, "componentType": 5126, "count": 3 * n, "type": "VEC4"},
            {"bufferView": 3, "componentType": 5126, "count": n, "type": "MAT4"},
        ],
        "bufferViews": views,
        "buffers": [{"byteLength": offset}],
    }
    return doc, b"".join(blobs)
