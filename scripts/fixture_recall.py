"""Precision and recall of the grown chains on every degraded fixture in
assets/ (each ``*_notail.glb`` with its ``*_notail.truth.json``), the way
the generated corpus scores them (issue 12): a vertex is taken by a chain
when at least 45% of its weight is on the chain's bones; the chain taking
most true tail vertices is the tail's.

    python scripts/fixture_recall.py [--assets assets]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

import caudal

TAKEN_SHARE = 0.45


def chain_share(rig: caudal.Rig, bones: list[str]) -> np.ndarray:
    """Per vertex, the share of its weight on `bones`."""
    offsets, joints, weights = rig.influences()
    on = np.isin(joints, [rig.joint_names.index(b) for b in bones])
    per = np.where(on, weights, 0.0)
    return np.add.reduceat(per, offsets[:-1].astype(np.int64)) if len(per) else per


def measure(truth_path: Path) -> str:
    t = json.loads(truth_path.read_text())
    truth = set(int(v) for v in t["tail_vertices"])
    rig = caudal.load(str(truth_path.parent / t["output_file"])).rig
    out, report = caudal.grow_chains(rig)
    chains = [p for p in report["parts"] if p["decision"] == "chain"]
    if not chains:
        return f"{t['output_file']:<40} no chain"
    best = None
    for p in chains:
        taken = set(np.flatnonzero(chain_share(out, p["bones"]) >= TAKEN_SHARE).tolist())
        hit = len(taken & truth)
        if best is None or hit > best[0]:
            best = (hit, len(taken), p["attachment"])
    hit, n, parent = best
    precision = hit / n if n else 0.0
    return (
        f"{t['output_file']:<40} chains {len(chains)} on {parent:<18} "
        f"precision {precision:.3f} recall {hit / len(truth):.3f}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--assets", default="assets")
    args = ap.parse_args()
    for truth_path in sorted(Path(args.assets).glob("*/*_notail.truth.json")):
        print(measure(truth_path), flush=True)


if __name__ == "__main__":
    main()
