"""glTF in and out on the shared assets: counts, roles, skinning against an
independent numpy implementation, round trips, validator, atomic writes."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest
from conftest import asset, rotation_track, validate_gltf
from gltf_numpy import NumpyGltf, skinned_positions

import caudal

# (file, joints, vertices, clips) as listed in assets/README.md
MODELS = [
    ("fox/Fox.glb", 24, 1728, 3),
    ("fox/Fox_notail.glb", 21, 1728, 3),
    ("quaternius_wolf/Wolf.gltf", 51, 3994, 12),
    ("quaternius_wolf/Wolf_notail.glb", 43, 3994, 12),
    ("quaternius_shiba_inu/ShibaInu.gltf", 46, 3966, 12),
    ("quaternius_shiba_inu/ShibaInu_notail.glb", 43, 3966, 12),
    ("quaternius_alpaca/Alpaca.gltf", 46, 4156, 13),
    ("quaternius_alpaca/Alpaca_notail.glb", 43, 4156, 13),
    ("quaternius_monkroose/Monkroose.glb", 43, 3355, 14),
    ("robot_expressive/RobotExpressive.glb", 43, 7214, 14),
    ("cesium_man/CesiumMan.glb", 19, 3273, 19),
]


def info_json(path) -> dict:
    out = subprocess.run(
        [sys.executable, "-m", "caudal.cli", "info", str(path), "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout)


@pytest.mark.parametrize("rel,joints,verts,clips", MODELS)
def test_info_reports_the_documented_counts(rel, joints, verts, clips):
    info = info_json(asset(rel))
    assert info["joint_count"] == joints
    assert info["vertex_count"] == verts
    assert len(info["clips"]) == clips
    assert info["height"] > 0
    assert info["roles"]["pelvis"] is not None
    assert all(t is not None for t in info["roles"]["thighs"])


def test_roles_are_the_expected_joints():
    fox = caudal.load(asset("fox/Fox.glb")).rig.roles()
    assert fox["pelvis"] == "b_Hip_01"
    assert fox["thighs"] == ["b_LeftLeg01_015", "b_RightLeg01_019"]
    assert fox["shins"] == ["b_LeftLeg02_016", "b_RightLeg02_020"]
    assert fox["head"] == "b_Head_05"
    wolf = caudal.load(asset("quaternius_wolf/Wolf_notail.glb")).rig.roles()
    # The Wolf's BackShoulder.* joints are a sideways connector, not legs: skipped.
    assert (wolf["pelvis"], wolf["thighs"], wolf["shins"]) == (
        "Back",
        ["BackLeg.L", "BackLeg.R"],
        ["BackUpperLeg.L", "BackUpperLeg.R"],
    )
    monk = caudal.load(asset("quaternius_monkroose/Monkroose.glb")).rig.roles()
    # The legs hang from `Body`; `Hips` only carries the torso: structure wins
    # and the report says what it overruled.
    assert monk["pelvis"] == "Body" and monk["thighs"] == ["UpperLeg.L", "UpperLeg.R"]
    pelvis = next(s for s in monk["sources"] if s["role"] == "pelvis")
    assert pelvis["rule"] == "topology" and "Hips" in pelvis["overruled"]
    # CesiumMan's joints are unnamed: roles come from the skeleton's shape.
    cesium = caudal.load(asset("cesium_man/CesiumMan.glb")).rig.roles()
    rules = {s["role"]: s["rule"] for s in cesium["sources"]}
    assert cesium["pelvis"] == "node2" and rules["pelvis"] == "topology"
    assert cesium["thighs"] == ["node7", "node3"]  # facing +X, so left is -Z
    assert cesium["head"] == "node20"


def test_role_overrides_by_name():
    rig = caudal.load(asset("fox/Fox.glb")).rig
    roles = rig.roles({"pelvis": "b_Spine01_02"})
    assert roles["pelvis"] == "b_Spine01_02"
    src = next(s for s in roles["sources"] if s["role"] == "pelvis")
    assert (src["joint"], src["rule"]) == ("b_Spine01_02", "override")
    assert "b_Hip_01" in src["overruled"]
    with pytest.raises(caudal.UnknownJointError, match="b_Nope"):
        rig.roles({"pelvis": "b_Nope"})


@pytest.mark.parametrize("rel", [m[0] for m in MODELS])
def test_bind_pose_skinning_is_the_identity(rel):
    rig = caudal.load(asset(rel)).rig
    posed = caudal.skin_bind_pose(rig)
    assert np.abs(posed - rig.vertices).max() <= 1e-5 * rig.height


@pytest.mark.parametrize(
    "rel,clip",
    [
        ("fox/Fox.glb", "Walk"),
        ("fox/Fox.glb", "Run"),
        ("fox/Fox.glb", "Survey"),
        ("quaternius_wolf/Wolf.gltf", "Walk"),
        ("quaternius_wolf/Wolf.gltf", "Gallop"),
    ],
)
def test_skinning_agrees_with_independent_numpy_at_24_times(rel, clip):
    model = caudal.load(asset(rel))
    reference = NumpyGltf(asset(rel))
    ai = model.clip_names.index(clip)
    duration = model.animations()[ai]["duration"]
    sampled = model.clip(clip, rate=23.0 / duration)
    assert sampled.frame_count == 24
    ours = caudal.skin(model.rig, sampled)
    worst = 0.0
    for f, t in enumerate(sampled.times):
        theirs = skinned_positions(reference, ai, float(t))
        worst = max(worst, float(np.abs(ours[f] - theirs).max()))
    # float32 core against float64 numpy: agreement to 1e-5 of the height.
    assert worst <= 1e-5 * model.rig.height, worst


def test_wolf_has_five_roots_and_animated_scale():
    model = caudal.load(asset("quaternius_wolf/Wolf.gltf"))
    assert int((model.rig.parents == -1).sum()) == 5
    assert any("scale" in a["paths"] for a in model.animations())


def test_unchanged_round_trip_gives_identical_arrays(tmp_path):
    for rel in [
        "fox/Fox.glb",
        "quaternius_wolf/Wolf.gltf",
        "cesium_man/CesiumMan.glb",
        "robot_expressive/RobotExpressive.glb",
    ]:
        a = caudal.load(asset(rel))
        out = tmp_path / "rt.glb"
        a.write(out)
        b = caudal.load(out)
        for attr in [
            "vertices",
            "triangles",
            "skin_joints",
            "skin_weights",
            "parents",
            "bind_matrices",
            "inverse_bind_matrices",
            "rest_translations",
            "rest_rotations",
            "rest_scales",
        ]:
            assert np.array_equal(getattr(a.rig, attr), getattr(b.rig, attr)), (rel, attr)
        assert a.rig.joint_names == b.rig.joint_names
        assert a.clip_names == b.clip_names
        ca, cb = a.clip(a.clip_names[0]), b.clip(b.clip_names[0])
        assert np.array_equal(ca.rotations, cb.rotations) and np.array_equal(
            ca.translations, cb.translations
        )
        report = validate_gltf(out)
        assert report["errors"] == 0, (rel, report["messages"][:5])


def test_everything_else_in_the_file_survives(tmp_path):
    src = asset("fox/Fox.glb")
    out = tmp_path / "fox.glb"
    model = caudal.load(src)
    rig = add_bone(model.rig, "Extra", parent="b_Hip_01", vertices=np.arange(10))
    model.write(out, rig=rig)
    before, after = NumpyGltf(src).doc, NumpyGltf(out).doc
    for key in ["materials", "textures", "images", "samplers", "asset"]:
        assert before.get(key) == after.get(key), key
    assert len(after["animations"]) == len(before["animations"])
    for a, b in zip(before["animations"], after["animations"], strict=False):
        assert a["channels"] == b["channels"] and a["name"] == b["name"]
    # The texture's bytes are carried over unchanged.
    img = before["images"][0]
    ref, new = NumpyGltf(src), NumpyGltf(out)
    bv_a, bv_b = (
        before["bufferViews"][img["bufferView"]],
        after["bufferViews"][after["images"][0]["bufferView"]],
    )
    data_a = ref.buffers[0][
        bv_a.get("byteOffset", 0) : bv_a.get("byteOffset", 0) + bv_a["byteLength"]
    ]
    data_b = new.buffers[0][
        bv_b.get("byteOffset", 0) : bv_b.get("byteOffset", 0) + bv_b["byteLength"]
    ]
    assert data_a == data_b
    assert validate_gltf(out)["errors"] == 0


def add_bone(rig: caudal.Rig, name: str, parent: str, vertices: np.ndarray) -> caudal.Rig:
    """A new rig with one bone appended under `parent` (same bind rotation,
    offset a little) carrying the given vertices fully."""
    names = rig.joint_names + [name]
    p = names.index(parent)
    bind = np.concatenate([rig.bind_matrices, rig.bind_matrices[p : p + 1]])
    bind[-1, :3, 3] += np.array([0.0, 0.0, -0.1]) * rig.height
    joints, weights = rig.skin_joints.copy(), rig.skin_weights.copy()
    joints[vertices] = 0
    weights[vertices] = 0
    joints[vertices, 0] = len(names) - 1
    weights[vertices, 0] = 1.0
    parents = np.append(rig.parents, p)
    local = np.linalg.inv(bind[p]) @ bind[-1]
    return caudal.Rig(
        rig.vertices,
        rig.triangles,
        joints,
        weights,
        names,
        parents,
        bind_matrices=bind,
        rest_translations=np.concatenate([rig.rest_translations, local[None, :3, 3]]),
        rest_rotations=np.concatenate([rig.rest_rotations, [[0, 0, 0, 1]]]),
        rest_scales=np.concatenate([rig.rest_scales, [[1, 1, 1]]]),
    )


def test_added_bone_reads_back_with_its_weights(tmp_path):
    model = caudal.load(asset("quaternius_wolf/Wolf_notail.glb"))
    rig = add_bone(model.rig, "Extra", parent="Back", vertices=np.arange(50, 80))
    out = tmp_path / "extra.glb"
    model.write(out, rig=rig)
    back = caudal.load(out)
    assert back.rig.joint_names[-1] == "Extra"
    assert back.rig.joint_names[back.rig.parents[-1]] == "Back"
    assert np.allclose(back.rig.bind_matrices[-1], rig.bind_matrices[-1], atol=1e-5 * rig.height)
    assert np.array_equal(back.rig.skin_joints[50:80, 0], np.full(30, len(rig.joint_names) - 1))
    assert np.allclose(back.rig.skin_weights, rig.skin_weights, atol=1e-6)
    # The original clips still play, and skinning is unchanged off the new bone.
    clip = back.clip("Walk")
    assert np.allclose(
        caudal.skin(back.rig, clip, [5])[0][100:],
        caudal.skin(model.rig, model.clip("Walk"), [5])[0][100:],
        atol=1e-5,
    )
    assert validate_gltf(out)["errors"] == 0


def test_more_than_four_influences_go_to_joints_1(tmp_path):
    model = caudal.load(asset("fox/Fox.glb"))
    rig = model.rig
    j = np.zeros((rig.vertex_count, 6), dtype=np.uint32)
    w = np.zeros((rig.vertex_count, 6), dtype=np.float32)
    j[:, :6] = np.arange(2, 8)
    w[:, :6] = np.array([0.3, 0.2, 0.2, 0.1, 0.1, 0.1])
    six = caudal.Rig(
        rig.vertices,
        rig.triangles,
        j,
        w,
        rig.joint_names,
        rig.parents,
        bind_matrices=rig.bind_matrices,
    )
    out = tmp_path / "six.glb"
    model.write(out, rig=six)
    doc = NumpyGltf(out).doc
    assert {"JOINTS_1", "WEIGHTS_1"} <= set(doc["meshes"][0]["primitives"][0]["attributes"])
    back = caudal.load(out)
    assert back.rig.skin_weights.shape[1] == 6
    assert np.allclose(np.sort(back.rig.skin_weights, axis=1), np.sort(w, axis=1), atol=1e-6)
    assert validate_gltf(out)["errors"] == 0


def test_gltf_output_with_embedded_buffer(tmp_path):
    model = caudal.load(asset("fox/Fox.glb"))
    out = tmp_path / "fox.gltf"
    model.write(out)
    text = out.read_text()
    assert text.lstrip().startswith("{") and "data:application/octet-stream;base64," in text
    assert np.array_equal(caudal.load(out).rig.vertices, model.rig.vertices)
    assert validate_gltf(out)["errors"] == 0


def test_written_animation_tracks_read_back(tmp_path):
    model = caudal.load(asset("fox/Fox.glb"))
    times = np.linspace(0, 0.5, 11, dtype=np.float32)
    angles = np.linspace(0, 1, 11)
    rot = np.stack(
        [np.sin(angles / 2), np.zeros(11), np.zeros(11), np.cos(angles / 2)], axis=1
    ).astype(np.float32)
    out = tmp_path / "tracks.glb"
    model.write(
        out,
        tracks=[rotation_track("Wag", "b_Tail01_012", times, rot)],
    )
    back = caudal.load(out)
    assert "Wag" in back.clip_names
    clip = back.clip("Wag", rate=20.0)
    j = back.rig.joint_names.index("b_Tail01_012")
    assert np.allclose(clip.rotations[:, j], rot, atol=1e-6)
    assert validate_gltf(out)["errors"] == 0
