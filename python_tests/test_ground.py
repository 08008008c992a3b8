"""Grounding ignores the tail (SPEC G): a generated crouch of the demo
creature with its long hanging tail, tail counted vs excluded."""

from __future__ import annotations

import numpy as np
import pytest

import caudal


@pytest.fixture(scope="module")
def crouch():
    rig = caudal.bake(caudal.demo_creature()).rig  # chain grown: tail skin is Tail_* dominated
    return rig, caudal.crouch_clip(rig, 0.4, duration=1.5, rate=30)


def test_tail_counted_lifts_tail_excluded_does_not(crouch):
    rig, clip = crouch
    ex = caudal.pelvis_lift(rig, clip)
    co = caudal.pelvis_lift(rig, clip, exclude_tail=False)
    extra = co["pelvis_height_lifted"] - ex["pelvis_height_lifted"]
    assert extra[-1] > 0.05  # ~16 cm: the hanging tail would float the character
    assert np.all(ex["lift"] == 0.0)  # only the tail touches the floor
    assert abs(ex["body_check"][-1]) <= 1e-3  # body check ends on the reference floor
    assert ex["tail_points"] > 0 and ex["support_points"] < rig.vertex_count / 2
    np.testing.assert_array_equal(ex["pelvis_height"], co["pelvis_height"])


def test_body_floor_and_placement_ignore_the_tail(crouch):
    rig, clip = crouch
    f = caudal.body_floor(rig)
    assert f == pytest.approx(
        float(rig.vertices[:, 1].min()), abs=1e-6
    )  # at bind the soles are lowest
    last = clip.frame_count - 1
    body = caudal.placement_offset(rig, clip, frame=last)
    whole = caudal.placement_offset(rig, clip, frame=last, exclude_tail=False)
    assert body == pytest.approx(-f, abs=1e-3)
    assert whole > body + 0.05


def test_contacts_leave_the_reference_floor_alone(crouch):
    rig, clip = crouch
    feet = [
        "mixamorig:LeftFoot",
        "mixamorig:RightFoot",
        "mixamorig:LeftToeBase",
        "mixamorig:RightToeBase",
    ]
    g = caudal.pelvis_lift(rig, clip, contact_joints=feet)
    assert g["body_floor"] == pytest.approx(caudal.body_floor(rig), abs=1e-7)
    assert g["contact_points"] > 0 and g["clearance"][0] > 0.02


def test_bad_input_names_the_field(crouch):
    rig, clip = crouch
    n = len(clip.rotations)
    with pytest.raises(caudal.ParameterError, match="allowed_sink"):
        caudal.pelvis_lift(rig, clip, allowed_sink=np.full(n, 0.1))
    with pytest.raises(caudal.RigError, match="allowed_sink"):
        caudal.pelvis_lift(rig, clip, allowed_sink=np.zeros(2))
    with pytest.raises(caudal.UnknownJointError, match="tail_joints"):
        caudal.body_floor(rig, tail_joints=["Nope"])
    with pytest.raises(caudal.ParameterError, match="depth"):
        caudal.crouch_clip(rig, -1.0)
