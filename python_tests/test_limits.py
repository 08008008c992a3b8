"""Absurd sizes and counts are ParameterErrors naming the bound (issue 14):
a clip's frames times joints, a skinning request's frames times vertices,
and every user-set iteration count. Each call that would abort the
interpreter without its bound runs in a child process under a 4 GiB address-space limit."""

from __future__ import annotations

import textwrap

import pytest
from conftest import asset
from hostile import fox, run_isolated, write_glb

import caudal


def expect_parameter_error(code: str, pattern: str) -> str:
    out = run_isolated(
        "import caudal, numpy as np\n"
        + "from conftest import asset\n"
        + "try:\n"
        + textwrap.indent(textwrap.dedent(code), "    ")
        + "\n    print('NO ERROR')\n"
        + "except caudal.ParameterError as e:\n    print('ParameterError:', e)\n"
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.startswith("ParameterError:"), out.stdout + out.stderr[-2000:]
    import re

    assert re.search(pattern, out.stdout), out.stdout
    return out.stdout


def test_a_keyframe_at_ten_million_seconds(tmp_path):
    doc, bin_ = fox()
    # The Survey clip's input accessor: its last key moved to 1e7 s (max too).
    sampler = doc["animations"][0]["samplers"][0]
    acc = doc["accessors"][sampler["input"]]
    view = doc["bufferViews"][acc["bufferView"]]
    import struct

    b = bytearray(bin_)
    last = view.get("byteOffset", 0) + acc.get("byteOffset", 0) + 4 * (acc["count"] - 1)
    b[last : last + 4] = struct.pack("<f", 1e7)
    acc["max"] = [1e7]
    p = write_glb(tmp_path / "long.glb", doc, bytes(b))
    name = doc["animations"][0]["name"]
    expect_parameter_error(f"caudal.load({str(p)!r}).clip({name!r})", r"max_bytes")


def test_clip_at_a_billion_frames_per_second():
    expect_parameter_error(
        f"caudal.load({str(asset('fox/Fox.glb'))!r}).clip('Walk', rate=1e9)",
        r"rate.*max_bytes|max_bytes.*rate",
    )


def test_clip_rate_can_be_raised_past_the_default_budget_only_by_asking():
    m = caudal.load(asset("fox/Fox.glb"))
    assert m.clip("Walk", rate=1000.0).frame_count == 709


def test_crouch_at_a_trillion_frames_per_second():
    expect_parameter_error(
        "m = caudal.load("
        + repr(str(asset("fox/Fox.glb")))
        + ")\ncaudal.crouch_clip(m.rig, 0.1, rate=1e12)",
        r"rate",
    )


def test_skin_a_million_frames():
    expect_parameter_error(
        "m = caudal.load("
        + repr(str(asset("fox/Fox.glb")))
        + ")\ncaudal.skin(m.rig, m.clip('Walk'), frames=[0] * 10**6)",
        r"frames.*max_bytes",
    )


def test_skin_budget_can_be_raised():
    m = caudal.load(asset("fox/Fox.glb"))
    clip = m.clip("Walk")
    with pytest.raises(caudal.ParameterError, match="max_bytes"):
        caudal.skin(m.rig, clip, frames=[0] * 100, max_bytes=100_000)
    assert caudal.skin(m.rig, clip, frames=[0] * 100, max_bytes=10**9).shape == (100, 1728, 3)


RIG = "rig = caudal.load(asset('fox/Fox_notail.glb')).rig\n"
STILL = "still = caudal.Clip('c', 30.0, [[[0, 0, 0]] * rig.joint_count] * 2, [[[0, 0, 0, 1]] * rig.joint_count] * 2)\n"
GROWN = "grown = caudal.grow_chains(rig)[0]\n"

BOUND_CASES = [
    ("smoothing_passes", RIG + "caudal.grow_chains(rig, smoothing_passes=10**9)"),
    ("max_substeps", RIG + GROWN + "caudal.TailSpring(grown, max_substeps=10**9)"),
    (
        "max_warmup_passes",
        RIG
        + GROWN
        + STILL.replace("rig.", "grown.")
        + "caudal.bake_clip(grown, still, max_warmup_passes=10**9)",
    ),
    (
        "max_settle",
        RIG
        + GROWN
        + STILL.replace("rig.", "grown.")
        + "caudal.bake_clip(grown, still, loop='once', max_settle=1e12)",
    ),
    ("max_sweeps", RIG + STILL + "caudal.transfer_clip(rig, still, rig, max_sweeps=10**12)"),
    (
        "samples",
        "caudal.stretch_table(caudal.load(asset('fox/Fox_notail.glb')), ['Walk'], samples=10**9)",
    ),
    ("max_bones", RIG + "caudal.grow_chains(rig, max_bones=10**6)"),
]


@pytest.mark.parametrize("field,code", BOUND_CASES, ids=[c[0] for c in BOUND_CASES])
def test_iteration_counts_have_an_upper_bound(field, code):
    expect_parameter_error(code, rf"{field}.*(at most|above|<=)")


def test_info_prints_a_chain_of_five_thousand_joints(tmp_path):
    """`caudal info` recursed past about 990 joint levels; the tree is
    printed iteratively, in text and JSON."""
    import subprocess
    import sys

    from hostile import deep_chain

    p = write_glb(tmp_path / "deep.glb", *deep_chain(5000))
    for extra in [[], ["--json"]]:
        out = subprocess.run(
            [sys.executable, "-m", "caudal.cli", "info", str(p), *extra],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr[-2000:]
        assert "j4999" in out.stdout
    text = subprocess.run(
        [sys.executable, "-m", "caudal.cli", "info", str(p)], capture_output=True, text=True
    ).stdout
    assert "  " * 4999 + "j4999" in text
