"""The surface solver from Python (SPEC X): control run, degraded rig,
rotation-only, the quality formula recomputed in numpy, float64 input,
skinning matrices, the optional report, point clouds, bad input, the CLI."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest
from conftest import asset, validate_gltf

import caudal


def clip24(model: caudal.Model, name: str) -> caudal.Clip:
    duration = next(a["duration"] for a in model.animations() if a["name"] == name)
    clip = model.clip(name, 23.0 / duration)
    assert clip.frame_count == 24
    return clip


@pytest.fixture(scope="module")
def fox() -> caudal.Model:
    return caudal.load(asset("fox/Fox.glb"))


@pytest.fixture(scope="module")
def fox_notail() -> caudal.Model:
    return caudal.load(asset("fox/Fox_notail.glb"))


def lbs(rig: caudal.Rig, skinning: np.ndarray) -> np.ndarray:
    """Linear blend skinning in float64 with [F, B, 4, 4] matrices."""
    v = np.c_[rig.vertices.astype(np.float64), np.ones(rig.vertex_count)]
    joints, weights = rig.skin_joints, rig.skin_weights.astype(np.float64)
    out = np.zeros((len(skinning), rig.vertex_count, 3))
    for k in range(joints.shape[1]):
        m = skinning[:, joints[:, k]]  # F, N, 4, 4
        out += weights[None, :, k, None] * np.einsum("fnij,nj->fni", m, v)[..., :3]
    return out


def test_control_run_meets_the_article_bar(fox):
    clip = clip24(fox, "Walk")
    surfaces = caudal.skin(fox.rig, clip)
    solved, report = caudal.solve_surface(fox.rig, surfaces, name="Walk", rate=clip.rate)
    assert report["mean_error"] <= 0.008e-2 and report["worst_error"] <= 0.08e-2
    assert report["quality"] >= 0.998
    n = fox.rig.vertex_count
    assert report["errors"].shape == (24, n) and report["colours"].shape == (24, n, 3)
    # Every vertex is essentially exact: the heat map is blue.
    assert np.all(report["colours"][..., 2] > 0.99) and np.all(report["colours"][..., 0] < 0.01)
    # The report's quality is the documented formula, recomputed here.
    skinned = caudal.skin(fox.rig, solved)
    num = np.linalg.norm(skinned.astype(np.float64) - surfaces, axis=2).sum()
    den = np.linalg.norm(surfaces.astype(np.float64) - fox.rig.vertices[None], axis=2).sum()
    assert abs((1 - num / den) - report["quality"]) < 1e-6
    assert solved.name == "Walk" and solved.joint_count == fox.rig.joint_count
    assert report["quality_halfway"] is None  # surfaces alone say nothing between frames


def test_solved_carries_float64_skinning_matrices_beside_the_clip(fox):
    clip = clip24(fox, "Run")
    result = caudal.solve_surface(fox.rig, caudal.skin(fox.rig, clip), rate=clip.rate)
    assert isinstance(result, caudal.Solved) and len(result) == 2
    m = result.skinning
    assert m.dtype == np.float64 and m.shape == (24, fox.rig.joint_count, 4, 4)
    assert np.allclose(m[:, :, 3], [0, 0, 0, 1])
    # The matrices skin the rig as the clip does (to the clip's float32).
    by_matrices = lbs(fox.rig, m)
    by_clip = caudal.skin(fox.rig, result.clip).astype(np.float64)
    assert np.abs(by_matrices - by_clip).max() < 1e-5 * fox.rig.diagonal
    assert np.array_equal(result.times, result.clip.times)


def test_float64_surfaces_are_solved_without_a_float32_floor(fox):
    # Surfaces of the rig's own clip computed in float64: the control run
    # must come back to 1e-9 of the diagonal (float32 data stop near 1e-7).
    clip = clip24(fox, "Walk")
    exact = caudal.solve_surface(
        fox.rig, caudal.skin(fox.rig, clip), rate=clip.rate, report="none"
    ).skinning
    surfaces = lbs(fox.rig, exact)
    solved = caudal.solve_surface(fox.rig, surfaces, rate=clip.rate, report="summary")
    err = np.linalg.norm(lbs(fox.rig, solved.skinning) - surfaces, axis=2).max() / fox.rig.diagonal
    assert err <= 1e-9, err
    as_f32 = caudal.solve_surface(
        fox.rig, surfaces.astype(np.float32), rate=clip.rate, report="none"
    )
    err32 = (
        np.linalg.norm(lbs(fox.rig, as_f32.skinning) - surfaces, axis=2).max() / fox.rig.diagonal
    )
    assert err < err32 / 100, (err, err32)


def test_report_none_costs_only_the_solve_and_changes_no_answer(fox):
    clip = clip24(fox, "Walk")
    surfaces = caudal.skin(fox.rig, clip)
    full = caudal.solve_surface(fox.rig, surfaces, rate=clip.rate)
    bare = caudal.solve_surface(fox.rig, surfaces, rate=clip.rate, report="none")
    summary = caudal.solve_surface(fox.rig, surfaces, rate=clip.rate, report="summary")
    assert bare.report is None
    assert np.array_equal(bare.skinning, full.skinning)
    assert "errors" not in summary.report and "colours" not in summary.report
    assert summary.report["quality"] == full.report["quality"]


def test_a_point_cloud_rig_is_solved_without_triangles(fox):
    r = fox.rig
    cloud = caudal.Rig(
        r.vertices,
        None,
        r.skin_joints,
        r.skin_weights,
        r.joint_names,
        r.parents,
        bind_matrices=r.bind_matrices,
    )
    assert cloud.triangles.shape == (0, 3)
    clip = clip24(fox, "Walk")
    solved = caudal.solve_surface(cloud, caudal.skin(r, clip), rate=clip.rate)
    assert solved.report["quality"] >= 0.998
    # A transfer onto it ties the cloud to the Fox's surface; a transfer
    # *from* a cloud ties each vertex to the nearest cloud point.
    onto = caudal.transfer_clip(r, clip, cloud)
    assert onto.report["correspondence"]["gap_max"] < 1e-9 and onto.report["quality"] >= 0.998
    from_cloud = caudal.transfer_clip(cloud, clip, r)
    assert from_cloud.report["quality"] >= 0.998
    # Stages that need a surface say so.
    with pytest.raises(caudal.RigError, match="triangles: empty mesh.*appendage detection"):
        caudal.find_appendages(cloud)


def test_rotation_only_keeps_bone_lengths(fox):
    clip = clip24(fox, "Run")
    solved, report = caudal.solve_surface(fox.rig, caudal.skin(fox.rig, clip), mode="rotation_only")
    assert report["mode"] == "rotation_only" and report["bone_length_change"] == 0.0
    parents = fox.rig.parents
    lengths = np.linalg.norm(solved.translations, axis=2)[:, parents >= 0]
    assert np.ptp(lengths, axis=0).max() == 0.0
    assert report["quality"] >= 0.998


def test_degraded_rig_scores_worse_on_the_tail(fox, fox_notail):
    clip = clip24(fox, "Walk")
    solved, report = caudal.transfer_clip(fox.rig, clip, fox_notail.rig)
    corr = report["correspondence"]
    assert corr["gap_max"] == 0.0 and corr["alignment"] == "none" and corr["scale"] == 1.0
    truth = json.loads(asset("fox/Fox_notail.truth.json").read_text())
    tail = np.array(truth["tail_vertices"])
    targets = caudal.skin(fox.rig, clip)  # same mesh: the projected target is the source surface
    skinned = caudal.skin(fox_notail.rig, solved)
    q_tail = caudal.transfer_quality(fox_notail.rig, skinned, targets, tail)
    q_all = caudal.transfer_quality(fox_notail.rig, skinned, targets)
    assert q_all == pytest.approx(report["quality_keys"], abs=1e-5)
    assert q_tail < q_all < 0.95
    # The gap layer: zero everywhere on the same mesh, and its own colours.
    assert corr["gap"].shape == (fox_notail.rig.vertex_count,) and not corr["gap"].any()
    assert np.all(corr["gap_colours"][:, 2] == 1.0)
    # The worst bones are named, worst first; the tail's skin rides the legs.
    names = [name for name, _ in report["worst_bones"]]
    errors = [e for _, e in report["worst_bones"]]
    assert errors == sorted(errors, reverse=True) and set(names) <= set(fox_notail.rig.joint_names)


def test_the_source_keys_are_kept(fox):
    # The Fox's Run is keyed every 1/24 s with a 0.2 s hole in the middle.
    keyed = fox.clip("Run", keys=True)
    assert keyed.frame_count == 25
    steps = np.diff(keyed.times)
    assert steps.max() == pytest.approx(0.2, abs=1e-4) and steps.min() == pytest.approx(
        1 / 24, abs=1e-4
    )
    solved = caudal.transfer_clip(fox.rig, keyed, fox.rig)
    assert np.array_equal(solved.times, keyed.times)
    assert solved.report["quality"] >= 0.998 and solved.report["quality_halfway"] >= 0.998
    tracks = caudal.clip_tracks(fox, solved.clip)
    assert all(np.array_equal(t["times"], keyed.times) for t in tracks)
    with pytest.raises(caudal.ParameterError, match="rate"):
        fox.clip("Run", 30.0, keys=True)
    # A fixed-step stage refuses uneven keys rather than mistiming them.
    with pytest.raises(caudal.ParameterError, match="uneven"):
        caudal.bake_clip(fox.rig, keyed)


def test_bad_input_names_the_field(fox):
    with pytest.raises(caudal.RigError, match="surfaces"):
        caudal.solve_surface(fox.rig, np.zeros((2, 5, 3)))
    bad = np.repeat(fox.rig.vertices[None], 2, axis=0)
    bad[1, 7, 0] = np.nan
    with pytest.raises(caudal.RigError, match="surfaces"):
        caudal.solve_surface(fox.rig, bad)
    with pytest.raises(caudal.RigError, match="surfaces"):
        caudal.solve_surface(fox.rig, bad.astype(np.float64))
    with pytest.raises(caudal.ParameterError, match="mode"):
        caudal.solve_surface(fox.rig, bad[:1], mode="bones")
    with pytest.raises(caudal.ParameterError, match="report"):
        caudal.solve_surface(fox.rig, bad[:1], report="all")
    with pytest.raises(caudal.ParameterError, match="max_sweeps"):
        caudal.solve_surface(fox.rig, bad[:1], max_sweeps=0)
    with pytest.raises(caudal.RigError, match="times"):
        caudal.solve_surface(fox.rig, bad[:1], times=[0.0, 1.0])
    with pytest.raises(caudal.ParameterError, match="times"):
        caudal.solve_surface(fox.rig, np.repeat(bad[:1], 2, axis=0), times=[1.0, 0.5])
    with pytest.raises(caudal.ParameterError, match="alignment"):
        caudal.transfer_clip(fox.rig, fox.clip("Walk"), fox.rig, alignment="icp")


def test_rest_poses_that_cannot_be_aligned_are_refused(fox):
    # The Fox's clip onto the Wolf: not the same character.
    wolf = caudal.load(asset("quaternius_wolf/Wolf_decimated.glb"))
    with pytest.raises(caudal.ParameterError, match="alignment: the rest poses cannot be aligned"):
        caudal.transfer_clip(fox.rig, fox.clip("Walk"), wolf.rig)


def cli(*args, check=True):
    return subprocess.run(
        [sys.executable, "-m", "caudal.cli", "solve", *map(str, args)],
        capture_output=True,
        text=True,
        check=check,
    )


def test_cli_writes_the_solved_clip_into_the_target(tmp_path, fox, fox_notail):
    out = tmp_path / "fox_walk.glb"
    rep = tmp_path / "report.json"
    src, dst = asset("fox/Fox.glb"), asset("fox/Fox_notail.glb")
    # The target already has a Walk: it is not replaced silently.
    refused = cli(src, "--clip", "Walk", dst, "-o", out, check=False)
    assert refused.returncode == 2 and "--replace" in refused.stderr and not out.exists()
    done = cli(src, "--clip", "Walk", dst, "-o", out, "--replace", "--report", rep)
    report = json.loads(rep.read_text())
    assert (
        0.5 < report["quality"] < 0.95 and report["mode"] == "rigid" and report["keys"] == "source"
    )
    # Below the stated quality: a warning naming the bones that fail.
    assert "warning: transfer quality" in done.stderr and report["worst_bones"][0][0] in done.stderr
    written = caudal.load(out)
    assert written.rig.joint_count == fox_notail.rig.joint_count
    assert written.clip_names.count("Walk") == 1
    # The written animation plays back the solved clip: re-solve in Python
    # and compare the surfaces the written file produces.
    clip = fox.clip("Walk", keys=True)
    solved = caudal.transfer_clip(fox.rig, clip, fox_notail.rig).clip
    back = written.clip("Walk", keys=True)
    assert np.allclose(back.times, solved.times)
    a, b = caudal.skin(written.rig, back), caudal.skin(fox_notail.rig, solved)
    assert a.shape == b.shape
    assert np.abs(a - b).max() < 1e-4 * fox_notail.rig.diagonal
    assert validate_gltf(out)["errors"] == 0
    # Or beside it, under another name.
    beside = tmp_path / "beside.glb"
    cli(src, "--clip", "Walk", dst, "-o", beside, "--name", "Walk_solved", "--warn-below", "0")
    names = caudal.load(beside).clip_names
    assert "Walk" in names and "Walk_solved" in names


def test_cli_suggests_rotation_only_when_bones_stretch(tmp_path):
    # The tail-less Fox's legs carry the tail's skin: to follow it, the rigid
    # solve slides joints far beyond anything the artist's clip does.
    def run(*mode):
        out = tmp_path / "run.glb"
        src, dst = asset("fox/Fox.glb"), asset("fox/Fox_notail.glb")
        return cli(src, "--clip", "Run", dst, "-o", out, "--name", "Run2", *mode, "--json")

    done = run()
    result = json.loads(done.stdout)
    assert result["stretched_bones"], result["bone_length_change"]
    assert "--mode rotation_only" in done.stderr
    calm = run("--mode", "rotation_only")
    assert (
        "rotation_only" not in calm.stderr and json.loads(calm.stdout)["bone_length_change"] == 0.0
    )
