"""Edge stretch (SPEC M1) from Python: the self-check, a known answer, the
table for the Fox, and the report command with its plot."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest
from conftest import asset

import caudal


def strip_rig() -> caudal.Rig:
    """A strip along +X; columns >= 6 ride joint 1 (head at x = 6)."""
    cols = 11
    v = np.array([[c, r, 0] for c in range(cols) for r in range(2)], dtype=np.float32)
    tris = []
    for c in range(cols - 1):
        a, b, d, e = 2 * c, 2 * c + 1, 2 * c + 2, 2 * c + 3
        tris += [[a, d, b], [b, d, e]]
    joint = np.array([[1 if c >= 6 else 0] for c in range(cols) for _ in range(2)])
    bind = np.stack([np.eye(4), np.eye(4)]).astype(np.float32)
    bind[1, 0, 3] = 6.0
    return caudal.Rig(
        v,
        np.array(tris),
        joint,
        np.ones_like(joint, dtype=np.float32),
        ["Hips", "Tail"],
        [-1, 0],
        bind_matrices=bind,
    )


def test_known_stretch_and_rigid_self_check():
    rig = strip_rig()
    frames = 25
    t = np.zeros((frames, 2, 3), np.float32)
    t[:, 1, 0] = 6.0 + 0.8 * (np.arange(frames) % 2)
    r = np.zeros((frames, 2, 4), np.float32)
    r[..., 3] = 1
    clip = caudal.Clip("t", 24.0, t, r)
    tail = np.arange(8, 22)
    out = caudal.edge_stretch(rig, clip, tail, anchor="Hips")
    assert out["tail"]["max"] == pytest.approx(1.8, abs=1e-5)
    assert out["body"]["max"] == pytest.approx(1.0, abs=1e-6)
    assert out["motion"]["amplitude_deg"] < 1e-3
    # The same tail all on the pelvis: exactly 1 (the harness checks itself).
    rigid = caudal.Rig(
        rig.vertices,
        rig.triangles,
        np.zeros((22, 1), np.int64),
        np.ones((22, 1), np.float32),
        ["Hips", "Tail"],
        [-1, 0],
        bind_matrices=rig.bind_matrices,
    )
    out = caudal.edge_stretch(rigid, clip, tail, anchor="Hips")
    assert out["tail"]["min"] == pytest.approx(1.0, abs=1e-6) and out["tail"][
        "max"
    ] == pytest.approx(1.0, abs=1e-6)
    assert out["tail"]["torn_share"] == 0.0
    with pytest.raises(caudal.RigError, match="tail_vertices"):
        caudal.edge_stretch(rig, clip, [99])
    with pytest.raises(caudal.UnknownJointError, match="anchor"):
        caudal.edge_stretch(rig, clip, tail, anchor="Nope")


@pytest.fixture(scope="module")
def fox_walk():
    return caudal.stretch_table(caudal.load(asset("fox/Fox_notail.glb")), ["Walk"], ratios=True)[0]


def test_fox_walk_table(fox_walk):
    rows = {r["rig"]: r for r in fox_walk["rows"]}
    assert list(rows) == ["original", "rigid", "chain", "body", "collar"]
    assert rows["rigid"]["min"] == pytest.approx(1.0, abs=1e-4) and rows["rigid"][
        "max"
    ] == pytest.approx(1.0, abs=1e-4)
    assert rows["rigid"]["amplitude_deg"] < 0.01
    assert rows["original"]["torn_share"] > 0.1  # the shin-driven tail tears
    assert rows["chain"]["p99"] < rows["body"]["p99"] < rows["original"]["p99"]
    assert rows["chain"]["amplitude_deg"] > 2.0 and rows["chain"]["swing_deg"] > 2.0
    assert rows["body"]["amplitude_deg"] is None
    # The seam between tail and body is measured apart from both.
    assert (
        fox_walk["collar_edges"] > 0 and rows["collar"]["samples"] == 24 * fox_walk["collar_edges"]
    )
    assert rows["collar"]["amplitude_deg"] is None
    r = rows["chain"]["ratios"]
    assert r.shape == (rows["chain"]["samples"],) and np.all(np.diff(r) >= 0)
    assert (
        fox_walk["samples"] == 24 and fox_walk["rows"][0]["samples"] == 24 * fox_walk["tail_edges"]
    )
    assert fox_walk["bake"]["looping"] and fox_walk["bake"]["closure_deg"] < 0.5


def run(*args):
    return subprocess.run(
        [sys.executable, "-m", "caudal.cli", *args], capture_output=True, text=True
    )


def test_report_command_text_json_and_plot(tmp_path):
    fox = str(asset("fox/Fox_notail.glb"))
    out = run("report", fox, "--clip", "Walk")
    assert out.returncode == 0, out.stderr
    assert "| rigid to pelvis | 1.00 | 1.00 | 1.00 | 0.0% | 0.0 deg | 0.0 deg |" in out.stdout
    assert "tail chain" in out.stdout and "body, for comparison" in out.stdout
    assert "bend capacity" not in out.stdout  # the Fox's tail is slender enough
    alpaca = run("report", str(asset("quaternius_alpaca/Alpaca_notail.glb")), "--clip", "Walk")
    assert "bend capacity 0.77" in alpaca.stdout, alpaca.stdout
    out = run("report", fox, "--clip", "Walk,Run", "--json")
    data = json.loads(out.stdout)
    assert [c["clip"] for c in data["clips"]] == ["Walk", "Run"]
    pytest.importorskip("matplotlib")
    png = tmp_path / "stretch.png"
    out = run("report", fox, "--clip", "Walk", "--plot", str(png))
    assert out.returncode == 0, out.stderr
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    bad = run("report", fox, "--clip", "Nope")
    assert bad.returncode == 2 and "Nope" in bad.stderr


def test_report_measures_the_repair_its_growth_options_make():
    """`caudal report --min-bones 2 --max-bones 2 --spring ...` measures the
    two-bone chain with that spring (stretch_table's own figures for it),
    not the default repair; a pelvis no character has is refused."""
    fox = str(asset("fox/Fox_notail.glb"))
    args = ["--clip", "Walk", "--samples", "6", "--json"]
    two = ["--min-bones", "2", "--max-bones", "2", "--spring", "carry_deg=10"]
    out = run("report", fox, *args, *two)
    assert out.returncode == 0, out.stderr
    (entry,) = json.loads(out.stdout)["clips"]
    model = caudal.load(fox)
    grow = {"min_bones": 2, "max_bones": 2}
    (expected,) = caudal.stretch_table(
        model, ["Walk"], samples=6, grow=grow, spring={"carry_deg": 10.0}
    )
    (default,) = caudal.stretch_table(model, ["Walk"], samples=6)

    def p99(e):
        return next(r["p99"] for r in e["rows"] if r["rig"] == "chain")

    assert p99(entry) == pytest.approx(p99(expected), rel=1e-6)
    assert p99(entry) != pytest.approx(p99(default), rel=1e-6)
    bad = run("report", fox, *args, "--pelvis", "Nope")
    assert bad.returncode == 2 and "--pelvis: no joint named 'Nope'" in bad.stderr
