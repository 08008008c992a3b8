"""``caudal solve SOURCE --clip NAME TARGET -o OUT``: carry an artist clip
onto another rig by solving the surface (SPEC X) and write it into a copy of
the target file. The solved clip is keyed at the source clip's own key times
(``--rate`` samples it evenly instead); a clip of that name already in the
target is only replaced with ``--replace`` (or write it as ``--name NEW``).
A transfer under ``--warn-below`` prints a warning naming the bones that
carry the most error, and suggests ``--mode rotation_only`` when the rigid
solve stretched bones beyond what the artist's clip does."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from typing import Any

import caudal
from caudal.cli.options import add_output

# A transfer below this quality gets a warning: the article's best
# commercial auto-riggers carried 92-94% of a walk onto their own rigs, the
# artist's rig itself 99.8% (SPEC X5).
WARN_BELOW = 0.95


def solve_options() -> list[tuple[str, dict[str, Any]]]:
    """What to name the clip, how to solve and align, which characters, what
    to print."""
    return [
        ("--name", {"default": None, "help": "animation name to write (default: the clip's name)"}),
        ("--replace", {"action": "store_true", "help": "replace an animation of that name already in TARGET"}),
        ("--mode", {"choices": ["rigid", "rotation_only"], "default": "rigid", "help": "rotation_only keeps bone lengths"}),
        ("--rate", {"type": float, "default": None, "help": "key the solved clip evenly at this rate (frames/s) instead of at the source's key times"}),
        ("--budget", {"type": int, "default": 5000, "help": "constraint vertices (0 = all)"}),
        ("--alignment", {"choices": ["auto", "similarity", "bounds", "none"], "default": "auto", "help": "how the rest poses are aligned"}),
        ("--warn-below", {"type": float, "default": WARN_BELOW, "help": f"warn when the transfer quality is below this (default {WARN_BELOW})"}),
        ("--source-character", {"type": int, "default": None, "help": "character of SOURCE whose clip is carried (needed when it has several)"}),
        ("--target-character", {"type": int, "default": None, "help": "character of TARGET to animate (needed when it has several)"}),
        ("--report", {"default": None, "help": "write the quality report as JSON here"}),
        ("--json", {"action": "store_true", "help": "machine-readable output"}),
    ]  # fmt: skip


def add_parser(sub: Any) -> None:
    p = sub.add_parser("solve", help="carry a clip onto another rig by solving the surface")
    p.add_argument("source", help="file with the artist rig and clip (.glb/.gltf)")
    p.add_argument("--clip", required=True, help="animation name in SOURCE")
    p.add_argument("target", help="file with the rig to animate (.glb/.gltf)")
    add_output(p, "output file: TARGET with the solved clip added")
    for flag, options in solve_options():
        p.add_argument(flag, **options)
    p.set_defaults(run=run)


def summary(report: Mapping[str, Any]) -> dict[str, Any]:
    """The report without its per-vertex arrays (those stay in Python)."""
    drop = ("errors", "colours", "correspondence")
    keep = {k: v for k, v in report.items() if k not in drop}
    c = report.get("correspondence")
    if c is not None:
        keep["correspondence"] = {
            k: (v.tolist() if hasattr(v, "tolist") else v)
            for k, v in c.items()
            if k not in ("gap", "gap_colours", "triangle", "barycentric")
        }
    return keep


def warnings(report: Mapping[str, Any], warn_below: float, mode: str) -> list[str]:
    """What a user should hear about a transfer, in their words."""
    out = []
    if report["quality"] < warn_below:
        bones = ", ".join(
            f"{name} ({err * 100:.2f}% of the diagonal)" for name, err in report["worst_bones"][:3]
        )
        out.append(
            f"transfer quality {report['quality'] * 100:.1f}% is below {warn_below * 100:.0f}%; the skin of these bones follows worst: {bones}"
        )
    stretched = report["stretched_bones"]
    if stretched and mode == "rigid":
        names = ", ".join(f"{name} ({change * 100:.2f}%)" for name, change in stretched[:3])
        out.append(
            f"{len(stretched)} bone(s) change length by more than the artist's clip does "
            f"(bound {report['stretch_bound'] * 100:.2f}% of the diagonal): {names}; "
            "the rig cannot follow this surface with its joints in place: try --mode rotation_only, which keeps every bone length"
        )
    gap = report["correspondence"]["gap_max"]
    if gap > 0.02:
        out.append(
            f"parts of the target lie up to {gap * 100:.1f}% of the diagonal from the source surface: those vertices follow the nearest part of the source"
        )
    return out


def pick(model: caudal.Model, index: int | None, flag: str) -> caudal.Model | caudal.Character:
    """The model itself (it must hold one character) or its character `index`."""
    if index is None:
        return model
    if not 0 <= index < len(model.characters):
        raise caudal.ParameterError(
            f"{flag}: {model.path} has {len(model.characters)} character(s), no {index}"
        )
    return model.characters[index]


def run(args: argparse.Namespace) -> int:
    source_file = caudal.load(args.source)
    target_file = caudal.load(args.target)
    source = pick(source_file, args.source_character, "--source-character")
    target = pick(target_file, args.target_character, "--target-character")
    name = args.name or args.clip
    if name in target_file.clip_names and not args.replace:
        print(
            f"caudal solve: {args.target} already has an animation named {name!r}; "
            "pass --replace to overwrite it, or --name NEW to write the solved clip beside it",
            file=sys.stderr,
        )
        return 2
    clip = source.clip(args.clip, args.rate) if args.rate else source.clip(args.clip, keys=True)
    solved = caudal.transfer_clip(
        source.rig,
        clip,
        target.rig,
        mode=args.mode,
        constraint_budget=args.budget,
        alignment=args.alignment,
        report="summary",
    )
    report = solved.report
    assert report is not None
    result = {
        "source": args.source,
        "clip": args.clip,
        "target": args.target,
        "out": args.out,
        "animation": name,
        "frames": solved.clip.frame_count,
        "keys": "source" if args.rate is None else f"{args.rate:g}/s",
        **summary(report),
    }
    notes = warnings(report, args.warn_below, args.mode)
    result["warnings"] = notes
    # The report is committed with the file: both are written or neither.
    sidecars = [(args.report, json.dumps(result, indent=2).encode())] if args.report else None
    target_file.write(
        args.out, tracks=caudal.clip_tracks(target, solved.clip, name), sidecars=sidecars
    )
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        halfway = report["quality_halfway"]
        between = f", {halfway * 100:.2f}% halfway between keys" if halfway is not None else ""
        corr = report["correspondence"]
        keyed = "at the source's key times" if args.rate is None else f"at {args.rate:g} frames/s"
        print(
            f"{args.clip}: {solved.clip.frame_count} keys {keyed} onto {target.rig.joint_count} joints ({report['mode']}), "
            f"transfer quality {report['quality'] * 100:.2f}% ({report['quality_keys'] * 100:.2f}% at the keys{between}); "
            f"worst vertex {report['worst_error'] * 100:.3f}% of the diagonal; gap between the meshes {corr['gap_mean'] * 100:.3f}% "
            f"on average (rest poses aligned by: {corr['alignment']}); largest bone-length change {report['bone_length_change'] * 100:.2f}% "
            f"-> {args.out} as {name!r}"
        )
    for note in notes:
        print(f"caudal solve: warning: {note}", file=sys.stderr)
    return 0
