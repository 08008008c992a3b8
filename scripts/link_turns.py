"""How far each grown tail link turns, per clip: its largest angle against its
parent (from their bind relation), against its rest direction (what the
elastic stop bounds), and how many frames the floor held it. For a file's
clip, or for the generated crouch (``crouch``) under the floor the whole-mesh
crouch row uses (the spring's own, raised as `caudal.crouch_stretch` raises
it). Issue 13's diagnosis of the mouse's and the rabbit's roots
(docs/decisions.md, "How far the links turn").

    python scripts/link_turns.py assets/fieldmouse_rigify/fieldmouse_rigify_notail.glb 'rig|rigAction'
    python scripts/link_turns.py assets/rabbit_rigify/rabbit_rigify_notail.glb crouch
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

import caudal

CROUCH_DEPTH_SHARE = 0.25  # caudal's CROUCH_DEPTH_SHARE
REFERENCE_HEIGHT_M = 1.91  # the spring's metres of a character


def rotation(m: np.ndarray) -> np.ndarray:
    r = m[:3, :3].astype(np.float64)
    return r / np.linalg.norm(r, axis=0, keepdims=True)


def angle(a: np.ndarray, b: np.ndarray) -> float:
    c = a @ b / (np.linalg.norm(a) * np.linalg.norm(b))
    return float(np.degrees(np.arccos(np.clip(c, -1.0, 1.0))))


def turn_by_q(q: np.ndarray, v: np.ndarray) -> np.ndarray:
    u, w = q[:3].astype(np.float64), float(q[3])
    t = 2.0 * np.cross(u, v)
    return v + w * t + np.cross(u, t)


def crouch_floor_height(path: str, rig: caudal.Rig, spring: caudal.TailSpring) -> float:
    """The spring's `floor_height` for the floor the whole-mesh crouch row met:
    that floor less the spring's ground (spring.md, "Where the character
    faces and stands"), in metres of the character, less the clearance."""
    truth = json.loads(Path(path).with_suffix(".truth.json").read_text())["tail_vertices"]
    model = caudal.load(path)
    floor = caudal.crouch_stretch(model, truth=np.asarray(truth, np.uint32))["floor"]
    chain = {rig.joint_names.index(j) for j in [*spring.joints, spring.end] if j}
    on_chain = np.isin(rig.skin_joints, list(chain)) & (rig.skin_weights > 0)
    units = rig.height / REFERENCE_HEIGHT_M
    clearance = float(spring.params()["clearance"])
    lowest = float(rig.vertices[~on_chain.any(axis=1), 1].min())
    ground = min(lowest + clearance * units, 0.0)
    return (floor - ground) / units - clearance


def link_turns(path: str, clip_name: str) -> None:
    model = caudal.load(path)
    rig, _ = caudal.grow_chains(model.rig)
    names = rig.joint_names
    params: dict[str, float] = {}
    if clip_name == "crouch":
        depth = CROUCH_DEPTH_SHARE * model.rig.height
        clip = caudal.crouch_clip(model.rig, depth, rate=30.0).for_rig(rig)
        params["floor_height"] = crouch_floor_height(path, rig, caudal.TailSpring(rig))
    else:
        clip = model.clip(clip_name, rig=rig)
    spring = caudal.TailSpring(rig, **params)  # type: ignore[misc]
    joints = [names.index(j) for j in spring.joints]
    ends = [*joints[1:], names.index(spring.end)] if spring.end else joints[1:]
    parents = [names.index(spring.parent), *joints[:-1]]
    anchor_worlds = caudal.world_matrices_of(rig, clip)[:, parents[0]]
    rotations, grounded = clip.rotations.copy(), np.zeros((clip.frame_count, len(joints)), bool)
    for f in range(clip.frame_count):
        q = spring.step(anchor_worlds[f], 0.0 if f == 0 else 1.0 / clip.rate)
        rotations[f, joints] = q
        grounded[f] = spring.grounded
    played = caudal.Clip("played", clip.rate, clip.translations, rotations, clip.scales)
    worlds = caudal.world_matrices_of(rig, played)
    bind = rig.bind_matrices
    kappa = spring.bend_capacity
    stop = float(spring.params()["stop_deg"]) * kappa
    print(
        f"{Path(path).name} {clip_name}: on {spring.parent}, bend capacity {kappa:.2f}, stop {stop:.1f} deg"
    )
    pelvis = names.index(rig.roles()["pelvis"])
    print(
        "| link | largest turn against its parent | against its rest direction"
        f" | against the pelvis role {names[pelvis]} | frames on the floor |"
    )
    print("|---|---|---|---|---|")
    for k, (j, e, p) in enumerate(zip(joints, ends, parents, strict=False)):
        own = rotation(bind[j]).T @ (bind[e][:3, 3] - bind[j][:3, 3])
        rest = turn_by_q(spring.rest_rotations[k], own / np.linalg.norm(own))
        at_bind = rotation(bind[p]).T @ (bind[e][:3, 3] - bind[j][:3, 3])
        local = [rotation(w[p]).T @ (w[e][:3, 3] - w[j][:3, 3]) for w in worlds]
        vs_parent = max(angle(d, at_bind) for d in local)
        vs_rest = max(angle(d, rest) for d in local)
        hips_bind = rotation(bind[pelvis]).T @ (bind[e][:3, 3] - bind[j][:3, 3])
        hips = [rotation(w[pelvis]).T @ (w[e][:3, 3] - w[j][:3, 3]) for w in worlds]
        vs_hips = max(angle(d, hips_bind) for d in hips)
        print(
            f"| {names[j]} | {vs_parent:.1f} | {vs_rest:.1f} | {vs_hips:.1f} | {grounded[:, k].sum()} of {clip.frame_count} |"
        )


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("glb")
    ap.add_argument("clip", help="a clip of the file, or crouch")
    a = ap.parse_args()
    link_turns(a.glb, a.clip)
