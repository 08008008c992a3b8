"""``caudal tail IN -o OUT``: find the appendages the rigger forgot, grow a
bone chain for each tail, write the repaired file and (optionally) the
report. All the work is ``caudal.grow_chains`` (and ``caudal.merge_fingers``
with ``--merge-fingers``); this only reads, writes and prints."""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, cast

import caudal
from caudal.cli.options import add_output, add_repair_options
from caudal.cli.progress import each, working
from caudal.dicts import GrowParams

SHAPE_RATIO_CAP = 1e3
"""The core caps elongation and tube ratio at 1000 for a part with no
measurable cross-section (points on a line, a single ring): the figure then
means "not measurable", and the text output says n/a."""


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "tail", help="grow Tail_* bone chains for tails the rigger left without bones"
    )
    p.add_argument("input", help="rigged .glb/.gltf")
    add_output(p, "output .glb or .gltf (the extension picks the format)")
    add_repair_options(p)
    p.add_argument(
        "--report", help="write the report (every part found, with its tests and decision) as JSON"
    )
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.set_defaults(run=run, usage_error=p.error)


def report_json(report: Mapping[str, Any]) -> dict[str, Any]:
    """The report without the per-part vertex arrays."""
    parts = [{k: v for k, v in part.items() if k != "vertices"} for part in report["parts"]]
    return {**report, "parts": parts}


def shape_ratio(value: float) -> str:
    """Elongation or tube ratio for people: n/a where the core could not measure it."""
    return "n/a" if not value < SHAPE_RATIO_CAP else f"{value:.2f}"


def summary_lines(report: dict[str, Any]) -> list[str]:
    lines = [
        f"model height {report['height']:.4g}; skin farther than {report['far_threshold']:.4g} from every bone "
        f"was examined; pelvis {report['pelvis']}"
    ]
    for p in report["parts"]:
        after = p["bone_distance_after"]
        dist = f"{p['bone_distance_before']:.4g}" + (
            f" -> {after:.4g}" if after is not None else ""
        )
        t = p["tests"]
        lines.append(
            f"  #{p['index']} {p['kind']:<8} {p['decision']:<9} at {p['attachment']}: {p['vertex_count']} vertices, "
            f"length {p['length']:.4g}, bones {p['bone_count']}, centroid ratio {t['centroid_ratio']:.2f}, "
            f"elongation {shape_ratio(t['elongation'])}, tube {shape_ratio(t['tube_ratio'])}, bone distance {dist}"
        )
        lines.append(f"      {p['reason']}")
    return lines


def pairs(field: str, items: list[str]) -> dict[str, str]:
    out = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise caudal.CaudalError(f"{field}: expected NAME=VALUE, got {item!r}")
        out[name.strip()] = value.strip()
    return out


def as_spring(
    values: Mapping[str, float | bool], pelvis: str | None = None
) -> caudal.SpringParams | None:
    """Parsed ``--spring`` items as the spring's keywords (None when empty),
    with the character's ``--pelvis`` as the spring's roles: the spring
    reads the body's facing from the pelvis the chains hang from. The core
    checks every name and value."""
    out: dict[str, Any] = dict(values)
    if pelvis is not None:
        out["roles"] = {"pelvis": pelvis}
    return cast("caudal.SpringParams", out) if out else None


def pelvis_of(ch: caudal.Character, args: Any) -> str | None:
    """``--pelvis`` for the character whose skeleton has that joint (a
    file's characters have skeletons of their own), else None."""
    name: str | None = getattr(args, "pelvis", None)
    return name if name is not None and name in ch.rig.joint_names else None


def check_pelvis(model: caudal.Model, args: Any) -> None:
    """A ``--pelvis`` no character has is a typo, not "find it yourself"."""
    name = getattr(args, "pelvis", None)
    if name is not None and not any(name in ch.rig.joint_names for ch in model.characters):
        raise caudal.UnknownJointError(
            f"--pelvis: no joint named {name!r} in any character of the file (`caudal info` lists the joints)"
        )


def spring_value(text: str) -> float | bool:
    """A number, or on/off for the switches (ground, forward_plane)."""
    switch = {"on": True, "true": True, "yes": True, "off": False, "false": False, "no": False}
    if text.lower() in switch:
        return switch[text.lower()]
    try:
        return float(text)
    except ValueError:
        raise caudal.CaudalError(f"--spring: {text!r} is not a number or on/off") from None


def check(args: argparse.Namespace) -> str | None:
    """Options that only mean something with --bake, given without it."""
    stray = [
        flag
        for flag, value in (
            ("--clips", args.clips),
            ("--spring", args.spring),
            ("--loop", args.loop),
        )
        if value
    ]
    if stray and not args.bake:
        verb = "applies" if len(stray) == 1 else "apply"
        return f"{', '.join(stray)} only {verb} with --bake (add --bake, or leave {'it' if len(stray) == 1 else 'them'} out)"
    return None


def grow_keywords(ch: caudal.Character, args: Any) -> GrowParams:
    """``caudal.grow_chains``' keywords from the repair options, for
    character ``ch``: what the repair grows with, and what the report
    measuring that repair (``stretch_table(grow=...)``) must grow with too."""
    keywords: dict[str, Any] = {
        "rigid": args.rigid,
        "broad": args.broad,
        "pelvis": pelvis_of(ch, args),
        "min_bones": args.min_bones,
        "max_bones": args.max_bones,
        "segment_thickness": args.segment_thickness,
        "joint_blend": args.joint_blend,
        "handover_radii": args.handover_radii,
    }
    return cast("GrowParams", keywords)


