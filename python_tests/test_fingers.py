"""Finger merging (``caudal.merge_fingers``, ``caudal tail --merge-fingers``):
the finger joints found by name and hierarchy, their skin weight on the
hands, the same as the add-on's own numpy rules gave."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import numpy as np
import pytest
from addon_harness import helpers
from conftest import ROOT, asset

import caudal

FINGERS = ["mixamorig:LeftHandIndex1", "mixamorig:LeftHandIndex2", "mixamorig:LeftHandThumb1"]


def with_fingers(rig):
    """The rig with three finger joints under the left hand, each taking
    half of the hand's weight on a third of its vertices (the Blender
    test's creature)."""
    names = list(rig.joint_names) + FINGERS
    hand = rig.joint_names.index("mixamorig:LeftHand")
    first = rig.joint_count
    parents = np.append(rig.parents, [hand, first, hand])
    bind = np.concatenate([rig.bind_matrices] + [rig.bind_matrices[hand : hand + 1]] * 3)
    dense = helpers().rig_edit.dense_weights(rig.skin_joints, rig.skin_weights, len(names))
    verts = np.flatnonzero(dense[:, hand] > 0.2)
    assert len(verts) >= 6
    for k in range(3):
        v = verts[k::3]
        dense[v, first + k] = dense[v, hand] * 0.5
        dense[v, hand] *= 0.5
    rows, cols, w = helpers().rig_edit.sparse_of(dense)
    sj, sw = helpers().rig_edit.padded_influences(rows, cols, w, rig.vertex_count)
    return caudal.Rig(
        rig.vertices, rig.triangles, sj, sw, names, parents, bind_matrices=bind, normalize=True
    )


# An independent numpy implementation of the finger rules (the add-on's own
# before they moved into the core): what caudal.merge_fingers must reproduce.
_DIGIT = re.compile(r"(finger|thumb|index|middle|ring|pinky|pinkie|little|f_)", re.IGNORECASE)
_HAND = re.compile(r"(hand|wrist|palm)(?!le)", re.IGNORECASE)


def reference_merges(names, parents):
    def digit_below(j):
        kids = np.flatnonzero(parents == j)
        return any(_DIGIT.search(names[c]) or digit_below(int(c)) for c in kids)

    out = []
    for j, name in enumerate(names):
        hand, digit, p = None, bool(_DIGIT.search(name)), int(parents[j])
        while p >= 0:
            if _HAND.search(names[p]) and not _DIGIT.search(names[p]):
                hand = p
            elif hand is None:
                digit = digit or bool(_DIGIT.search(names[p]))
            p = int(parents[p])
        if hand is not None and (digit or digit_below(j)):
            out.append((j, hand))
    return out


def reference_merged(dense, merges):
    out = dense.copy()
    for finger, hand in merges:
        out[:, hand] += out[:, finger]
        out[:, finger] = 0.0
    return out


def rigs_with_fingers():
    """The demo creature with fingers added, and every asset whose
    skeleton has fingers under a hand by the reference rules."""
    yield "demo creature + fingers", with_fingers(caudal.demo_creature().rig)
    for path in sorted((ROOT / "assets").glob("*/*.glb")):
        for ch in caudal.load(path).characters:
            rig = ch.rig
            if reference_merges(list(rig.joint_names), np.asarray(rig.parents)):
                yield f"{path.parent.name}/{path.name}", rig


def test_core_finger_merging_matches_the_reference_rules():
    pkg = helpers()
    seen = 0
    for label, rig in rigs_with_fingers():
        names = list(rig.joint_names)
        merges = reference_merges(names, np.asarray(rig.parents))
        merged, pairs = caudal.merge_fingers(rig)
        assert pairs == [(names[f], names[h]) for f, h in merges], label
        dense = pkg.rig_edit.dense_weights(rig.skin_joints, rig.skin_weights, rig.joint_count)
        got = pkg.rig_edit.dense_weights(
            merged.skin_joints, merged.skin_weights, merged.joint_count
        )
        np.testing.assert_array_equal(got, reference_merged(dense, merges), err_msg=label)
        assert merged.joint_names == names and np.array_equal(merged.parents, rig.parents)
        seen += 1
    assert seen >= 2  # the creature and at least one real rig with hands


