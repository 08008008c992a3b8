"""The whole-mesh stretch table of issue 13 over every degraded fixture in
assets/ (each ``*_notail.glb`` with its ``*_notail.truth.json``): every
looping clip at 24 times, the rows following the true tail, the artist's own
rig (the file the fixture was made from, same mesh and clip) measured the
same way, and a generated crouch. Prints markdown (docs/whole-mesh-stretch.md
holds its output) and exits non-zero when a bar fails.

    python scripts/whole_mesh_table.py [--assets assets] [--only Fox,Wolf] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from artist_reference import artist_torn_by_tail

import caudal

BODY_DRIFT_BAR = 0.002  # share of H (issue 13; caudal's BODY_DRIFT_SHARE)
CLOSURE_BAR_DEG = 0.5
MIN_SWING_BAR_DEG = 1.0
RATE = 30.0


def rows(mesh_rig: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {x["region"]: x for x in mesh_rig["rows"]}


def measure(truth_path: Path) -> dict[str, Any]:
    t = json.loads(truth_path.read_text())
    folder = truth_path.parent
    tail = np.asarray(t["tail_vertices"], dtype=np.uint32)
    degraded = caudal.load(str(folder / t["output_file"]))
    artist = caudal.load(str(folder / t["source_file"]))
    start = time.time()
    out: dict[str, Any] = {"fixture": t["output_file"], "clips": [], "crouch": None}
    try:
        entries = caudal.stretch_table(degraded, None, rate=RATE, truth=tail)
    except caudal.NotFoundError as err:
        # No chain grown: the repair writes the file back unchanged, so it
        # tears and moves nothing, and the true tail keeps the rigger's
        # weights (a failed bar, not a figure).
        out["no_chain"] = str(err)
        out["crouch"] = {"error": "no chain grown"}
        out["seconds"] = time.time() - start
        return out
    for e in entries:
        if not e["bake"]["looping"]:
            continue
        mesh = e["mesh"]
        by = {r["rig"]: rows(r) for r in mesh["rigs"]}
        clip = artist.clip(e["clip"], RATE)
        own = caudal.edge_stretch(artist.rig, clip, tail)
        own_rows = {x["region"]: x for x in own["regions"]}
        own_torn = artist_torn_by_tail(artist, clip, tail, t["skins"][0]["tail_root_parent"])
        out["clips"].append(
            {
                "clip": e["clip"],
                "repaired": {
                    k: {f: v[f] for f in ("edges", "p95", "p99", "max", "torn_share", "torn_edges")}
                    for k, v in by["repaired"].items()
                },
                "rigger": {
                    k: {f: v[f] for f in ("p99", "torn_share", "torn_edges")}
                    for k, v in by["rigger"].items()
                },
                "rigid": {
                    k: {f: v[f] for f in ("p99", "torn_share", "torn_edges")}
                    for k, v in by["rigid"].items()
                },
                "artist": {
                    k: {f: v[f] for f in ("p99", "torn_share", "torn_edges")}
                    for k, v in own_rows.items()
                },
                "torn_by_repair": {
                    k: mesh["torn_by_repair"][k] for k in ("edges", "samples", "by_region")
                },
                "artist_torn_by_tail": own_torn,
                "torn_by_repair_worst": mesh["torn_by_repair"]["worst"],
                "drift_share_h": mesh["body_drift"]["share_h"],
                "swing_deg": mesh["motion"]["swing_deg"],
                "closure_deg": e["bake"]["closure_deg"],
                "band_share_h": mesh["band_width_share_h"],
                "seam": mesh["seam"],
            }
        )
    try:
        c = caudal.crouch_stretch(degraded, rate=RATE, truth=tail)
        m = c["mesh"]
        by = rows(m["rigs"][2])
        out["crouch"] = {
            "drift_share_h": m["body_drift"]["share_h"],
            "torn_by_repair": m["torn_by_repair"]["edges"],
            "swing_deg": m["motion"]["swing_deg"],
            "height": degraded.characters[0].height,
            "depth": c["depth"],
            "floor": c["floor"],
            "tail_lowest": m["tail_lowest"],
            **{
                f"{k}_{f}": by[k][f]
                for k in ("tail", "collar", "body", "whole")
                for f in ("torn_share", "p99")
            },
        }
    except caudal.CaudalError as err:
        out["crouch"] = {"error": str(err)}
    out["seconds"] = time.time() - start
    return out


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def table(results: list[dict[str, Any]]) -> tuple[str, list[str]]:
    lines = [
        "| fixture | clip | tail torn / p99 | collar torn / p99 (artist's torn) | body torn / p99 | whole torn / p99 | torn by repair (artist's own) | swing | body drift | closure |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    fails = []
    for r in results:
        name = r["fixture"].removesuffix(".glb")
        if "no_chain" in r:
            lines.append(
                f"| {name} | every clip | no chain grown: written back unchanged, nothing torn or moved by the repair; the true tail keeps the rigger's weights | | | | 0 | | 0.000% | |"
            )
            fails.append(f"{name}: no chain on the true tail")
        for c in r["clips"]:
            clip = c["clip"].replace(
                "|", "\\|"
            )  # Blender's Armature|Action names, in a markdown cell
            rep, art = c["repaired"], c["artist"]
            tail, body, collar, whole = rep["tail"], rep["body"], rep["collar"], rep["whole"]
            tbr = c["torn_by_repair"]
            where = ",".join(f"{k[0]}{v}" for k, v in tbr["by_region"].items() if v)
            lines.append(
                f"| {name} | {clip} | {pct(tail['torn_share'])} / {tail['p99']:.2f} "
                f"| {pct(collar['torn_share'])} / {collar['p99']:.2f} ({pct(art['collar']['torn_share'])}) "
                f"| {pct(body['torn_share'])} / {body['p99']:.2f} | {pct(whole['torn_share'])} / {whole['p99']:.2f} "
                f"| {tbr['edges']}{' (' + where + ')' if where else ''} ({c['artist_torn_by_tail']}) | {c['swing_deg']:.1f} | {100 * c['drift_share_h']:.3f}% | {c['closure_deg']:.3f} |"
            )
            label = f"{name} {c['clip']}"
            if tbr["edges"]:
                fails.append(
                    f"{label}: {tbr['edges']} edges torn by the repair ({where}; the artist's own rig: {c['artist_torn_by_tail']})"
                )
            if tail["torn_share"] > 0:
                fails.append(f"{label}: true tail torn {pct(tail['torn_share'])}")
            if tail["p99"] > body["p99"]:
                fails.append(f"{label}: tail p99 {tail['p99']:.2f} > body {body['p99']:.2f}")
            if c["swing_deg"] < MIN_SWING_BAR_DEG:
                fails.append(f"{label}: swing {c['swing_deg']:.2f} deg")
            if collar["torn_share"] > art["collar"]["torn_share"]:
                fails.append(
                    f"{label}: collar torn {pct(collar['torn_share'])} > artist's {pct(art['collar']['torn_share'])}"
                )
            if c["drift_share_h"] > BODY_DRIFT_BAR:
                fails.append(f"{label}: body drift {100 * c['drift_share_h']:.3f}% H")
            if c["closure_deg"] > CLOSURE_BAR_DEG:
                fails.append(f"{label}: loop closure {c['closure_deg']:.3f} deg")
        cr = r["crouch"]
        if "error" in cr:
            lines.append(f"| {name} | crouch | not generated: {cr['error']} | | | | | | | |")
            continue
        lines.append(
            f"| {name} | crouch | {pct(cr['tail_torn_share'])} / {cr['tail_p99']:.2f} | {pct(cr['collar_torn_share'])} / {cr['collar_p99']:.2f} "
            f"| {pct(cr['body_torn_share'])} / {cr['body_p99']:.2f} | {pct(cr['whole_torn_share'])} / {cr['whole_p99']:.2f} | {cr['torn_by_repair']} | {cr['swing_deg']:.1f} | {100 * cr['drift_share_h']:.3f}% | |"
        )
        if cr["drift_share_h"] > BODY_DRIFT_BAR:
            fails.append(f"{name} crouch: body drift {100 * cr['drift_share_h']:.3f}% H")
        if cr["torn_by_repair"]:
            fails.append(f"{name} crouch: {cr['torn_by_repair']} edges torn by the repair")
    lines += [
        "",
        "Crouches, as shares of H: the pelvis's depth, the floor the spring met, and the lowest point of the true tail's skin",
        "over the crouch for the rigid tail, the rigger's and the repaired one (the spring keeps the tail's centre line,",
        "not its skin, above the floor).",
        "",
        "| fixture | depth | floor | rigid tail lowest | rigger's | repaired |",
        "|---|---|---|---|---|---|",
    ]
    for r in results:
        cr = r["crouch"]
        if "error" in cr:
            continue
        h, low = cr["height"], cr["tail_lowest"]
        lines.append(
            f"| {r['fixture'].removesuffix('.glb')} | {pct(cr['depth'] / h)} | {pct(cr['floor'] / h)} "
            f"| {pct(low['rigid'] / h)} | {pct(low['rigger'] / h)} | {pct(low['repaired'] / h)} |"
        )
    return "\n".join(lines), fails


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--assets", default=str(Path(__file__).resolve().parent.parent / "assets"))
    ap.add_argument("--only", help="comma-separated name fragments")
    ap.add_argument("--json", help="write the measurements here")
    args = ap.parse_args()
    truths = sorted(Path(args.assets).glob("*/*_notail.truth.json"))
    if args.only:
        keep = [s.lower() for s in args.only.split(",")]
        truths = [t for t in truths if any(k in t.name.lower() for k in keep)]
    results = []
    for t in truths:
        r = measure(t)
        print(
            f"measured {r['fixture']}: {len(r['clips'])} looping clips in {r['seconds']:.0f} s",
            file=sys.stderr,
            flush=True,
        )
        results.append(r)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    text, fails = table(results)
    print(text)
    print()
    print(f"{len(fails)} bar(s) failed" + (":" if fails else ""))
    for f in fails:
        print(f"- {f}")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
