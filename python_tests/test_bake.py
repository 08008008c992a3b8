"""Baking (SPEC B): loop-closed keys written into each clip, read back by an
independent reader and played by Blender's importer; inputs never touched (R)."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import asset, import_bpy, run_cli, validate_gltf
from gltf_numpy import NumpyGltf

import caudal

CLOSURE_DEG = 0.5
SEAM_RATIO = 1.5


@pytest.fixture(scope="module")
def demo():
    model = caudal.demo_creature()
    return model, caudal.bake(model)


def written_rotations(path, clip: str, joint: str) -> tuple[np.ndarray, np.ndarray]:
    """Key times and rotations of one joint's rotation channel, read with numpy."""
    g = NumpyGltf(path)
    node = next(i for i, n in enumerate(g.doc["nodes"]) if n.get("name") == joint)
    anim = next(a for a in g.doc["animations"] if a["name"] == clip)
    ch = next(
        c
        for c in anim["channels"]
        if c["target"]["node"] == node and c["target"]["path"] == "rotation"
    )
    s = anim["samplers"][ch["sampler"]]
    assert s["interpolation"] == "LINEAR"
    return g.accessor(s["input"])[:, 0], g.accessor(s["output"])


def test_demo_walk_is_a_closed_loop(demo):
    model, bake = demo
    assert bake.appendages is not None and any(
        p["decision"] == "chain" for p in bake.appendages["parts"]
    )
    (walk,) = bake.clips
    s = walk.summary()
    assert walk.looping and s["loop_detected"] and s["converged"]
    assert s["warmup_passes"] > 1  # the tip settles slowest: one pass is not enough
    assert s["closure_deg"] <= CLOSURE_DEG
    assert s["seam_ratio"] <= SEAM_RATIO
    rot = walk.rotations
    assert rot.shape == (len(walk.times), len(walk.bones), 4)
    assert walk.bones == [
        b for b in bake.rig.joint_names if b.startswith("Tail_") and b != "Tail_End"
    ]
    # The tail actually moves over the cycle.
    assert np.abs(rot - rot[:1]).max() > 0.02


def test_bake_clip_equals_the_model_bake(demo):
    model, bake = demo
    (walk,) = bake.clips
    one = caudal.bake_clip(bake.rig, model.clip("Walk", rig=bake.rig))
    assert one.bones == walk.bones and one.looping
    np.testing.assert_array_equal(one.rotations, walk.rotations)
    s = one.summary()
    assert s["converged"] and s["seam_blend_deg"] == 0.0 and s["closure_deg"] <= CLOSURE_DEG
    assert s["bend_capacity"] == 1.0  # the demo's tail is slender
    once = caudal.bake_clip(bake.rig, model.clip("Walk", rig=bake.rig), loop="once").summary()
    assert not once["looping"] and once["closure_deg"] is None
    with pytest.raises(ValueError, match="clip"):
        caudal.bake_clip(bake.rig, model.clip("Walk", 30.0))


def test_a_loop_that_never_repeats_is_blended_shut():
    # An 18 degree lift lets the Fox's tail graze the floor on Walk; its
    # motion then repeats only every third cycle (see rust_tests/bake/loops.rs).
    # Carry is a target elevation and the tail is modelled 48 degrees above
    # straight down: carry 66.
    model = caudal.load(asset("fox/Fox_notail.glb"))
    rig = caudal.bake(model, clips=["Walk"]).rig
    b = caudal.bake_clip(rig, model.clip("Walk", rig=rig), spring={"carry_deg": 66.0}).summary()
    assert not b["converged"] and b["seam_blend_deg"] > CLOSURE_DEG
    assert b["closure_deg"] < 1e-3 and b["seam_ratio"] <= SEAM_RATIO


def test_written_keys_read_back_and_validate(demo, tmp_path):
    model, bake = demo
    out = tmp_path / "creature_tail.glb"
    bake.write(out)
    assert validate_gltf(out)["errors"] == 0
    (walk,) = bake.clips
    for b, joint in enumerate(walk.bones):
        times, values = written_rotations(out, "Walk", joint)
        np.testing.assert_allclose(times, walk.times, atol=1e-6)
        want = walk.rotations[:, b]
        sign = np.sign(np.sum(values * want, axis=1, keepdims=True))
        np.testing.assert_allclose(values * sign, want, atol=1e-6)
    # The same through caudal's own reader, at the key times.
    back = caudal.load(out)
    idx = [back.rig.joint_names.index(j) for j in walk.bones]
    got = back.clip("Walk", rate=30).rotations[:, idx]
    sign = np.sign(np.sum(got * walk.rotations, axis=2, keepdims=True))
    np.testing.assert_allclose(got * sign, walk.rotations, atol=1e-6)


