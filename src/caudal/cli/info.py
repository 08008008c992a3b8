"""``caudal info FILE``: joint tree with roles (and the rule that found
each), meshes, skins, clips, height."""

from __future__ import annotations

import argparse
import json
from typing import Any

from pathlib import Path

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
    print(f"{summary['file']}  ({summary['generator'] or 'unknown generator'})")
    print(
        f"  {summary['joint_count']} joints, {summary['vertex_count']} vertices, "
        f"{summary['triangle_count']} triangles, height {summary['height']:.4g}"
    )
    print("joints:")
    for line in joint_tree_lines(summary):
        print(f"  {line}")
    print("roles (how each was found):")
    for line in role_lines(summary["roles"]):
        print(f"  {line}")
    print("meshes:")
    for m in summary["meshes"]:
        bound = f"skin {m['skin']}" if m["skin"] is not None else f"rigid to {m['rigid_joint']}"
        print(f"  mesh {m['mesh']} primitive {m['primitive']}: {m['vertex_count']} vertices, {bound}")
    print("skins:")
    for s in summary["skins"]:
        print(f"  {s['index']}: {s['name'] or '(unnamed)'}, {s['joint_count']} joints")
    print("clips:")
    for c in summary["clips"]:
        print(f"  {c['name']}: {c['duration']:.3f} s, {c['channels']} channels ({', '.join(c['paths'])})")
    return 0
