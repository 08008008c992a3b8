"""Issue 13's whole-mesh bars on the generated corpus (issue 12's seeded
creatures): for every tail of every character, the repaired file's clips
(the looping Walk and the one-shot Crouch the generator animates), rows
following the true tail. Per clip: edges torn by the repair (against the
rigid baseline), the same count for the artist's own rig (its true tail
rigid on its parent), the collar's torn share against the artist's, and the
body's drift as a share of H. Prints a table by class and a summary; exits
non-zero when a bar fails.

    python scripts/corpus_whole_mesh.py [--seeds 0:40] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from typing import Any

import numpy as np
from artist_reference import artist_torn_by_tail

import caudal

BODY_DRIFT_BAR = 0.002  # share of H (issue 13; caudal's BODY_DRIFT_SHARE)
RATE = 30.0


def rig_indices(model: caudal.Character, lists: list[dict[str, Any]]) -> np.ndarray:
    """The truth's per-primitive vertex lists as the character's rig vertex ids."""
    offsets = {(p["mesh"], p["primitive"]): p["vertex_offset"] for p in model.primitives()}
    return np.concatenate(
        [offsets[(v["mesh"], v["primitive"])] + np.asarray(v["vertices"]) for v in lists]
    ).astype(np.uint32)


def measure_tail(
    repaired: caudal.Character, artist: caudal.Character, tail: dict[str, Any]
) -> list[dict[str, Any]]:
    """One row per clip of the file for one true tail."""
    tv = rig_indices(repaired, tail["vertices"])
    av = rig_indices(artist, tail["vertices"]).astype(np.int64)
    try:
        entries = caudal.stretch_table(repaired, None, rate=RATE, truth=tv)
    except caudal.NotFoundError:
        return [{"clip": "*", "no_chain": True}]
    rows = []
    for e in entries:
        mesh = e["mesh"]
        repaired_rows = {r["region"]: r for r in mesh["rigs"][2]["rows"]}
        clip = artist.clip(e["clip"], RATE)
        own = {r["region"]: r for r in caudal.edge_stretch(artist.rig, clip, av)["regions"]}
        rows.append(
            {
                "clip": e["clip"],
                "looping": e["bake"]["looping"],
                "torn_by_repair": mesh["torn_by_repair"]["edges"],
                "by_region": mesh["torn_by_repair"]["by_region"],
                "artist_torn_by_tail": artist_torn_by_tail(artist, clip, av, tail["parent"]),
                "collar": repaired_rows["collar"]["torn_share"],
                "artist_collar": own["collar"]["torn_share"],
                "tail_torn": repaired_rows["tail"]["torn_share"],
                "drift_share_h": mesh["body_drift"]["share_h"],
                "swing_deg": mesh["motion"]["swing_deg"],
            }
        )
    return rows


def measure_seed(seed: int) -> list[dict[str, Any]]:
    glb, artist_glb, truth = caudal.generated_creature(seed)
    model, artist = caudal.load_bytes(glb), caudal.load_bytes(artist_glb)
    out = []
    for ch in truth["characters"]:
        for k, tail in enumerate(ch["tails"]):
            for row in measure_tail(
                model.characters[ch["skin"]], artist.characters[ch["skin"]], tail
            ):
                out.append({"seed": seed, "classes": truth["classes"], "tail": k, **row})
    return out


def fails_of(row: dict[str, Any]) -> list[str]:
    if row.get("no_chain"):
        return ["no_chain"]
    fails = []
    if row["torn_by_repair"]:
        fails.append("torn_by_repair")
    if row["collar"] > row["artist_collar"]:
        fails.append("collar")
    if row["drift_share_h"] > BODY_DRIFT_BAR:
        fails.append("drift")
    if row["tail_torn"] > 0:
        fails.append("tail_torn")
    return fails


def summary(rows: list[dict[str, Any]]) -> str:
    measured = [r for r in rows if not r.get("no_chain")]
    lines = [
        "| clip | rows | nothing torn by the repair | no more than the artist's own | collar <= artist's | body within 0.2% H | true tail 0% torn |",
        "|---|---|---|---|---|---|---|",
    ]
    for clip in sorted({r["clip"] for r in measured}):
        rs = [r for r in measured if r["clip"] == clip]
        n = len(rs)
        lines.append(
            f"| {clip} | {n} | {sum(r['torn_by_repair'] == 0 for r in rs)} "
            f"| {sum(r['torn_by_repair'] <= r['artist_torn_by_tail'] for r in rs)} "
            f"| {sum(r['collar'] <= r['artist_collar'] for r in rs)} "
            f"| {sum(r['drift_share_h'] <= BODY_DRIFT_BAR for r in rs)} "
            f"| {sum(r['tail_torn'] == 0 for r in rs)} |"
        )
    no_chain = sum(1 for r in rows if r.get("no_chain"))
    lines.append("")
    lines.append(f"tails with no chain (not measured): {no_chain}")
    by_class: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for r in rows:
        for c in r["classes"]:
            by_class[c][0] += 1
            by_class[c][1] += not fails_of(r)
    lines += ["", "| class | rows | every bar met |", "|---|---|---|"]
    lines += [f"| {c} | {n} | {ok} |" for c, (n, ok) in sorted(by_class.items())]
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default="0:40", help="first:end (end excluded)")
    ap.add_argument("--json", help="write the measurements here")
    args = ap.parse_args()
    first, end = (int(x) for x in args.seeds.split(":"))
    rows: list[dict[str, Any]] = []
    for seed in range(first, end):
        rows += measure_seed(seed)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    print(summary(rows))
    return 1 if any(fails_of(r) for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
