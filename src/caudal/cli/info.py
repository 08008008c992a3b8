"""``caudal info FILE``: joint tree with roles, meshes, skins, clips, height."""

from __future__ import annotations

import argparse
import json
from typing import Any

import caudal
from caudal.summary import joint_tree_lines, model_summary


def add_parser(sub: Any) -> None:
    p = sub.add_parser("info", help="describe a rigged glTF file")
    p.add_argument("file", help=".glb or .gltf")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
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
    print("roles:")
    for r in summary["roles"]["sources"]:
        how = r["detail"] or r["rule"]
        over = f"; overruled {r['overruled']}" if r.get("overruled") else ""
        print(f"  {r['role']}: {r['joint']} ({how}{over})")
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
