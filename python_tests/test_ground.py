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


def test_a_crouch_sinks_along_the_characters_own_up_on_a_pitched_file():
    """Corpus seed 3 (look window) stands on a ground pitched 24.2 degrees.
    By default the crouch sinks its pelvis along the character's up (the
    ground the roles level it by, read within their 3-degree step), as the
    spring's floor and the stretch harness lie; world +Y stays available."""
    import math

    glb, _, truth = caudal.generated_creature(3)
    rig = caudal.load_bytes(glb).rig
    pelvis = rig.joint_names.index(rig.roles()["pelvis"])
    spec = truth["spec"]
    yaw, pitch = math.radians(spec["yaw_deg"]), math.radians(spec["pitch_deg"])
    # The generator's turn of +Y: about Y by the yaw after about X by the pitch.
    x, y, z = 0.0, math.cos(pitch), math.sin(pitch)
    true_up = np.array(
        [math.cos(yaw) * x + math.sin(yaw) * z, y, -math.sin(yaw) * x + math.cos(yaw) * z]
    )

    def sink(**kw):
        t = np.asarray(caudal.crouch_clip(rig, 0.1 * rig.height, **kw).translations)
        d = t[0, pelvis] - t[-1, pelvis]  # the pelvis is a root: its local is world
        return math.degrees(math.acos(np.clip(d @ true_up / np.linalg.norm(d), -1.0, 1.0)))

    assert sink() < 6.0
    assert sink(up=[0.0, 1.0, 0.0], forward=[0.0, 0.0, 1.0]) > 20.0
