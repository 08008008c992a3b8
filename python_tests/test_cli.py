"""The command line: demo on a fresh folder, info in both formats, errors."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
from conftest import asset, validate_gltf

import caudal


def run(*args, check=True):
    return subprocess.run(
        [sys.executable, "-m", "caudal.cli", *args], capture_output=True, text=True, check=check
    )


def test_demo_writes_a_valid_creature_that_round_trips(tmp_path):
    out = run("demo", "--out", str(tmp_path / "d"), "--json")
    result = json.loads(out.stdout)
    assert result["roundtrip_identical"] is True
    model = caudal.load(result["files"]["creature"])
    rig = model.rig
    assert rig.joint_count == 22 and all(n.startswith("mixamorig:") for n in rig.joint_names)
    roles = rig.roles()
    assert roles["pelvis"] == "mixamorig:Hips"
    assert roles["thighs"] == ["mixamorig:LeftUpLeg", "mixamorig:RightUpLeg"]
    assert model.clip_names == ["Walk"]
    walk = model.clip("Walk")
    assert np.allclose(walk.rotations[0], walk.rotations[-1], atol=1e-6)  # the walk loops
    # The tail (the mesh behind the hips) is skinned to the legs, as a template rigger leaves it.
    tail = rig.vertices[:, 2] < -0.3
    legs = [
        rig.joint_names.index(n)
        for n in ["mixamorig:LeftUpLeg", "mixamorig:RightUpLeg", "mixamorig:LeftLeg"]
    ]
    assert (
        tail.sum() > 100 and np.isin(rig.skin_joints[tail][rig.skin_weights[tail] > 0], legs).all()
    )
    assert rig.skin_joints[tail, 0].tolist().count(legs[2]) > 0.4 * tail.sum()
    assert validate_gltf(tmp_path / "d" / "creature.glb")["errors"] == 0


def test_info_text_lists_tree_roles_and_clips():
    out = run("info", str(asset("fox/Fox.glb"))).stdout
    assert "b_Hip_01  [pelvis]" in out
    assert "Walk: 0.708 s" in out
    assert "24 joints, 1728 vertices" in out


def test_errors_exit_2_with_a_message(tmp_path):
    bad = tmp_path / "bad.glb"
    bad.write_bytes(b"glTX0000")
    out = run("info", str(bad), check=False)
    assert out.returncode == 2 and "not a glTF file" in out.stderr
    out = run("info", str(tmp_path / "missing.glb"), check=False)
    assert out.returncode == 2 and "missing.glb" in out.stderr


def test_tail_takes_the_pelvis_by_name(tmp_path):
    """--pelvis: the chain hangs from the joint named, and the bake's spring
    reads the body from it; a name no character has is a one-line error."""
    fox = str(asset("fox/Fox_notail.glb"))
    out = run("tail", fox, "-o", str(tmp_path / "f.glb"), "--json")
    assert json.loads(out.stdout)["pelvis"] == "b_Hip_01"
    args = ["--pelvis", "b_Spine01_02", "--bake", "--clips", "Walk", "--json"]
    out = run("tail", fox, "-o", str(tmp_path / "s.glb"), *args)
    result = json.loads(out.stdout)
    chain = [p for p in result["parts"] if p["decision"] == "chain"]
    assert result["pelvis"] == "b_Spine01_02" and len(chain) == 1
    rig = caudal.load(tmp_path / "s.glb").rig
    assert rig.joint_names[rig.parents[rig.joint_names.index("Tail_1")]] == "b_Spine01_02"
    assert result["bake"][0]["looping"] is True
    bad = run("tail", fox, "-o", str(tmp_path / "n.glb"), "--pelvis", "Nope", check=False)
    assert bad.returncode == 2 and "--pelvis: no joint named 'Nope'" in bad.stderr
    assert not (tmp_path / "n.glb").exists()
