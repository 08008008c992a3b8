"""Several characters in one file (two wolves side by side, the second on a
box): each is its own rig with its own height, repaired, baked, solved and
written per character; `caudal info` and `caudal tail` show them."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest
from conftest import asset, validate_gltf
from glb_merge import merge_glbs

import caudal

DOG = "quaternius_wolf/Wolf_notail.glb"


@pytest.fixture(scope="module")
def two_wolves(tmp_path_factory):
    one = caudal.load(asset(DOG))
    v = one.rig.vertices
    ext = v.max(axis=0) - v.min(axis=0)
    raw = asset(DOG).read_bytes()
    path = tmp_path_factory.mktemp("two") / "two_wolves.glb"
    path.write_bytes(
        merge_glbs(raw, raw, (3.0 * float(ext.max()), 0.7 * float(ext[1]), 0.0), "SecondWolf")
    )
    return path


def run(*args, check=True):
    return subprocess.run(
        [sys.executable, "-m", "caudal.cli", *args], capture_output=True, text=True, check=check
    )


def test_each_character_has_its_own_rig_and_height(two_wolves):
    single = caudal.load(asset(DOG)).rig
    m = caudal.load(two_wolves)
    assert len(m.characters) == 2
    assert [c.index for c in m.characters] == [0, 1]
    assert len({c.name for c in m.characters}) == 2
    for c in m.characters:
        assert c.rig.joint_count == single.joint_count and c.rig.vertex_count == single.vertex_count
        assert c.height == pytest.approx(single.height, rel=1e-4)  # not 1.7x: each its own
        assert c.rig.height == pytest.approx(c.height)
    with pytest.raises(caudal.ParameterError, match="2 characters"):
        _ = m.rig
    with pytest.raises(caudal.ParameterError, match="2 characters"):
        m.clip("Walk")
    walk = m.characters[1].clip("Walk")
    assert walk.joint_count == single.joint_count
    prims = m.primitives()
    assert [p["character"] for p in prims].count(1) == len(m.characters[1].primitives())
    second = [p for p in prims if p["character"] == 1][0]
    assert second["vertex_offset"] == 0 and second["file_vertex_offset"] == single.vertex_count
    assert "2 characters" in repr(m)


def test_tail_repairs_every_character_with_unique_chain_names(two_wolves, tmp_path):
    out, report = tmp_path / "fixed.glb", tmp_path / "report.json"
    res = run("tail", str(two_wolves), "-o", str(out), "--report", str(report))
    assert "character 0" in res.stdout and "character 1" in res.stdout
    rep = json.loads(report.read_text())
    assert [c["character"] for c in rep["characters"]] == [0, 1]
    bones = []
    for c in rep["characters"]:
        chains = [p for p in c["parts"] if p["decision"] == "chain"]
        assert len(chains) == 1, c["name"]
        assert c["pelvis"] == "Back" or chains[0]["attachment"] == "Back"
        bones.append(chains[0]["bones"][0])
    assert bones == ["Tail_1", "Tail2_1"]
    assert validate_gltf(out)["errors"] == 0
    back = caudal.load(out)
    assert len(back.characters) == 2
    assert (
        "Tail_1" in back.characters[0].rig.joint_names
        and "Tail_1" not in back.characters[1].rig.joint_names
    )
    assert "Tail2_1" in back.characters[1].rig.joint_names


def test_bake_and_write_several_characters_in_one_file(two_wolves, tmp_path):
    m = caudal.load(two_wolves)
    taken = list(m.node_names)
    rigs, tracks = [], []
    for c in m.characters:
        rig, _ = caudal.grow_chains(c.rig, reserved_names=taken)
        taken += rig.joint_names[c.rig.joint_count :]
        bake = caudal.bake(c, rig, ["Walk"])
        assert bake.character == c.index
        rigs.append(rig)
        tracks += bake.tracks()
    assert {t["character"] for t in tracks} == {0, 1}
    out = tmp_path / "baked.glb"
    m.write(out, rigs=rigs, tracks=tracks)
    assert validate_gltf(out)["errors"] == 0
    back = caudal.load(out)
    for c, rig in zip(back.characters, rigs, strict=False):
        assert c.rig.joint_names == rig.joint_names
        walk = c.clip("Walk")
        tail = [
            i for i, n in enumerate(c.rig.joint_names) if n.startswith("Tail") and n[-1].isdigit()
        ]
        assert np.ptp(walk.rotations[:, tail], axis=0).max() > 1e-3, "the baked tail moves"
    # One rig for a file of two is refused, naming the way out.
    with pytest.raises(caudal.ParameterError, match="characters"):
        m.write(tmp_path / "x.glb", rig=rigs[0])
    with pytest.raises(caudal.RigError, match="rigs"):
        m.write(tmp_path / "x.glb", rigs=rigs[:1])


def test_transfer_control_run_passes_per_character(two_wolves):
    m = caudal.load(two_wolves)
    for c in m.characters:
        clip = c.clip("Walk", 12.0)
        surfaces = caudal.skin(c.rig, clip)
        solved, report = caudal.solve_surface(c.rig, surfaces, name="Walk", rate=clip.rate)
        assert report["quality"] >= 0.998, (c.index, report["quality"])
        assert report["mean_error"] <= 0.008e-2
        # The solved clip skins back onto the surfaces: transfer quality of it.
        q = caudal.transfer_quality(c.rig, caudal.skin(c.rig, solved), surfaces)
        assert q >= 0.998, (c.index, q)


def test_info_lists_the_characters(two_wolves):
    text = run("info", str(two_wolves)).stdout
    assert "2 characters" in text
    assert text.count("43 joints, 3994 vertices") == 2
    info = json.loads(run("info", str(two_wolves), "--json").stdout)
    assert [c["index"] for c in info["characters"]] == [0, 1]
    assert all(
        c["height"] == pytest.approx(info["characters"][0]["height"]) for c in info["characters"]
    )
    assert "height" not in info  # no single height for a file of two


def test_report_measures_every_character(two_wolves):
    out = run("report", str(two_wolves), "--clip", "Walk", "--samples", "4", "--json")
    rep = json.loads(out.stdout)
    assert [c["character"] for c in rep["characters"]] == [0, 1]
    rows = [{r["rig"]: r for r in c["clips"][0]["rows"]} for c in rep["characters"]]
    for r in rows:
        assert r["rigid"]["max"] == pytest.approx(
            1.0, abs=1e-3
        )  # the harness's self-check, per character
    assert rows[0]["chain"]["p95"] == pytest.approx(
        rows[1]["chain"]["p95"], rel=1e-3
    )  # two identical wolves
    one = json.loads(
        run(
            "report",
            str(two_wolves),
            "--clip",
            "Walk",
            "--samples",
            "4",
            "--character",
            "1",
            "--json",
        ).stdout
    )
    assert [c["character"] for c in one["characters"]] == [1] and "clips" in one
