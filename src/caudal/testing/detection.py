"""``assert_tail_found``: the repaired file's tail chains own the true tail.

A vertex is the chain's when more than half its weight is on the chain's
joints: the rule the truth files use for the artist's tail joints."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Union

import numpy as np
import numpy.typing as npt

import caudal
from caudal.pipeline.settings import RepairSettings
from caudal.testing.subject import (
    ModelLike,
    chain_share,
    compared,
    grown_joints,
    heaviest_joint,
)

TruthLike = Union[str, "os.PathLike[str]", dict[str, Any]]

FOUND_SHARE = 0.45
"""A true tail vertex counts as found when at least this share of its
weight is on the grown chains (issue 12's measure). Not the truth files'
rule for what the tail is (``tail_share > 0.5``): the chain's root ring
shares its weight half and half with the pelvis (SPEC T9), and that ring
is the chain's."""


def true_tail(truth: dict[str, Any], character: caudal.Character) -> npt.NDArray[np.int64]:
    """The character's true tail vertices as rig indices. Two formats: the
    shared fixtures' ``*.truth.json`` (``tail_vertices``: global indices
    over the file's skinned primitives) and the generated corpus's truth
    (per character, per tail, per primitive)."""
    offsets = {(p["mesh"], p["primitive"]): p["vertex_offset"] for p in character.primitives()}
    if "characters" in truth:
        mine = [t for t in truth["characters"] if t["skin"] in character.skins]
        lists = [v for t in mine for tail in t["tails"] for v in tail["vertices"]]
        idx = [
            offsets[(v["mesh"], v["primitive"])] + np.asarray(v["vertices"], dtype=np.int64)
            for v in lists
        ]
        return np.unique(np.concatenate(idx)) if idx else np.zeros(0, np.int64)
    out = []
    prims = truth["primitives"]
    for g in truth["tail_vertices"]:
        p = next(
            (p for p in prims if p["vertex_offset"] <= g < p["vertex_offset"] + p["vertex_count"]),
            None,
        )
        if (
            p is not None
            and (p["mesh"], p["primitive"]) in offsets
            and p.get("skin", 0) in character.skins
        ):
            out.append(offsets[(p["mesh"], p["primitive"])] + g - p["vertex_offset"])
    return np.unique(np.asarray(out, dtype=np.int64))


def read_truth(truth: TruthLike) -> dict[str, Any]:
    if isinstance(truth, dict):
        return truth
    data: dict[str, Any] = json.loads(Path(truth).read_text())
    return data


def assert_tail_found(
    model: ModelLike,
    truth: TruthLike,
    *,
    min_recall: float = 0.9,
    min_precision: float | None = None,
    settings: RepairSettings | None = None,
    repaired: ModelLike | None = None,
    character: int | None = None,
) -> None:
    """Fails when the repair's chains own less than ``min_recall`` of the
    true tail vertices (or, with ``min_precision``, when less than that
    share of what they own is tail)."""
    __tracebackhide__ = True
    checked = compared(model, settings, repaired, character)
    facts = read_truth(truth)
    for where, original, ch in checked:
        expected = true_tail(facts, original)
        if len(expected) == 0:
            continue
        share = chain_share(ch.rig, grown_joints(original.rig, ch.rig))
        found = np.flatnonzero(share >= FOUND_SHARE)
        hit = np.intersect1d(found, expected)
        recall = len(hit) / len(expected)
        precision = len(hit) / len(found) if len(found) else 0.0
        if recall < min_recall:
            worst = extreme(np.setdiff1d(expected, found), share, np.argmin)
            problem = (
                f"the tail chains own {len(hit)} of {len(expected)} true tail vertices: recall {recall:.3f} "
                f"against at least {min_recall}; worst missed: {described(ch.rig, share, worst)}; precision {precision:.3f}"
            )
        elif min_precision is not None and precision < min_precision:
            worst = extreme(np.setdiff1d(found, expected), share, np.argmax)
            problem = (
                f"of {len(found)} vertices the tail chains own, {len(hit)} are tail: precision {precision:.3f} "
                f"against at least {min_precision}; worst: {described(ch.rig, share, worst)} is not tail; recall {recall:.3f}"
            )
        else:
            continue
        raise AssertionError(f"{where}: {problem}")


def extreme(vertices: npt.NDArray[np.intp], share: npt.NDArray[np.floating[Any]], pick: Any) -> int:
    """The vertex of ``vertices`` whose chain ``share`` ``pick`` (argmin or argmax) picks."""
    return int(vertices[pick(share[vertices])])


def described(rig: caudal.Rig, share: npt.NDArray[np.floating[Any]], v: int) -> str:
    """A vertex for a failure message: its chain weight and heaviest joint."""
    return f"vertex {v} ({100 * float(share[v]):.0f}% chain weight, weighted most to {heaviest_joint(rig, v)})"
