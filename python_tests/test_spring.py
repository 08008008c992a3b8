"""The tail spring from Python (SPEC S): numpy in and out, the same facts the
Rust tests check, and errors that name the field."""

from __future__ import annotations

import threading

import numpy as np
import pytest
from conftest import asset

import caudal


def creature(bones=5, end=True, tail_length=0.8, scale=1.0):
    """A box body on a pelvis, two legs and a `bones`-bone tail (metres)."""
    names = ["Hips", "LeftUpLeg", "LeftLeg", "LeftFoot", "RightUpLeg", "RightLeg", "RightFoot"]
    parents = [-1, 0, 1, 2, 0, 4, 5]
    heads = [
        (0, 1.0, 0),
        (0.12, 0.95, 0),
        (0.12, 0.5, 0),
        (0.12, 0.05, 0.05),
        (-0.12, 0.95, 0),
        (-0.12, 0.5, 0),
        (-0.12, 0.05, 0.05),
    ]
    d = np.array([0.0, -0.6, -0.8])
    p = np.array([0.0, 0.95, -0.12])
    seg = tail_length / bones
    first = len(names)
    for i in range(bones + int(end)):
        names.append(f"Tail_{i + 1}" if i < bones else "Tail_End")
        parents.append(0 if i == 0 else first + i - 1)
        heads.append(tuple(p + d * seg * i))
    bind = np.tile(np.eye(4), (len(names), 1, 1))
    bind[:, :3, 3] = np.array(heads) * scale
    box = (
        np.array([[x, y, z] for x in (-0.2, 0.2) for y in (0.0, 1.4) for z in (-0.1, 0.15)]) * scale
    )
    tris = [[0, 1, 3], [0, 3, 2], [4, 6, 7], [4, 7, 5], [0, 4, 5], [0, 5, 1]]
    tris += [[2, 3, 7], [2, 7, 6], [0, 2, 6], [0, 6, 4], [1, 5, 7], [1, 7, 3]]
    verts = list(box)
    joints = [0] * 8
    for b in range(bones):
        c = (p + d * seg * (b + 0.5)) * scale
        base = len(verts)
        verts += [c + [0.03 * scale, 0, 0], c - [0.03 * scale, 0, 0], c + [0, 0.03 * scale, 0]]
        tris.append([base, base + 1, base + 2])
        joints += [first + b] * 3
    n = len(verts)
    rig = caudal.Rig(
        np.array(verts, np.float32),
        np.array(tris),
        np.array(joints).reshape(n, 1),
        np.ones((n, 1), np.float32),
        names,
        np.array(parents),
        bind_matrices=bind,
    )
    return rig


def hips(pos, yaw=0.0):
    m = np.eye(4, dtype=np.float32)
    c, s = np.cos(yaw), np.sin(yaw)
    m[:3, :3] = [[c, 0, s], [0, 1, 0], [-s, 0, c]]
    m[:3, 3] = pos
    return m


def walk(t):
    return hips([0.15 * np.sin(5 * t), 1.0 + 0.05 * np.sin(10 * t), 0.9 * t], 0.6 * np.sin(2.5 * t))


METRES = {"units_per_metre": 1.0}


def test_step_returns_unit_quaternions_for_the_tail_bones():
    rig = creature(5)
    spring = caudal.TailSpring(rig, **METRES)
    assert spring.joints == [f"Tail_{i}" for i in range(1, 6)]
    assert spring.end == "Tail_End" and spring.parent == "Hips" and len(spring) == 5
    rest = spring.step(walk(0.0), 0.0)
    assert rest.shape == (5, 4) and rest.dtype == np.float32
    np.testing.assert_allclose(rest, spring.rest_rotations, atol=1e-6)
    moved = 0.0
    for f in range(1, 121):
        q = spring.step(walk(f / 60), 1 / 60)
        np.testing.assert_allclose(np.linalg.norm(q, axis=1), 1.0, atol=1e-5)
        moved = max(moved, float(np.max(np.abs(np.abs(np.sum(q * rest, axis=1)) - 1))))
    assert moved > 1e-3, "the walking hips must swing the tail"
    # The link lengths hold exactly on the particles.
    heads = np.vstack(
        [
            spring.particles[:1] * 0 + walk(2.0)[:3, :3] @ [0, -0.05, -0.12] + walk(2.0)[:3, 3],
            spring.particles[:-1],
        ]
    )
    np.testing.assert_allclose(
        np.linalg.norm(spring.particles - heads, axis=1), spring.lengths, atol=1e-5
    )