def repair(
    model: caudal.Model, args: argparse.Namespace
) -> list[tuple[caudal.Character, caudal.Rig, dict[str, Any]]]:
    """Every character grown in file order, chain names unique in the file:
    each character's new joints avoid every node name of the file and the
    chains grown before it (the first character gets ``Tail_*``, a later one
    continues the numbering, ``Tail2_*``...; the core's grow_file_chains)."""
    check_pelvis(model, args)
    reserved = list(model.node_names)
    out = []
    for ch in model.characters:
        before, merged = caudal.merge_fingers(ch.rig) if args.merge_fingers else (ch.rig, None)
        keywords = grow_keywords(ch, args)
        keywords["reserved_names"] = list(reserved)
        rig, report = caudal.grow_chains(before, **keywords)
        if merged is not None:
            report["merged_fingers"] = [{"finger": f, "hand": h} for f, h in merged]
        reserved += rig.joint_names[before.joint_count :]
        out.append((ch, rig, cast(dict[str, Any], report)))
    return out


def print_character(
    label: str, report: dict[str, Any], baked: list[dict[str, Any]], bake_asked: bool
) -> None:
    chains = [p for p in report["parts"] if p["decision"] == "chain"]
    print(f"{label}: {len(report['parts'])} part(s), {len(chains)} chain(s)")
    for line in summary_lines(report):
        print(line)
    if "merged_fingers" in report:
        hands = sorted({m["hand"] for m in report["merged_fingers"]})
        print(
            f"  merged {len(report['merged_fingers'])} finger joint(s) into {', '.join(hands) or 'no hand'}"
        )
    for p in chains:
        print(f"  grew {', '.join(p['bones'])} under {report['pelvis']}")
    for b in baked:
        if b["seam_blend_deg"] > 0.0:
            print(
                f"  baked {b['name']}: loop, motion never repeated in {b['warmup_passes']} passes, blended shut ({b['seam_blend_deg']:.2f} deg)"
            )
        elif b["looping"]:
            print(
                f"  baked {b['name']}: loop, {b['warmup_passes']} warm-up passes, closure {b['closure_deg']:.3f} deg"
            )
        else:
            print(f"  baked {b['name']}: one-shot, settled {b['warmup_seconds']:.1f} s")
    if baked and baked[0]["bend_capacity"] < 1.0:
        print(
            f"  bend capacity {baked[0]['bend_capacity']:.2f}: carry and stop scaled for a tail this thick"
        )
    if bake_asked and not baked:
        print("  --bake: no chain grown, nothing to bake")


def run(args: argparse.Namespace) -> int:
    problem = check(args)
    if problem:
        args.usage_error(problem)  # exits 2 with the usage line
    clips = [c.strip() for c in args.clips.split(",") if c.strip()] if args.clips else None
    spring = {k: spring_value(v) for k, v in pairs("--spring", args.spring).items()}
    loops: dict[str, str | bool] = dict(pairs("--loop", args.loop))
    with working(f"reading {Path(args.input).name}"):
        model = caudal.load(args.input)
    names = clips if clips is not None else model.clip_names
    for name in names:
        if name not in model.clip_names:
            raise caudal.NotFoundError(
                f"--clips: no animation named {name!r} (have: {', '.join(model.clip_names)})"
            )
    with working("finding appendages and growing chains"):
        repaired = repair(model, args)
    # Clips bake independently: one call per clip gives the keys of one call
    # over all of them, and a bar that counts clips.
    todo = [
        (ch, rig, name)
        for ch, rig, report in repaired
        if args.bake and any(p["decision"] == "chain" for p in report["parts"])
        for name in names
    ]

    def bake_one(unit: tuple[caudal.Character, caudal.Rig, str]) -> caudal.Bake:
        ch, rig, name = unit
        return caudal.bake(
            ch, rig, [name], loops=loops or None, spring=as_spring(spring, pelvis_of(ch, args))
        )

    bakes = each("baking", todo, bake_one, name=lambda unit: unit[2])
    tracks: list[caudal.Track] = [t for b in bakes for t in b.tracks()]
    entries: list[dict[str, Any]] = []
    for ch, _rig, report in repaired:
        baked = [c.summary() for b in bakes if b.character == ch.index for c in b.clips]
        plain = report_json(report)
        if args.bake:
            plain["bake"] = baked
        entries.append({"character": ch.index, "name": ch.name, **plain})
    # One character: its report at the top level (as before characters
    # existed); always the list of characters.
    result: dict[str, Any] = (
        {k: v for k, v in entries[0].items() if k not in ("character", "name")}
        if len(entries) == 1
        else {}
    )
    result["characters"] = entries
    # The report is committed with the file: both are written or neither.
    sidecars = [(args.report, json.dumps(result, indent=2).encode())] if args.report else None
    with working(f"writing {Path(args.out).name}"):
        model.write(
            args.out, rigs=[rig for _, rig, _ in repaired], tracks=tracks or None, sidecars=sidecars
        )
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        for w in model.warnings:
            print(f"warning: {w}")
        for e in entries:
            label = (
                args.input
                if len(entries) == 1
                else f"{args.input} character {e['character']} {e['name']!r}"
            )
            print_character(label, e, e.get("bake", []), args.bake)
        print(f"  wrote {args.out}")
    return 0
