"""The result card: caudal's report (SPEC T6) as rows and plain-word
warnings. bpy-free; the panel draws what this returns."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any


@dataclass
class PartRow:
    kind: str
    decision: str
    attachment: str
    vertex_count: int
    length: float
    bone_count: int
    bones: list[str]
    distance_before: float
    distance_after: float | None
    reason: str


def report_dict(report: Any) -> dict:
    """The report as a dict, whatever the binding hands back (dict, JSON
    string, or an object with ``to_dict``/``to_json``)."""
    if isinstance(report, dict):
        return report
    if isinstance(report, str):
        return json.loads(report)
    for attr in ("to_dict", "as_dict"):
        if hasattr(report, attr):
            return getattr(report, attr)()
    if hasattr(report, "to_json"):
        return json.loads(report.to_json())
    raise TypeError(f"cannot read a caudal report of type {type(report).__name__}")


def rows(report: dict) -> list[PartRow]:
    out = []
    for p in report.get("parts", []):
        after = p.get("bone_distance_after")
        out.append(
            PartRow(
                kind=str(p.get("kind", "?")),
                decision=str(p.get("decision", "?")),
                attachment=str(p.get("attachment") or "-"),
                vertex_count=int(p.get("vertex_count", 0)),
                length=float(p.get("length", 0.0)),
                bone_count=int(p.get("bone_count", 0)),
                bones=list(p.get("bones", [])),
                distance_before=float(p.get("bone_distance_before", 0.0)),
                distance_after=None if after is None else float(after),
                reason=str(p.get("reason", "")),
            )
        )
    return out


def warnings(report: dict, extra: list[str] | None = None) -> list[str]:
    """What an artist should know, in plain words."""
    out = list(extra or [])
    parts = rows(report)
    if report.get("pelvis") is None:
        out.append(
            "No pelvis bone was recognised, so no tail chain could be grown (name your hip bone Hips or pelvis)."
        )
    if not parts:
        out.append(
            "Nothing hangs off the body far enough to need bones: the rig was left as it was."
        )
    for p in parts:
        if p.kind == "tail" and p.decision != "chain":
            out.append(f"A tail at {p.attachment} was found but not given bones ({p.decision}).")
        if p.kind == "broad" and p.decision == "untouched":
            out.append(
                f"A broad part ({p.vertex_count} vertices at {p.attachment}, e.g. a cape or skirt) keeps the rigger's weights."
            )
        if p.kind == "carried":
            out.append(
                f"A long part hanging from {p.attachment} now moves rigidly with it ({p.vertex_count} vertices)."
            )
        if (
            p.distance_after is not None
            and p.distance_after > p.distance_before * 1.001
            and p.decision != "untouched"
        ):
            out.append(
                f"The {p.kind} at {p.attachment} sits farther from its bones than before ({p.distance_before:.3g} -> {p.distance_after:.3g})."
            )
    return out


def title(report: dict) -> str:
    parts = rows(report)
    chains = sum(1 for p in parts if p.decision == "chain")
    bones = sum(p.bone_count for p in parts if p.decision == "chain")
    if chains == 0:
        return f"{len(parts)} part(s) found, no chain grown"
    return f"{chains} tail(s) with {bones} bone(s); {len(parts)} part(s) found"