def test_frame_rate_independence_from_python():
    rig = creature(5)

    def tips(fps):
        s = caudal.TailSpring(rig, **METRES)
        out = []
        for f in range(0, 3 * fps + 1):
            s.step(walk(f / fps), 0.0 if f == 0 else 1 / fps)
            if f % (fps // 6) == 0:
                out.append(s.particles[-1].copy())
        return np.array(out)

    ref = tips(120)
    for fps in (24, 30, 60):
        # Particles are the simulation state: identical times, identical
        # substeps, so paths agree up to the anchor's interpolation.
        assert np.max(np.linalg.norm(tips(fps) - ref, axis=1)) < 0.02 * 0.8


def test_reset_and_teleport():
    rig = creature(4)
    s = caudal.TailSpring(rig, **METRES)
    s.step(walk(0.0), 0.0)
    for f in range(1, 30):
        s.step(walk(f / 60), 1 / 60)
    s.step(hips([10.0, 1.0, 0.0]), 1 / 60)
    assert s.teleports == 1
    np.testing.assert_array_equal(s.velocities, 0.0)
    s.reset()
    np.testing.assert_allclose(s.step(hips([0, 1, 0]), 0.5), s.rest_rotations, atol=1e-6)


def clip_for(rig, frames=90, rate=30.0):
    j = rig.joint_count
    t = np.zeros((frames, j, 3), np.float32)
    r = np.zeros((frames, j, 4), np.float32)
    r[..., 3] = 1
    t[:] = rig.rest_translations
    r[:] = rig.rest_rotations
    time = np.arange(frames) / rate
    t[:, 0] = np.stack([0.1 * time, 1.0 - 0.85 * np.abs(np.sin(1.5 * time)), 0.3 * time], axis=1)
    r[:, 0] = np.stack(
        [0 * time, np.sin(0.25 * np.sin(2 * time)), 0 * time, np.cos(0.25 * np.sin(2 * time))],
        axis=1,
    )
    return caudal.Clip("crouch", rate, t, r)


def test_simulate_matches_stepping_and_moves_only_the_tail():
    rig = creature(6)
    clip = clip_for(rig)
    rots = caudal.simulate(rig, clip, **METRES)
    assert rots.shape == (90, 6, 4)
    s = caudal.TailSpring(rig, **METRES)
    worlds = caudal.world_matrices_of(rig, clip)
    for f in range(90):
        np.testing.assert_array_equal(s.step(worlds[f, 0], 0.0 if f == 0 else 1 / 30), rots[f])
    # Put the tail rotations into the clip: the body's world matrices stay
    # bit-identical, the tail moves.
    tail = [rig.joint_names.index(n) for n in s.joints]
    r = clip.rotations.copy()
    r[:, tail] = rots
    with_tail = caudal.world_matrices_of(rig, caudal.Clip("t", clip.rate, clip.translations, r))
    body = [0, 1, 2, 3, 4, 5, 6]
    np.testing.assert_array_equal(with_tail[:, body], worlds[:, body])
    assert np.max(np.abs(with_tail[:, tail[-1], :3, 3] - worlds[:, tail[-1], :3, 3])) > 0.1
    # The crouch puts the tail on the floor, never under it.
    assert np.min(with_tail[:, tail, 1, 3]) > -1e-4


def test_step_springs_equals_one_by_one_and_releases_the_gil():
    rig = creature(5)
    a = [caudal.TailSpring(rig, **METRES) for _ in range(8)]
    b = [caudal.TailSpring(rig, **METRES) for _ in range(8)]
    for f in range(40):
        worlds = np.stack([walk(f / 60 + 0.3 * i) for i in range(8)])
        dt = 0.0 if f == 0 else 1 / 60
        batch = caudal.step_springs(a, worlds, dt)
        single = np.concatenate([s.step(w, dt) for s, w in zip(b, worlds, strict=False)])
        np.testing.assert_array_equal(batch, single)
    # Python threads stepping their own springs run side by side.
    errors = []

    def run(s):
        try:
            for f in range(200):
                s.step(walk(f / 60), 1 / 60)
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=run, args=(s,)) for s in b[:4]]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors


def test_units_follow_the_model_unless_absolute():
    assert caudal.TailSpring(creature(4)).units_per_metre == pytest.approx(1.4 / 1.91, rel=1e-5)
    assert caudal.TailSpring(creature(4, scale=100.0)).units_per_metre == pytest.approx(
        140 / 1.91, rel=1e-5
    )
    assert caudal.TailSpring(creature(4, scale=100.0), units_per_metre=1.0).units_per_metre == 1.0


