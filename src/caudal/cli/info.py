"""``caudal info FILE``: the file's characters (each with its joint tree,
its roles and the rule that found each, counts, height, skins), meshes,
skins, clips and reader warnings.
``--json`` prints ``caudal.summary.model_summary``."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import caudal
from caudal.cli.progress import working
from caudal.summary import joint_tree_lines, model_summary, role_lines


def add_parser(sub: Any) -> None:
    p = sub.add_parser("info", help="describe a rigged glTF file")
    p.add_argument("file", help=".glb or .gltf")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    with working(f"reading {Path(args.file).name}"):
        summary = model_summary(caudal.load(args.file))
    if args.json:
        print(json.dumps(summary, indent=2))
        return 0
    chars = summary["characters"]
    print(f"{summary['file']}  ({summary['generator'] or 'unknown generator'})")
    for w in summary["warnings"]:
        print(f"  warning: {w}")
    if len(chars) > 1:
        print(f"  {len(chars)} characters (each its own rig, height and repair)")
    for c in chars:
        print(
            f"character {c['index']} {c['name']!r}: {c['joint_count']} joints, {c['vertex_count']} vertices, "
            f"{c['triangle_count']} triangles, height {c['height']:.4g}, skins {', '.join(str(s) for s in c['skins'])}"
        )
        print("  joints:")
        for line in joint_tree_lines(c):
            print(f"    {line}")
        print("  roles (how each was found):")
        for line in role_lines(c["roles"]):
            print(f"    {line}")
    print("meshes:")
    for m in summary["meshes"]:
        bound = f"skin {m['skin']}" if m["skin"] is not None else f"rigid to {m['rigid_joint']}"
        print(
            f"  mesh {m['mesh']} primitive {m['primitive']}: {m['vertex_count']} vertices, {bound}, character {m['character']}"
        )
    print("skins:")
    for s in summary["skins"]:
        print(
            f"  {s['index']}: {s['name'] or '(unnamed)'}, {s['joint_count']} joints, character {s['character']}"
        )
    print("clips:")
    for clip in summary["clips"]:
        print(
            f"  {clip['name']}: {clip['duration']:.3f} s, {clip['channels']} channels ({', '.join(clip['paths'])})"
        )
    return 0
