"""Inputs for the batch tests: a small library (a few repository assets and
generated creatures in folders), broken files, and how to compare two runs."""

from __future__ import annotations

import base64
import json
import shutil
import struct
from pathlib import Path

from conftest import asset

import caudal

ASSETS = ["fox/Fox_notail.glb", "fox/Fox.glb", "quaternius_shiba_inu/ShibaInu.gltf"]
"""A degraded fixture (a tail to grow), its artist original (no tail to
grow), a JSON glTF (written back as GLB)."""

SEEDS = list(range(11)) + [5]
"""A dozen generated creatures; the last is forced to hold two characters."""


def write_library(root: Path) -> Path:
    """``root/assets/...`` and ``root/creatures/creature_SS.glb``; returns ``root``."""
    for rel in ASSETS:
        dst = root / "assets" / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(asset(rel), dst)
    write_creatures(root / "creatures", SEEDS[:-1])
    glb, _, _ = caudal.generated_creature(SEEDS[-1], force="multi_character")
    (root / "creatures" / "two_characters.glb").write_bytes(glb)
    return root


def write_creatures(folder: Path, seeds: list[int]) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for seed in seeds:
        glb, _, _ = caudal.generated_creature(seed)
        path = folder / f"creature_{seed:03d}.glb"
        path.write_bytes(glb)
        out.append(path)
    return out


def skinless_gltf(path: Path) -> Path:
    """A valid glTF with one triangle and no skin."""
    pos = struct.pack("<9f", 0, 0, 0, 1, 0, 0, 0, 1, 0)
    doc = {
        "asset": {"version": "2.0"},
        "buffers": [
            {
                "byteLength": 36,
                "uri": "data:application/octet-stream;base64," + base64.b64encode(pos).decode(),
            }
        ],
        "bufferViews": [{"buffer": 0, "byteLength": 36}],
        "accessors": [
            {
                "bufferView": 0,
                "componentType": 5126,
                "count": 3,
                "type": "VEC3",
                "min": [0, 0, 0],
                "max": [1, 1, 0],
            }
        ],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
        "nodes": [{"mesh": 0}],
        "scenes": [{"nodes": [0]}],
        "scene": 0,
    }
    path.write_text(json.dumps(doc))
    return path


def comparable(rows: list[dict]) -> list[dict]:
    """Rows without what differs between two runs of the same work: times and resumption."""
    return [
        {k: v for k, v in r.items() if not k.endswith("seconds") and k != "resumed"} for r in rows
    ]


def glbs(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*.glb"))}
