"""The result card: caudal's report (SPEC T6) as rows and plain-word
warnings. bpy-free; the panel draws what this returns."""

from __future__ import annotations

from dataclasses import dataclass


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


def rows(report: dict) -> list[PartRow]:
    """The report's parts (``caudal.grow_chains``), one row each."""
    return [
        PartRow(
            kind=p["kind"],
            decision=p["decision"],
            attachment=p["attachment"] or "-",
            vertex_count=p["vertex_count"],
            length=p["length"],
            bone_count=p["bone_count"],
            bones=list(p["bones"]),
            distance_before=p["bone_distance_before"],
            distance_after=p["bone_distance_after"],
            reason=p["reason"],
        )
        for p in report["parts"]
    ]


def warnings(report: dict, extra: list[str] | None = None) -> list[str]:
    """What an artist should know, in plain words."""
    out = list(extra or [])
    parts = rows(report)
    if report["pelvis"] is None:
        out.append(
            "No pelvis bone was recognised, so no tail chain could be grown: pick it in the Pelvis field and build again."
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
        if p.kind == "paired":
            out.append(
                f"A tail-like part at {p.attachment} has a mirrored twin off the body's midline "
                f"(wings, ears): left as the rigger weighted it ({p.vertex_count} vertices)."
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
