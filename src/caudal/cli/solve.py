"""``caudal solve SOURCE --clip NAME TARGET -o OUT``: carry an artist clip
onto another rig by solving the surface (SPEC X) and write it into a copy of
the target file under the same animation name."""

from __future__ import annotations

import argparse
import json
from typing import Any

import caudal


def add_parser(sub: Any) -> None:
    p = sub.add_parser("solve", help="carry a clip onto another rig by solving the surface")
    p.add_argument("source", help="file with the artist rig and clip (.glb/.gltf)")
    p.add_argument("--clip", required=True, help="animation name in SOURCE")
    p.add_argument("target", help="file with the rig to animate (.glb/.gltf)")
    p.add_argument("-o", "--out", required=True, help="output file: TARGET with the solved clip added")
    p.add_argument("--mode", choices=["rigid", "rotation_only"], default="rigid", help="rotation_only keeps bone lengths")
    p.add_argument("--rate", type=float, default=None, help="sample rate of the solved clip (frames/s)")
    p.add_argument("--budget", type=int, default=5000, help="constraint vertices (0 = all)")
    p.add_argument("--source-character", type=int, default=None, help="character of SOURCE whose clip is carried (needed when it has several)")
    p.add_argument("--target-character", type=int, default=None, help="character of TARGET to animate (needed when it has several)")
    p.add_argument("--report", default=None, help="write the quality report as JSON here")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(run=run)


def summary(report: dict[str, Any]) -> dict[str, Any]:
    """The report without its per-vertex arrays (those stay in Python)."""
    keep = {k: v for k, v in report.items() if k not in ("errors", "colours", "correspondence")}
    c = report.get("correspondence")
    if c is not None:
        keep["correspondence"] = {k: v for k, v in c.items() if k != "nearest"}
    return keep


def pick(model: caudal.Model, index: int | None, flag: str) -> caudal.Model | caudal.Character:
    """The model itself (it must hold one character) or its character `index`."""
    if index is None:
        return model
    if not 0 <= index < len(model.characters):
        raise caudal.ParameterError(f"{flag}: {model.path} has {len(model.characters)} character(s), no {index}")
    return model.characters[index]


def run(args: argparse.Namespace) -> int:
    source_file = caudal.load(args.source)
    target_file = caudal.load(args.target)
    source = pick(source_file, args.source_character, "--source-character")
    target = pick(target_file, args.target_character, "--target-character")
    clip = source.clip(args.clip, args.rate)
    solved, report = caudal.transfer_clip(source.rig, clip, target.rig, mode=args.mode, constraint_budget=args.budget)
    result = {"source": args.source, "clip": args.clip, "target": args.target, "out": args.out, "frames": solved.frame_count, **summary(report)}
    # The report is committed with the file: both are written or neither.
    sidecars = [(args.report, json.dumps(result, indent=2).encode())] if args.report else None
    target_file.write(args.out, tracks=caudal.clip_tracks(target, solved, args.clip), sidecars=sidecars)
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(
        f"{args.clip}: {solved.frame_count} frames onto {target.rig.joint_count} joints ({report['mode']}), "
        f"transfer quality {report['quality'] * 100:.2f}%, mean error {report['mean_error'] * 100:.4f}% "
        f"and worst {report['worst_error'] * 100:.3f}% of the diagonal -> {args.out}"
    )
    return 0
