"""caudal.testing: each assertion passes on a good repair and fails on a
known-bad case with a message naming the clip, the time, the worst edge,
vertex or bone, and the figure against its bound; the pytest plugin, run on
examples/pytest (one passing test, one failing), says the same."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import numpy as np
import pytest
from conftest import ROOT, asset, rotation_track

import caudal
import caudal.testing as ct

FOX = asset("fox/Fox_notail.glb")
TRUTH = asset("fox/Fox_notail.truth.json")


def fails(match: str, check, *args, **kwargs) -> str:
    with pytest.raises(AssertionError) as info:
        check(*args, **kwargs)
    message = str(info.value)
    assert re.search(match, message), message
    return message


def test_caudal_s_repair_of_the_fox_passes_every_check():
    ct.assert_tail_found(FOX, TRUTH, min_recall=0.9, min_precision=0.9)
    for clip in ["Walk", "Run", "Survey"]:
        ct.assert_loop_closes(FOX, clip, deg=0.5)
        ct.assert_body_unchanged(FOX, clip)
    # Run is left out: on today's chain two edges at the tail's root fold
    # below 0.67x there (issue 13, the tail's root).
    for clip in ["Walk", "Survey"]:
        ct.assert_no_new_tears(FOX, clip)


def test_tail_found_fails_on_a_truth_the_chain_does_not_cover():
    truth = json.loads(TRUTH.read_text())
    # The truth's tail plus as many body vertices: recall can be at most about a half.
    body = sorted(set(range(truth["n_vertices"])) - set(truth["tail_vertices"]))[
        : len(truth["tail_vertices"])
    ]
    wider = {**truth, "tail_vertices": sorted(truth["tail_vertices"] + body)}
    message = fails(
        r"recall 0\.[0-5]\d* against at least 0\.9; worst missed: vertex \d+ \(0% chain weight, weighted most to b_",
        ct.assert_tail_found,
        FOX,
        wider,
    )
    assert "Fox_notail.glb: the tail chains own 180 of 360 true tail vertices" in message


def test_tail_found_reads_the_generated_corpus_truth_per_character():
    glb, _, truth = caudal.generated_creature(5, force="multi_character")
    model = caudal.load_bytes(glb, label="two.glb")
    ct.assert_tail_found(model, truth, min_recall=0.9)
    # A "tail" of three vertices of each primitive that no chain moves.
    free = {}
    for ch in model.characters:
        rig, _ = caudal.grow_chains(ch.rig)
        tail_joints = [i for i, n in enumerate(rig.joint_names) if n.startswith("Tail")]
        moved = (np.isin(rig.skin_joints, tail_joints) & (rig.skin_weights > 0)).any(axis=1)
        for p in ch.primitives():
            local = np.flatnonzero(
                ~moved[p["vertex_offset"] : p["vertex_offset"] + p["vertex_count"]]
            )
            free[(p["mesh"], p["primitive"])] = [int(i) for i in local[:3]]

    def top(layer):
        return free[(layer["mesh"], layer["primitive"])]

    none = {
        **truth,
        "characters": [
            {
                **c,
                "tails": [
                    {**t, "vertices": [{**v, "vertices": top(v)} for v in t["vertices"]]}
                    for t in c["tails"]
                ],
            }
            for c in truth["characters"]
        ],
    }
    fails(
        r"two\.glb character \d '.*': the tail chains own 0 of 3", ct.assert_tail_found, model, none
    )


def test_no_new_tears_fails_on_the_rigger_s_own_weights():
    # The delivered file taken as its own "repair": the leg weights fold and
    # tear the tail (SPEC M1: 11.4% torn) where the rigid baseline tears nothing.
    message = fails(
        r"Fox_notail\.glb, clip 'Walk': the repair tears \d+ edge\(s\) .* that the rigid baseline keeps; "
        r"worst: edge \d+-\d+ \(vertex \d+ weighted most to b_\w+\) at t=\d\.\d{3} s, (stretched|shrunk) to \d+\.\d\dx its bind length against the bound (1\.5|0\.67)x",
        ct.assert_no_new_tears,
        FOX,
        "Walk",
        repaired=FOX,
    )
    assert "weighted most to b_Tail" not in message


def test_loop_closes_fails_on_a_one_shot_bake_and_on_a_clip_that_does_not_loop():
    settings = caudal.RepairSettings(bake=True, samples=0, loops={"Walk": "once"})
    fails(
        r"Fox_notail\.glb, clip 'Walk': the tail does not close its loop: Tail_\d at t=0\.708 s \(the loop point\) is \d+\.\d{3} deg from its pose at t=0 against the bound 0\.5 deg",
        ct.assert_loop_closes,
        FOX,
        "Walk",
        settings=settings,
    )
    glb, _, _ = caudal.generated_creature(3)
    creature = caudal.load_bytes(glb, label="creature.glb")
    fails(
        r"creature\.glb, clip 'Crouch': the clip does not loop: .* at t=\d+\.\d{3} s is \d+\.\d{3} deg from its pose at t=0",
        ct.assert_loop_closes,
        creature,
        "Crouch",
    )


def test_body_unchanged_fails_when_the_written_clip_moves_the_hips(tmp_path):
    fox = caudal.load(FOX)
    walk = fox.clip("Walk")
    hip = fox.rig.joint_names.index("b_Hip_01")
    tilt = np.array(
        [np.sin(np.radians(2.5)), 0.0, 0.0, np.cos(np.radians(2.5))], np.float32
    )  # 5 deg about x
    rotations = np.asarray(walk.rotations)[:, hip]
    x, y, z, w = tilt
    tilted = np.stack(
        [
            w * rotations[:, 0] + x * rotations[:, 3] + y * rotations[:, 2] - z * rotations[:, 1],
            w * rotations[:, 1] - x * rotations[:, 2] + y * rotations[:, 3] + z * rotations[:, 0],
            w * rotations[:, 2] + x * rotations[:, 1] - y * rotations[:, 0] + z * rotations[:, 3],
            w * rotations[:, 3] - x * rotations[:, 0] - y * rotations[:, 1] - z * rotations[:, 2],
        ],
        axis=1,
    ).astype(np.float32)
    moved = tmp_path / "hips_tilted.glb"
    fox.write(
        moved,
        tracks=[rotation_track("Walk", "b_Hip_01", walk.times, tilted)],
    )
    fails(
        r"Fox_notail\.glb, clip 'Walk': body vertex \d+ \(weighted most to b_\w+\) moved \d+\.\d{3}% of the height at t=\d\.\d{3} s against the bound 0\.200%; 1,728 vertices checked",
        ct.assert_body_unchanged,
        FOX,
        "Walk",
        repaired=moved,
    )
    ct.assert_body_unchanged(FOX, "Run", repaired=moved)  # the other clips are as delivered


def test_transfer_quality_passes_its_bound_and_fails_above_it():
    artist = asset("fox/Fox.glb")
    ct.assert_transfer_quality(artist, FOX, "Walk", at_least=0.8)
    fails(
        r"clip 'Walk' from Fox\.glb onto Fox_notail\.glb: transfer quality 8\d\.\d% against at least 95\.0%; worst: vertex \d+ \(weighted most to b_\w+\) at t=\d\.\d{3} s, \d+\.\d\d% of the diagonal",
        ct.assert_transfer_quality,
        artist,
        FOX,
        "Walk",
        at_least=0.95,
    )


def test_the_plugin_runs_the_example_directory_with_one_pass_and_one_failure():
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-q",
            "-rf",
            str(ROOT / "examples" / "pytest"),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert run.returncode == 1, run.stdout + run.stderr
    assert "1 failed, 1 passed" in run.stdout, run.stdout
    assert (
        "FAILED examples/pytest/test_a_failure.py::test_walk_carries_onto_the_template_rig"
        in run.stdout
    )
    assert re.search(
        r"\nE +AssertionError: clip 'Walk' from Fox\.glb onto Fox_notail\.glb: "
        r"transfer quality 8\d\.\d% against at least 95\.0%; worst: vertex \d+ \(weighted most to b_\w+\) at t=\d\.\d{3} s",
        run.stdout,
    ), run.stdout
