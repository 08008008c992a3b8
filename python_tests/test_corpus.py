"""The generated corpus from Python: `caudal.generated_creature(seed)` gives
the degraded GLB, the artist's GLB and the truth dict (issue 12 item 5).

Checked here with tools that share no code with the generator: caudal's
reader maps the truth's per-primitive vertex lists onto its rig, the
independent numpy glTF reader skins both files at rest and around the walk,
and the Khronos validator reads every kind of file the corpus writes.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import validate_gltf
from gltf_numpy import NumpyGltf, skinned_positions

import caudal


def rig_indices(model: caudal.Model | caudal.Character, lists: list[dict]) -> np.ndarray:
    offsets = {(p["mesh"], p["primitive"]): p["vertex_offset"] for p in model.primitives()}
    return np.concatenate(
        [offsets[(v["mesh"], v["primitive"])] + np.asarray(v["vertices"]) for v in lists]
    )


def centre_line_offset(points: np.ndarray, tail: dict) -> np.ndarray:
    """Distance of each point from the true centre line over the local skin radius."""
    line = np.asarray(tail["centre_line"])
    radius = np.asarray(tail["centre_radius"])
    if tail["buried_start"] is not None:
        line = np.vstack([tail["buried_start"], line])
        radius = np.r_[tail["root_radius"], radius]
    best = np.full(len(points), np.inf)
    for k in range(len(line) - 1):
        a, b = line[k], line[k + 1]
        ab = b - a
        t = np.clip(((points - a) @ ab) / max(float(ab @ ab), 1e-12), 0.0, 1.0)
        d = np.linalg.norm(points - (a + np.outer(t, ab)), axis=1)
        best = np.minimum(best, d / (radius[k] + t * (radius[k + 1] - radius[k])))
    return best


def test_a_seed_gives_two_files_and_the_truth_every_time():
    glb, artist, truth = caudal.generated_creature(3)
    assert isinstance(glb, bytes) and isinstance(artist, bytes) and glb[:4] == b"glTF"
    assert truth["seed"] == 3 and truth["format"] == "caudal corpus truth v1"
    assert set(truth["classes"]) <= set(caudal.corpus_classes())
    again = caudal.generated_creature(3)
    assert again[0] == glb and again[1] == artist and again[2] == truth
    assert caudal.generated_creature(4)[0] != glb


def test_the_truth_maps_onto_the_loaded_rig():
    for seed in range(6):
        glb, artist, truth = caudal.generated_creature(seed, force="rotated_bind")
        character = truth["characters"][0]
        model = caudal.load_bytes(glb)
        rig = model.rig
        assert character["pelvis"] in rig.joint_names
        ys = np.asarray(rig.vertices)[:, 1]
        assert abs((ys.max() - ys.min()) - character["height"]) < 1e-4 * character["height"]
        tail = character["tails"][0]
        vertices = rig_indices(model, tail["vertices"])
        assert len(vertices) == tail["vertex_count"]
        assert all(n not in rig.joint_names for n in tail["artist_joints"])
        assert all(n in caudal.load_bytes(artist).rig.joint_names for n in tail["artist_joints"])


def test_every_class_can_be_forced_and_unknown_ones_are_refused():
    for name in caudal.corpus_classes():
        assert name in caudal.generated_creature(1, force=name)[2]["classes"]
    with pytest.raises(caudal.ParameterError, match="unknown corpus class"):
        caudal.generated_creature(1, force="tentacles")


@pytest.mark.parametrize(
    "force", ["units_and_axes", "unwelded", "separate_shell", "multi_character"]
)
def test_an_independent_reader_finds_the_tail_on_its_tube(tmp_path, force):
    """Skinned at rest by the numpy reader (scene space, armature node
    applied), the true tail vertices reach out to the tube round the true
    centre line (the fur's, or the skin's without fur) and no further; the
    artist's walk comes back to its first pose."""
    glb, artist, truth = caudal.generated_creature(7, force=force)
    for name, data in [("degraded.glb", glb), ("artist.glb", artist)]:
        path = tmp_path / name
        path.write_bytes(data)
        g = NumpyGltf(path)
        rest = skinned_positions(g, None, 0.0)
        # Concatenated in node order; the truth's meshes are numbered in the same order.
        starts, offset = {}, 0
        for n in g.doc["nodes"]:
            if "mesh" in n and "skin" in n:
                for p, prim in enumerate(g.doc["meshes"][n["mesh"]]["primitives"]):
                    starts[(n["mesh"], p)] = offset
                    offset += g.accessor(prim["attributes"]["POSITION"]).shape[0]
        for character in truth["characters"]:
            for tail in character["tails"]:
                idx = np.concatenate(
                    [
                        starts[(v["mesh"], v["primitive"])] + np.asarray(v["vertices"])
                        for v in tail["vertices"]
                    ]
                )
                # Out to the fur under a fur shell, the skin without (fur_scale 1).
                reach = centre_line_offset(rest[idx], tail).max()
                assert tail["fur_scale"] / 1.03 <= reach <= tail["fur_scale"] * 1.03
        walk = [i for i, a in enumerate(g.doc["animations"]) if a["name"] == "Walk"][0]
        np.testing.assert_allclose(
            skinned_positions(g, walk, 0.0),
            skinned_positions(g, walk, 1.0),
            atol=1e-4 * truth["characters"][0]["height"],
        )


@pytest.mark.parametrize(
    "force",
    [
        "units_and_axes",
        "rotated_bind",
        "unwelded",
        "multi_character",
        "names_rigify",
        "separate_shell",
        "fur_shell",
        "uv_seams",
        "cape_or_skirt",
        "names_maya",
    ],
)
def test_generated_files_pass_the_gltf_validator(tmp_path, force):
    glb, artist, _ = caudal.generated_creature(11, force=force)
    for name, data in [("degraded.glb", glb), ("artist.glb", artist)]:
        path = tmp_path / name
        path.write_bytes(data)
        report = validate_gltf(path)
        assert report["errors"] == 0, (force, name, report)


def test_two_characters_are_read_as_two_with_their_own_truth():
    glb, _, truth = caudal.generated_creature(5, force="multi_character")
    model = caudal.load_bytes(glb)
    assert len(model.characters) == len(truth["characters"]) == 2
    for character in truth["characters"]:
        loaded = model.characters[character["skin"]]
        assert abs(loaded.height - character["height"]) < 1e-4 * character["height"]
        assert character["pelvis"] in loaded.rig.joint_names
        assert (
            len(rig_indices(loaded, character["tails"][0]["vertices"]))
            == character["tails"][0]["vertex_count"]
        )