def test_explicit_chain_by_names_or_indices():
    rig = creature(4)
    by_name = caudal.TailSpring(rig, ["Tail_1", "Tail_2", "Tail_3", "Tail_4", "Tail_End"], **METRES)
    by_index = caudal.TailSpring(rig, [7, 8, 9, 10, 11], **METRES)
    assert by_name.joints == by_index.joints == ["Tail_1", "Tail_2", "Tail_3", "Tail_4"]
    assert by_name.end == "Tail_End"
    no_end = caudal.TailSpring(rig, ["Tail_1", "Tail_2", "Tail_3"], **METRES)
    assert no_end.end is None and len(no_end) == 3


def test_bad_input_names_the_field():
    rig = creature(4)
    s = caudal.TailSpring(rig, **METRES)
    with pytest.raises(caudal.ParameterError, match="dt"):
        s.step(hips([0, 1, 0]), float("nan"))
    with pytest.raises(caudal.ParameterError, match="dt"):
        s.step(hips([0, 1, 0]), -1.0)
    with pytest.raises(caudal.RigError, match="parent_world"):
        s.step(np.full((4, 4), np.nan), 0.1)
    with pytest.raises(caudal.RigError, match="parent_world"):
        s.step(np.eye(3), 0.1)
    with pytest.raises(caudal.ParameterError, match="damping_ratio"):
        caudal.TailSpring(rig, damping_ratio=-1)
    with pytest.raises(caudal.ParameterError, match="rest_curve"):
        caudal.TailSpring(rig, rest_curve=3)
    with pytest.raises(caudal.ParameterError, match="stifness"):
        caudal.TailSpring(rig, stifness=3)
    with pytest.raises(caudal.UnknownJointError, match="chain"):
        caudal.TailSpring(rig, ["Tail_1", "Tail_9"])
    with pytest.raises(caudal.RigError, match="chain"):
        caudal.TailSpring(rig, [7, 99])
    with pytest.raises(caudal.ParameterError, match="chain"):
        caudal.TailSpring(rig, ["Tail_1", "Tail_3"])
    with pytest.raises(caudal.RigError, match="parent_worlds"):
        caudal.step_springs([s], np.zeros((2, 4, 4)), 0.1)
    other = caudal.Clip("x", 30.0, np.zeros((2, 3, 3)), np.tile([0, 0, 0, 1.0], (2, 3, 1)))
    with pytest.raises(caudal.RigError, match="clip"):
        caudal.simulate(rig, other)
    no_tail = caudal.Rig(
        np.eye(3, dtype=np.float32),
        [[0, 1, 2]],
        [[0]] * 3,
        [[1.0]] * 3,
        ["Hips"],
        [-1],
        bind_matrices=np.eye(4)[None],
    )
    with pytest.raises(caudal.NotFoundError, match="chain"):
        caudal.TailSpring(no_tail)


def test_bend_capacity_scales_a_stubs_carry():
    # Five bones on a 0.25 m tail are 0.05 m long, the skin 0.06 m thick:
    # capacity 0.05 / (2.0 x 0.06) at ratio 2; the default ratio (0.5)
    # leaves this tail alone.
    rig = creature(bones=5, tail_length=0.25)
    slender = caudal.TailSpring(rig, **METRES)
    assert slender.bend_capacity == pytest.approx(1.0)
    assert slender.params()["bend_capacity"] == pytest.approx(0.5)
    stub = caudal.TailSpring(rig, bend_capacity=2.0, gravity=0.0, **METRES)
    assert stub.bend_capacity == pytest.approx(0.05 / 0.12, rel=1e-4)
    free = caudal.TailSpring(rig, bend_capacity=0.0, gravity=0.0, **METRES)
    assert free.bend_capacity == 1.0

    def lift(spring):
        # The settled carry: the tip link's turn from its bind direction.
        spring.reset_to(hips([0, 1, 0]))
        for _ in range(600):
            spring.step(hips([0, 1, 0]), 1 / 60)
        bind = caudal.TailSpring(rig, carry_deg=0.0, gravity=0.0, **METRES)
        bind.reset_to(hips([0, 1, 0]))
        a = spring.particles[-1] - spring.particles[-2]
        b = bind.particles[-1] - bind.particles[-2]
        c = np.dot(a, b) / np.linalg.norm(a) / np.linalg.norm(b)
        return np.degrees(np.arccos(np.clip(c, -1, 1)))

    # The creature's tail is modelled 53.13 degrees above straight down
    # (direction (0, -0.6, -0.8)); carry is a target elevation, so the
    # default 50 leaves it where it is.
    assert lift(free) == pytest.approx(0.0, abs=0.1)
    # A carry of 103.13 asks for a 50 degree lift; the stub gets kappa of it.
    elevation = np.degrees(np.arctan2(0.8, 0.6))
    free = caudal.TailSpring(
        rig, bend_capacity=0.0, gravity=0.0, carry_deg=elevation + 50.0, **METRES
    )
    stub = caudal.TailSpring(
        rig, bend_capacity=2.0, gravity=0.0, carry_deg=elevation + 50.0, **METRES
    )
    assert lift(free) == pytest.approx(50.0, abs=0.1)
    assert lift(stub) == pytest.approx(50.0 * 0.05 / 0.12, abs=0.1)
    with pytest.raises(ValueError, match="bend_capacity"):
        caudal.TailSpring(rig, bend_capacity=-1.0)


