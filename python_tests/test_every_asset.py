"""Every glTF file in assets/ loads, `caudal info` prints it, `caudal tail`
repairs it without error, and what it writes passes the Khronos validator
and reads back with the same characters. (Whether a tail is found is the
detection's business, tested elsewhere.)"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest import ASSETS, validate_gltf

import caudal

FILES = sorted(str(p.relative_to(ASSETS)) for p in ASSETS.glob("*/*.gl*"))


def run(*args):
    return subprocess.run(
        [sys.executable, "-m", "caudal.cli", *args], capture_output=True, text=True
    )


def test_the_list_is_every_asset():
    assert len(FILES) >= 31


@pytest.mark.parametrize("rel", FILES)
def test_loads_prints_repairs_validates_and_reloads(rel, tmp_path):
    path = ASSETS / rel
    model = caudal.load(path)
    assert model.characters
    info = run("info", str(path))
    assert info.returncode == 0, info.stderr
    assert "character 0" in info.stdout and "joints:" in info.stdout
    out = tmp_path / "out.glb"
    res = run("tail", str(path), "-o", str(out), "--json")
    assert res.returncode == 0, res.stderr
    report = json.loads(res.stdout)
    assert len(report["characters"]) == len(model.characters)
    check = validate_gltf(out)
    assert check["errors"] == 0, (rel, check["messages"][:5])
    back = caudal.load(out)
    assert len(back.characters) == len(model.characters)
    for a, b in zip(model.characters, back.characters, strict=False):
        assert b.rig.vertex_count == a.rig.vertex_count
        assert b.rig.joint_names[: a.rig.joint_count] == a.rig.joint_names
        assert b.height == pytest.approx(a.height, rel=1e-5)
    assert back.warnings == model.warnings
