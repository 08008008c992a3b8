"""The add-on's bpy-free helpers, tested without Blender (no ``blender``
mark, no bpy): axes, the result card, the build plan (fingers merged by the
core, the bone tails), rig-table bookkeeping and the spring settings."""

from __future__ import annotations

import subprocess
import sys
from types import SimpleNamespace

import numpy as np
import pytest
from addon_harness import helpers
from conftest import ROOT, asset
from test_fingers import FINGERS, reference_merged, reference_merges, with_fingers

import caudal

BPY_FREE = ("axes", "card", "plan", "rig_edit", "rig_table", "spring_settings")


def test_helpers_import_with_bpy_unavailable():
    """The package and its helpers import where ``import bpy`` fails."""
    code = (
        "import sys; sys.modules['bpy'] = None\n"
        f"import addon\nfrom addon import {', '.join(BPY_FREE)}\n"
        "assert spring_settings.defaults()\n"
        "assert sys.modules['bpy'] is None\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr


def table_of(rig):
    """A rig table as ``bpy_arrays.read_rig`` makes it, from a caudal rig."""
    pkg = helpers()
    dense = pkg.rig_edit.dense_weights(rig.skin_joints, rig.skin_weights, rig.joint_count)
    return pkg.rig_table.RigTable(
        armature="test",
        joint_names=list(rig.joint_names),
        parents=np.asarray(rig.parents, dtype=np.int32),
        bind_core=np.asarray(rig.bind_matrices, dtype=np.float64),
        vertices_core=np.asarray(rig.vertices, dtype=np.float64),
        triangles=np.asarray(rig.triangles),
        dense=dense,
        meshes=[pkg.rig_table.MeshSlice("body", 0, rig.vertex_count)],
    )


def test_plan_merges_fingers_and_lists_them_for_removal():
    pkg = helpers()
    rig = with_fingers(caudal.demo_creature().rig)
    table = table_of(rig)
    p = pkg.plan.plan(table, use_tail=False, use_fingers=False)
    assert p.removed == FINGERS
    assert p.hand_of == {f: "mixamorig:LeftHand" for f in FINGERS}
    merges = reference_merges(table.joint_names, table.parents)
    np.testing.assert_allclose(p.dense, reference_merged(table.dense, merges), atol=1e-6)
    fingered = np.flatnonzero(table.dense[:, rig.joint_count - 3 :].sum(axis=1) > 0)
    np.testing.assert_array_equal(p.rows, fingered)
    assert p.new_joints == [] and p.report is None
    kept = pkg.plan.plan(table, use_tail=False, use_fingers=True)
    assert kept.removed == [] and kept.rows.size == 0


def test_plan_grows_the_fox_tail_as_the_core_does():
    pkg = helpers()
    rig = caudal.load(asset("fox/Fox_notail.glb")).rig
    p = pkg.plan.plan(table_of(rig), use_tail=True, use_fingers=False)
    want, report = caudal.grow_chains(table_of(rig).to_rig())
    assert p.names == list(want.joint_names) and p.removed == []
    assert [p.names[j] for j in p.new_joints][-1] == "Tail_End"
    assert p.report["pelvis"] == report["pelvis"] == "b_Hip_01"
    assert p.rows.size > 0


def test_new_bone_tails_never_collapse():
    """Blender deletes zero-length bones when leaving edit mode, so a child
    head on top of its parent's still gets a short bone."""
    plan = helpers().plan
    heads = np.array([[0.0, 0, 0], [0, 0, 1], [0, 0, 1], [0, 0, 3]])
    # Tail_1 (1) -> child 2 at the same place: minimum length along a fallback axis.
    t = plan.bone_tail(heads, 1, 0, [2], 0.01)
    assert np.linalg.norm(t - heads[1]) == pytest.approx(0.01)
    # End helper: a quarter of its parent bone on along its direction.
    np.testing.assert_allclose(plan.bone_tail(heads, 3, 2, [], 0.01), [0, 0, 3.5])
    np.testing.assert_allclose(plan.bone_tail(heads, 1, 0, [3], 0.01), [0, 0, 3])


def test_axes_round_trip_and_basis():
    axes = helpers().axes
    p = np.array([[1.0, 2.0, 3.0]])
    assert np.allclose(axes.points_to_core(p), [[1.0, 3.0, -2.0]])
    assert np.allclose(axes.points_from_core(axes.points_to_core(p)), p)
    # basis = rest^-1 * local: local == rest gives identity.
    rest = np.array([[0.0, 0.0, np.sin(0.3), np.cos(0.3)]])
    assert np.allclose(axes.basis_from_local(rest, rest), [[1, 0, 0, 0]], atol=1e-12)
    # Pose channels -> locals -> pose channels is the identity.
    rng = np.random.default_rng(5)
    rest_t, rest_q = rng.random((4, 3)), rng.normal(size=(4, 4))
    rest_q /= np.linalg.norm(rest_q, axis=-1, keepdims=True)
    loc, q = rng.random((2, 4, 3)), rng.normal(size=(2, 4, 4))
    q /= np.linalg.norm(q, axis=-1, keepdims=True)
    q[q[..., 0] < 0] *= -1.0
    t, q_xyzw, _ = axes.locals_from_basis(rest_t, rest_q, loc, q, np.ones((2, 4, 3)))
    loc_back, q_back = axes.basis_from_locals(rest_t, rest_q, t, q_xyzw)
    np.testing.assert_allclose(loc_back, loc, atol=1e-12)
    np.testing.assert_allclose(q_back * np.sign(q_back[..., :1]), q, atol=1e-12)


def test_influences_round_trip_and_changed_rows():
    rig_edit = helpers().rig_edit
    rig = caudal.load(asset("fox/Fox_notail.glb")).rig
    dense = rig_edit.dense_weights(rig.skin_joints, rig.skin_weights, rig.joint_count)
    sj, sw = rig_edit.padded_influences(*rig_edit.sparse_of(dense), rig.vertex_count)
    np.testing.assert_array_equal(rig_edit.dense_weights(sj, sw, rig.joint_count), dense)
    after = np.pad(dense, ((0, 0), (0, 1)))
    after[[4, 9], -1] = 0.5
    after[4, 0] += 1e-7  # below the tolerance: not a change
    np.testing.assert_array_equal(rig_edit.changed_rows(dense, after), [4, 9])


def test_card_reads_the_core_report():
    card = helpers().card
    _, report = caudal.grow_chains(caudal.load(asset("fox/Fox_notail.glb")).rig)
    rows = card.rows(report)
    chains = [r for r in rows if r.decision == "chain"]
    assert len(chains) == 1 and chains[0].kind == "tail" and chains[0].attachment == "b_Hip_01"
    assert card.title(report) == (
        f"1 tail(s) with {chains[0].bone_count} bone(s); {len(rows)} part(s) found"
    )
    assert chains[0].distance_after < chains[0].distance_before
    assert not any("farther from its bones" in w for w in card.warnings(report))
    lost = {"pelvis": None, "parts": []}
    said = card.warnings(lost, ["read warning"])
    assert said[0] == "read warning" and any("No pelvis" in w for w in said)
    assert card.title(lost) == "0 part(s) found, no chain grown"


def test_card_names_the_mirrored_pair_it_left_alone():
    card = helpers().card
    report = caudal.find_appendages(caudal.load(asset("phoenix_bird/phoenix_bird_notail.glb")).rig)
    paired = [r for r in card.rows(report) if r.kind == "paired"]
    said = [w for w in card.warnings(report) if "mirrored twin" in w]
    assert len(paired) == 2 and len(said) == 2
    assert all(r.decision == "untouched" for r in paired)


def test_spring_settings_are_the_cores():
    spring_settings = helpers().spring_settings
    core = caudal.spring_defaults()
    assert set(spring_settings.NAMES) <= set(core)
    assert spring_settings.defaults() == {n: core[n] for n in spring_settings.NAMES}
    settings = SimpleNamespace(**spring_settings.defaults())
    settings.carry_deg = 35.0
    settings.ground = False
    kwargs = spring_settings.spring_kwargs(settings)
    assert kwargs["ground"] is False and kwargs["carry_deg"] == 35.0
    rig, _ = caudal.grow_chains(caudal.load(asset("fox/Fox_notail.glb")).rig)
    params = caudal.TailSpring(rig, None, **kwargs).params()
    assert {n: params[n] for n in spring_settings.NAMES} == kwargs
    # The pelvis the artist named is the spring's too (it reads the facing from it).
    settings.pelvis_bone = "b_Hip_01"
    kwargs = spring_settings.spring_kwargs(settings)
    assert caudal.TailSpring(rig, None, **kwargs).params()["roles"] == {"pelvis": "b_Hip_01"}