def test_finger_detection_by_name_and_hierarchy():
    names = "Hips Spine hand.L f_index.01.L f_index.02.L thumb.01.L palm.01.L f_middle.01.L Ring_belt Tail_1 handle grip_finger".split()
    parents = np.array([-1, 0, 1, 2, 3, 2, 2, 6, 1, 0, 1, 10])
    n = len(names)
    bind = np.tile(np.eye(4, dtype=np.float32), (n, 1, 1))
    bind[:, 1, 3] = np.arange(n)
    verts = np.random.default_rng(3).random((n, 3)).astype(np.float32)
    rig = caudal.Rig(
        verts,
        np.array([[0, 1, 2]], np.uint32),
        np.arange(n, dtype=np.uint32)[:, None],
        np.ones((n, 1), np.float32),
        names,
        parents,
        bind_matrices=bind,
    )
    merged, pairs = caudal.merge_fingers(rig)
    # A palm bone is a finger when a digit hangs from it; a belt ring is not
    # under a hand, nor is a finger-named grip under a handle.
    assert set(pairs) == {
        ("f_index.01.L", "hand.L"),
        ("f_index.02.L", "hand.L"),
        ("thumb.01.L", "hand.L"),
        ("palm.01.L", "hand.L"),
        ("f_middle.01.L", "hand.L"),
    }
    dense = helpers().rig_edit.dense_weights(merged.skin_joints, merged.skin_weights, n)
    hand = names.index("hand.L")
    assert dense[:, hand].sum() == pytest.approx(6.0)
    assert dense[[3, 4, 5, 6, 7], :].argmax(axis=1).tolist() == [hand] * 5


def test_cli_merge_fingers_writes_the_robot_with_its_finger_weight_on_the_palms(tmp_path):
    src = asset("robot_expressive/RobotExpressive.glb")
    out = tmp_path / "robot.glb"
    done = subprocess.run(
        [sys.executable, "-m", "caudal.cli", "tail", str(src), "-o", str(out), "--merge-fingers"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    assert (
        "merged 12 finger joint(s) into Palm1.L, Palm1.R, Palm2.L, Palm2.R, Palm3.L, Palm3.R\n"
        in done.stdout
    )
    before, after = caudal.load(src).characters[0].rig, caudal.load(out).characters[0].rig
    rig_edit = helpers().rig_edit
    dense = rig_edit.dense_weights(before.skin_joints, before.skin_weights, before.joint_count)
    merges = reference_merges(list(before.joint_names), np.asarray(before.parents))
    want = reference_merged(dense, merges)
    got = rig_edit.dense_weights(after.skin_joints, after.skin_weights, after.joint_count)
    assert after.joint_names[: before.joint_count] == before.joint_names
    # The robot has no tail to grow: the written weights are the merged ones.
    np.testing.assert_allclose(got[:, : before.joint_count], want, atol=1e-6)
    assert not got[:, [f for f, _ in merges]].any()


@pytest.mark.parametrize("flag", [[], ["--merge-fingers"]])
def test_cli_report_lists_the_merges_only_when_asked(tmp_path, flag):
    out = tmp_path / "creature.glb"
    src = tmp_path / "in.glb"
    caudal.demo_creature().write(src)
    done = subprocess.run(
        [sys.executable, "-m", "caudal.cli", "tail", str(src), "-o", str(out), "--json", *flag],
        capture_output=True,
        text=True,
        check=True,
    )
    report = json.loads(done.stdout)
    assert ("merged_fingers" in report) == bool(flag)
    if flag:
        assert report["merged_fingers"] == []  # a Mixamo 22-bone rig has no fingers


def test_batch_settings_carry_the_merge_to_the_repair():
    """``caudal batch --merge-fingers`` and a manifest column reach the
    repair ``caudal tail`` runs."""
    off = caudal.RepairSettings()
    on = off.with_overrides({"merge_fingers": "yes"}, "manifest.csv:2")
    assert not off.tail_args().merge_fingers and on.tail_args().merge_fingers
    assert on.digest() != off.digest()
