"""The bound the elastic stop keeps (issue 14), under hips tumbling at up
to 10^4 rad/s: every link stays within stop_deg of its rest direction at
any speed, unless the floor touches it or a link between it and the hips.
The floor takes precedence over the stop (a tail pressed into the floor by
hips below it bends as far as the floor pushes; the forward plane then
carries that on down the chain); with the floor off the stop always holds,
forward plane or not."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import asset

import caudal


def bend_deg(spring: caudal.TailSpring) -> np.ndarray:
    w = np.abs(spring.bends[:, 3].astype(np.float64))
    return 2.0 * np.degrees(np.arccos(np.clip(w, 0.0, 1.0)))


def random_rotation(rng: np.random.Generator, angle_scale: float) -> np.ndarray:
    v = rng.normal(size=3)
    v /= np.linalg.norm(v)
    a = rng.normal() * angle_scale
    k = np.array([[0, -v[2], v[1]], [v[2], 0, -v[0]], [-v[1], v[0], 0]])
    m = np.eye(4)
    m[:3, :3] = np.eye(3) + np.sin(a) * k + (1 - np.cos(a)) * k @ k
    return m


@pytest.fixture(scope="module")
def grown():
    rig, report = caudal.grow_chains(caudal.load(asset("fox/Fox_notail.glb")).rig)
    return rig, rig.bind_matrices[rig.joint_names.index(report["pelvis"])].astype(np.float64)


@pytest.mark.parametrize("omega", [10.0, 1e4])
@pytest.mark.parametrize("ground,forward_plane", [(False, False), (False, True), (True, True)])
def test_links_the_floor_does_not_reach_stay_within_the_stop_at_any_spin(
    grown, omega, ground, forward_plane
):
    rig, pelvis = grown
    spring = caudal.TailSpring(rig, ground=ground, forward_plane=forward_plane)
    stop = spring.params()["stop_deg"] * spring.bend_capacity
    rng = np.random.default_rng(14)
    hips = np.eye(4)
    free_worst, reached_worst = 0.0, 0.0
    for _ in range(1500):
        hips = random_rotation(rng, omega / 30.0) @ hips
        spring.step((hips @ pelvis).astype(np.float32), 1.0 / 30.0)
        bends = bend_deg(spring)
        # Reached by the floor: grounded, or below a grounded link.
        reached = np.logical_or.accumulate(np.array(spring.grounded))
        if (~reached).any():
            free_worst = max(free_worst, float(bends[~reached].max()))
        if reached.any():
            reached_worst = max(reached_worst, float(bends[reached].max()))
    assert free_worst <= stop + 0.01, f"{free_worst} deg past a stop of {stop}"
    if not ground:
        assert reached_worst == 0.0
    print(
        f"omega {omega:g}: links the floor does not reach {free_worst:.2f} deg (stop {stop:.1f}), links it reaches up to {reached_worst:.1f} deg"
    )
