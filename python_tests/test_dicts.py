"""The TypedDicts of caudal.dicts say what the calls really return: every
result checked here has exactly the declared keys (the NotRequired ones may
be absent), at every level the declaration types."""

from __future__ import annotations

import typing

import numpy as np
import pytest
from conftest import asset

import caudal
from caudal import dicts

FOX = "fox/Fox_notail.glb"


def mismatches(declared: type, value: object, where: str = "") -> list[str]:
    """Where ``value`` departs from the TypedDict ``declared``: missing or
    undeclared keys, recursively through nested TypedDicts and lists."""
    if not isinstance(value, dict):
        return [f"{where or '.'}: {type(value).__name__}, not a dict"]
    # NotRequired read from the hints: __required_keys__ misses it in
    # string annotations (dicts.py has `from __future__ import annotations`).
    hints = typing.get_type_hints(declared, include_extras=True)
    optional = {k for k, h in hints.items() if typing.get_origin(h) is typing.NotRequired}
    hints = {k: typing.get_args(h)[0] if k in optional else h for k, h in hints.items()}
    required = set(hints) - optional
    out = [f"{where}.{k}: missing" for k in sorted(required - set(value))]
    out += [f"{where}.{k}: not declared" for k in sorted(set(value) - set(hints))]
    for k in set(value) & set(hints):
        out += nested(hints[k], value[k], f"{where}.{k}")
    return out


def nested(hint: object, value: object, where: str) -> list[str]:
    """The TypedDicts inside ``hint`` (itself, list[...] or X | None) checked
    against ``value``."""
    if typing.is_typeddict(hint):
        return mismatches(hint, value, where)  # type: ignore[arg-type]
    args = typing.get_args(hint)
    if typing.get_origin(hint) is list and args and typing.is_typeddict(args[0]):
        return [m for i, v in enumerate(value) for m in mismatches(args[0], v, f"{where}[{i}]")]  # type: ignore[attr-defined]
    if value is not None and any(typing.is_typeddict(a) for a in args):
        (inner,) = [a for a in args if typing.is_typeddict(a)]
        return mismatches(inner, value, where)
    return []


@pytest.fixture(scope="module")
def fox():
    model = caudal.load(asset(FOX))
    repaired, report = caudal.grow_chains(model.rig)
    return model, repaired, report


def test_file_dicts(fox):
    model, _, _ = fox
    checks = [(dicts.Primitive, p) for p in model.primitives()]
    checks += [(dicts.AnimationInfo, a) for a in model.animations()]
    checks += [(dicts.SkinInfo, s) for s in model.skins()]
    _, _, truth = caudal.generated_creature(3)
    checks.append((dicts.CorpusTruth, truth))
    assert [m for d, v in checks for m in mismatches(d, v)] == []


def test_measure_dicts(fox):
    model, repaired, report = fox
    walk = model.clip("Walk")
    tail = report["parts"][0]["vertices"]
    (entry,) = caudal.stretch_table(model, ["Walk"], samples=4, ratios=True)
    checks = [
        (dicts.EdgeStretch, caudal.edge_stretch(model.rig, walk, tail)),
        (dicts.StretchTableEntry, entry),
        (dicts.CrouchStretch, caudal.crouch_stretch(model)),
        (dicts.PelvisLift, caudal.pelvis_lift(model.rig, walk)),
        (dicts.AppendageReport, report),
    ]
    assert [m for d, v in checks for m in mismatches(d, v)] == []
    assert "ratios" in entry["mesh"]["rigs"][0]["rows"][0]  # the NotRequired key, when asked


@pytest.mark.parametrize("level", ["summary", "full"])
def test_solve_report(fox, level):
    model, _, _ = fox
    walk = model.clip("Walk", rate=6.0)
    solved = caudal.transfer_clip(model.rig, walk, model.rig, report=level)
    assert mismatches(dicts.SolveReport, solved.report) == []
    assert ("errors" in solved.report) == (level == "full")
    assert caudal.transfer_clip(model.rig, walk, model.rig, report="none").report is None


def test_the_check_sees_a_wrong_key():
    good = {"rigid": 1.0, "rigger": 2.0, "repaired": 3.0}
    assert mismatches(dicts.TailLowest, good) == []
    assert mismatches(dicts.TailLowest, {**good, "extra": 0}) == [".extra: not declared"]
    drift = {"vertices": 1, "max": 0.0, "share_h": 0.0, "vertex": None, "frame": 0}
    torn = {"edges": 0, "samples": 0, "by_region": {}, "worst": [{"ratio": np.float32(1)}]}
    assert ".worst[0].frame: missing" in mismatches(dicts.TornByRepair, torn)
    assert mismatches(dicts.BodyDrift, {k: v for k, v in drift.items() if k != "max"}) == [
        ".max: missing"
    ]
