"""``caudal demo --out DIR``: the built-in creature, written and read back,
then given a tail chain, baked (loop-closed keys in its Walk) and written
again beside the original; prints the stretch table (SPEC M1) and the
grounding check (SPEC G, a generated crouch)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import numpy as np

import caudal
from caudal.cli.progress import Progress, working
from caudal.cli.report import format_table
from caudal.cli.tail import report_json, summary_lines
from caudal.summary import model_summary

CROUCH_DEPTH = 0.4
"""How far the generated crouch lowers the creature's pelvis, metres: enough
for its 0.85 m hanging tail to go through the floor while the feet stay planted."""


def add_parser(sub: Any) -> None:
    p = sub.add_parser("demo", help="generate the built-in creature (needs no files)")
    p.add_argument("--out", default="caudal-demo", help="output folder (created)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with working("demo") as progress:
        result = build(out, progress)
    print_result(result, as_json=args.json)
    return 0 if result["roundtrip_identical"] else 1


def build(out: Path, progress: Progress) -> dict[str, Any]:
    """Every step of the demo; `progress.current` names the step under way."""
    progress.current = "writing the creature"
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
    progress.current = "growing and baking the tail"
    bake = caudal.bake(reread)
    # caudal.bake grew the chain itself (no rig was passed), so it has the report.
    appendages = bake.appendages
    assert appendages is not None
    after = out / "creature_tail.glb"
    bake.write(after)
    baked = caudal.load(after)
    walk = bake.clips[0].summary()
    chain = caudal.tail_chains(bake.rig)[0]
    progress.current = "measuring"
    stretch = caudal.stretch_table(reread, ["Walk"])[0]
    crouch = caudal.crouch_clip(bake.rig, CROUCH_DEPTH)
    excluded = caudal.pelvis_lift(bake.rig, crouch)
    counted = caudal.pelvis_lift(bake.rig, crouch, exclude_tail=False)
    extra = counted["pelvis_height_lifted"] - excluded["pelvis_height_lifted"]
    grounding = {
        "crouch_depth": CROUCH_DEPTH,
        "extra_lift_tail_counted": float(extra[-1]),
        "lift_tail_excluded": float(excluded["lift"].max()),
        "body_check_end": float(excluded["body_check"][-1]),
    }
    tail = {
        "bones": chain["bones"],
        "anchor": chain["anchor"],
        "walk": {k: walk[k] for k in ("looping", "warmup_passes", "closure_deg", "seam_ratio")},
        "baked_joints": baked.rig.joint_count,
    }
    summary = model_summary(reread)
    m: dict[str, Any] = {
        k: summary[k] for k in ("joint_count", "vertex_count", "triangle_count", "height", "clips")
    }
    roles: dict[str, Any] = {k: summary["roles"][k] for k in ("pelvis", "thighs", "shins", "head")}
    return {
        "files": {"creature": str(original), "roundtrip": str(roundtrip), "tail": str(after)},
        "roundtrip_identical": same,
        "appendages": report_json(appendages),
        "tail": tail,
        "stretch": stretch,
        "grounding": grounding,
        "model": m,
        "roles": roles,
    }


def print_result(result: dict[str, Any], as_json: bool) -> None:
    if as_json:
        print(json.dumps(result, indent=2))
    else:
        m, roles, tail, grounding = (
            result["model"],
            result["roles"],
            result["tail"],
            result["grounding"],
        )
        files, same, walk = result["files"], result["roundtrip_identical"], result["tail"]["walk"]
        print(
            f"demo creature: {m['joint_count']} joints, {m['vertex_count']} vertices, height {m['height']:.3f} m"
        )
        print(f"  pelvis {roles['pelvis']}, thighs {roles['thighs']}, shins {roles['shins']}")
        for c in m["clips"]:
            print(f"  clip {c['name']}: {c['duration']:.3f} s")
        print(f"  wrote {files['creature']}")
        print(f"  round trip {'identical' if same else 'DIFFERS'}: {files['roundtrip']}")
        print("appendages found:")
        for line in summary_lines(result["appendages"]):
            print(f"  {line}")
        print(f"tail chain {', '.join(tail['bones'])} under {tail['anchor']}")
        print(
            f"  Walk baked as a loop: {walk['warmup_passes']} warm-up passes, first/last keys "
            f"{walk['closure_deg']:.4f} deg apart, seam step {walk['seam_ratio']:.2f}x the median step"
        )
        print(f"  wrote {files['tail']}")
        print()
        print(format_table(result["stretch"]))
        print()
        print(f"grounding, a {CROUCH_DEPTH:.2f} m crouch with the tail hanging through the floor:")
        print(
            f"  extra pelvis lift with the tail counted: {100 * grounding['extra_lift_tail_counted']:.1f} cm"
        )
        print(f"  lift with the tail excluded: {100 * grounding['lift_tail_excluded']:.1f} cm")
        print(
            f"  body check at the end: {1000 * grounding['body_check_end']:.3f} mm from the reference floor"
        )