def test_tracks_for_model_write_match_bake_write(demo, tmp_path):
    model, bake = demo
    a, b = tmp_path / "a.glb", tmp_path / "b.glb"
    bake.write(a)
    model.write(b, rig=bake.rig, tracks=bake.tracks())
    assert a.read_bytes() == b.read_bytes()


def test_result_dicts_hold_the_keys_their_stubs_declare(demo):
    # The TypedDicts a type checker reads are the dicts the core returns.
    _, bake = demo
    for clip in bake.clips:
        assert list(clip.summary()) == list(caudal.BakeSummary.__annotations__)
    for chain in caudal.tail_chains(bake.rig):
        assert set(chain) == set(caudal.TailChainNames.__annotations__)
    for track in bake.tracks():
        assert set(track) == set(caudal.Track.__annotations__)


def test_inputs_are_never_touched_and_runs_repeat(demo):
    model, _ = demo
    before = (model.rig.vertices.copy(), model.rig.skin_weights.copy(), list(model.rig.joint_names))
    one = caudal.bake(model)
    two = caudal.bake(model, one.rig)
    after = (model.rig.vertices, model.rig.skin_weights, model.rig.joint_names)
    assert (
        np.array_equal(before[0], after[0])
        and np.array_equal(before[1], after[1])
        and before[2] == after[2]
    )
    assert np.array_equal(one.clips[0].rotations, two.clips[0].rotations)


def test_fox_clips_bake_per_clip_modes(tmp_path):
    model = caudal.load(asset("fox/Fox_notail.glb"))
    bake = caudal.bake(model, clips=["Walk", "Survey"], loops={"Survey": "once"})
    walk, survey = bake.clips
    assert walk.looping and not survey.looping
    assert survey.summary()["closure_deg"] is None
    out = tmp_path / "fox_tail.glb"
    bake.write(out)
    report = validate_gltf(out)
    assert report["errors"] == 0, report
    names = [a["name"] for a in caudal.load(out).animations()]
    assert names == [a["name"] for a in model.animations()]  # keys go into the existing clips


def test_bad_input_names_the_field():
    model = caudal.demo_creature()
    with pytest.raises(caudal.NotFoundError, match="NoSuchClip"):
        caudal.bake(model, clips=["NoSuchClip"])
    with pytest.raises(caudal.ParameterError, match="spring.stiffness"):
        caudal.bake(model, spring={"stiffness": 3})
    with pytest.raises(caudal.ParameterError, match="^rate"):
        caudal.bake(model, rate=0)
    with pytest.raises(caudal.ParameterError, match="loops"):
        caudal.bake(model, loops={"Walk": "sometimes"})
    with pytest.raises(caudal.NotFoundError, match="chains"):
        caudal.bake(model, model.rig)  # a rig without a grown chain
    with pytest.raises(caudal.UnknownJointError):
        caudal.bake(model, caudal.bake(model).rig, chains=[["Tail_1", "Nope"]])


@pytest.mark.blender
def test_blender_plays_the_baked_tail(demo, tmp_path):
    bpy = import_bpy()
    model, bake = demo
    out = tmp_path / "creature_tail.glb"
    bake.write(out)
    bpy.ops.wm.read_homefile(use_empty=True)
    bpy.context.scene.render.fps = 30
    bpy.ops.import_scene.gltf(filepath=str(out))
    arm = next(o for o in bpy.context.scene.objects if o.type == "ARMATURE")
    (walk,) = bake.clips
    action = next(a for a in bpy.data.actions if a.name.startswith("Walk"))
    arm.animation_data.action = action
    # Where our own forward kinematics puts each tail joint at each key
    # (glTF Y up -> Blender Z up: (x, y, z) -> (x, -z, y)).
    clip = caudal.load(out).clip("Walk", rate=30)
    rig = caudal.load(out).rig
    worlds = caudal.world_matrices_of(rig, clip)
    first = min(kp.co[0] for fc in _fcurves(action) for kp in fc.keyframe_points)
    tips = [j for j in walk.bones[1:]] + ["Tail_End"]
    height = float(np.ptp(rig.vertices[:, 1]))
    moved = []
    for f in (0, 7, 15, 22, 30):
        bpy.context.scene.frame_set(int(round(first + f)))
        for j in tips:
            ours = worlds[f, rig.joint_names.index(j), :3, 3]
            theirs = np.array(arm.matrix_world @ arm.pose.bones[j].head)
            assert (
                np.linalg.norm(theirs - np.array([ours[0], -ours[2], ours[1]])) < 1e-3 * height
            ), (f, j)
        moved.append(np.array(arm.matrix_world @ arm.pose.bones["Tail_End"].head))
    # ...and the tail tip really travels in Blender over the cycle.
    assert max(np.linalg.norm(m - moved[0]) for m in moved) > 0.02 * height