def test_spring_keywords_are_checked_by_name_and_type():
    rig = creature(4)
    # A switch takes True or False only: a string is not read as its truth.
    with pytest.raises(caudal.ParameterError, match="ground"):
        caudal.TailSpring(rig, ground="off")
    with pytest.raises(caudal.ParameterError, match="carry_deg"):
        caudal.TailSpring(rig, carry_deg="high")
    # An unknown name lists the valid ones.
    with pytest.raises(caudal.ParameterError, match="expected one of .*carry_deg"):
        caudal.TailSpring(rig, carry=40)
    # numpy values read as the numbers they hold; params() returns every keyword.
    s = caudal.TailSpring(rig, carry_deg=np.float32(40.0), forward=np.array([0.0, 0.0, 1.0]))
    p = s.params()
    assert p["carry_deg"] == pytest.approx(40.0) and p["forward"] == [0.0, 0.0, 1.0]
    assert set(p) == set(caudal.SpringParams.__annotations__)


def test_a_file_facing_minus_x_below_world_zero_keeps_its_tail_root():
    """The rabbit faces -X and stands 30% of its height below world 0 (a
    Rigify export modelled about its centre). Read as facing +Z on a floor at
    0, its Tail_1 baked 174 degrees from its bind against `spine_36`. The
    spring now takes the facing from the skeleton and the ground from the
    body, so the level tail stays within the elastic stop of its bind (the
    rest arc of a level tail is its bind less its side curve)."""
    model = caudal.load(asset("rabbit_rigify/rabbit_rigify_notail.glb"))
    rig = model.rig
    assert rig.roles()["facing"] == pytest.approx([-1.0, 0.0, 0.0], abs=0.05)
    baked = caudal.bake(model)
    clip = baked.clips[0]
    idx = [baked.rig.joint_names.index(n) for n in clip.bones]
    bind = baked.rig.rest_rotations[idx]
    dots = np.abs((clip.rotations * bind[None]).sum(-1))
    turns = np.degrees(2 * np.arccos(np.clip(dots, 0.0, 1.0))).max(axis=0)
    stop = caudal.spring_defaults()["stop_deg"]
    assert (turns < stop).all(), f"largest turn from the bind per link: {turns}"


def test_the_spring_takes_the_users_roles_by_name():
    """``roles``: the joint roles the spring reads the body's facing from,
    by name as ``Rig.roles(overrides)`` takes them; checked against the rig."""
    rig = creature(4)
    assert caudal.TailSpring(rig, **METRES).params()["roles"] == {}
    s = caudal.TailSpring(rig, roles={"pelvis": "Hips"}, **METRES)
    assert s.params()["roles"] == {"pelvis": "Hips"}
    with pytest.raises(caudal.UnknownJointError, match="roles.pelvis"):
        caudal.TailSpring(rig, roles={"pelvis": "Nope"})
    with pytest.raises(caudal.ParameterError, match="hips"):
        caudal.TailSpring(rig, roles={"hips": "Hips"})
    clip = caudal.Clip(
        "x",
        30.0,
        np.zeros((2, rig.joint_count, 3)),
        np.tile([0, 0, 0, 1.0], (2, rig.joint_count, 1)),
    )
    with pytest.raises(caudal.UnknownJointError, match="spring.roles.head"):
        caudal.bake_clip(rig, clip, spring={"roles": {"head": "Nope"}})
