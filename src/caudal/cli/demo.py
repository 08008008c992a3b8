"""``caudal demo --out DIR``: the built-in creature, written and read back."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import numpy as np

import caudal
from caudal.summary import model_summary


def add_parser(sub: Any) -> None:
    p = sub.add_parser("demo", help="generate the built-in creature (needs no files)")
    p.add_argument("--out", default="caudal-demo", help="output folder (created)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    model = caudal.demo_creature()
    original = out / "creature.glb"
    model.write(original)
    reread = caudal.load(original)
    roundtrip = out / "creature_roundtrip.glb"
    reread.write(roundtrip)
    again = caudal.load(roundtrip)
    same = bool(
        np.array_equal(again.rig.vertices, model.rig.vertices)
        and np.array_equal(again.rig.skin_weights, model.rig.skin_weights)
        and again.rig.joint_names == model.rig.joint_names
    )
    summary = model_summary(reread)
    m: dict[str, Any] = {k: summary[k] for k in ("joint_count", "vertex_count", "triangle_count", "height", "clips")}
    roles: dict[str, Any] = {k: summary["roles"][k] for k in ("pelvis", "thighs", "shins", "head")}
    result = {
        "files": {"creature": str(original), "roundtrip": str(roundtrip)},
        "roundtrip_identical": same,
        "model": m,
        "roles": roles,
    }
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"demo creature: {m['joint_count']} joints, {m['vertex_count']} vertices, height {m['height']:.3f} m")
        print(f"  pelvis {roles['pelvis']}, thighs {roles['thighs']}, shins {roles['shins']}")
        for c in m["clips"]:
            print(f"  clip {c['name']}: {c['duration']:.3f} s")
        print(f"  wrote {original}")
        print(f"  round trip {'identical' if same else 'DIFFERS'}: {roundtrip}")
    return 0 if same else 1