def _fcurves(action):
    fcs = getattr(action, "fcurves", None)
    if fcs is not None and len(fcs):
        return list(fcs)
    # Blender 4.4+ layered actions keep curves in channelbags.
    out = []
    for layer in action.layers:
        for strip in layer.strips:
            for bag in strip.channelbags:
                out.extend(bag.fcurves)
    return out


def test_demo_command_bakes_and_reports(tmp_path):
    import json
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-m", "caudal.cli", "demo", "--out", str(tmp_path / "d"), "--json"],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    r = json.loads(out.stdout)
    assert r["roundtrip_identical"] is True
    assert r["tail"]["walk"]["looping"] and r["tail"]["walk"]["closure_deg"] <= CLOSURE_DEG
    assert r["tail"]["bones"][0] == "Tail_1" and r["tail"]["anchor"] == "mixamorig:Hips"
    rows = {x["rig"]: x for x in r["stretch"]["rows"]}
    assert rows["rigid"]["max"] == pytest.approx(1.0, abs=1e-4)
    g = r["grounding"]
    assert (
        g["extra_lift_tail_counted"] > 0.05
        and g["lift_tail_excluded"] == 0.0
        and abs(g["body_check_end"]) <= 1e-3
    )
    assert validate_gltf(r["files"]["tail"])["errors"] == 0
    assert validate_gltf(r["files"]["creature"])["errors"] == 0


def test_tail_command_bakes_selected_clips(tmp_path):
    import json

    out = tmp_path / "fox_tail.glb"
    r = run_cli(
        "tail", asset("fox/Fox_notail.glb"), "-o", out, "--bake", "--clips", "Walk,Run", "--json"
    )
    assert r.returncode == 0, r.stderr
    baked = json.loads(r.stdout)["bake"]
    assert [b["name"] for b in baked] == ["Walk", "Run"] and all(b["looping"] for b in baked)
    assert validate_gltf(out)["errors"] == 0
    g = NumpyGltf(out)
    tail_nodes = {i for i, n in enumerate(g.doc["nodes"]) if n.get("name", "").startswith("Tail_")}
    keyed = {
        a["name"]: {c["target"]["node"] for c in a["channels"]} & tail_nodes
        for a in g.doc["animations"]
    }
    assert keyed["Walk"] and keyed["Run"] and not keyed["Survey"]


def test_tail_command_takes_spring_and_loop_settings(tmp_path):
    import json
    import subprocess
    import sys

    def tail(*extra):
        out = tmp_path / "wolf_tail.glb"
        cmd = [
            sys.executable,
            "-m",
            "caudal.cli",
            "tail",
            str(asset("quaternius_wolf/Wolf_notail.glb")),
            "-o",
            str(out),
        ]
        return subprocess.run(
            cmd + ["--bake", "--clips", "Walk,Death", "--json", *extra],
            capture_output=True,
            text=True,
        )

    plain = tail()
    assert plain.returncode == 0, plain.stderr
    walk0, death0 = json.loads(plain.stdout)["bake"]
    r = tail(
        "--spring",
        "carry_deg=20",
        "--spring",
        "ground=off",
        "--loop",
        "Walk=once",
        "--loop",
        "Death=loop",
    )
    assert r.returncode == 0, r.stderr
    walk, death = json.loads(r.stdout)["bake"]
    assert walk0["looping"] and not death0["looping"]
    assert not walk["looping"] and death["looping"]  # the modes were applied
    bad = tail("--spring", "stop_deg=400")
    assert bad.returncode == 2 and "stop_deg" in bad.stderr
    bad = tail("--spring", "carry_deg")
    assert bad.returncode == 2 and "NAME=VALUE" in bad.stderr
