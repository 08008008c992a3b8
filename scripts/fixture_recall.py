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


def tails_chain(
    out: caudal.Rig, report: dict, truth: np.ndarray
) -> tuple[dict, np.ndarray, int] | None:
    """The chain taking most of the true tail's vertices (the first of
    equals), its per-vertex share, and how many chains were grown; `None`
    when none was."""
    chains = [p for p in report["parts"] if p["decision"] == "chain"]
    if not chains:
        return None
    shares = [chain_share(out, p["bones"]) for p in chains]
    best = max(range(len(chains)), key=lambda i: int((shares[i][truth] >= TAKEN_SHARE).sum()))
    return chains[best], shares[best], len(chains)


def grown(
    truth_path: Path,
) -> tuple[dict, np.ndarray, caudal.Rig, tuple[dict, np.ndarray, int] | None]:
    """A fixture's truth, its true tail's vertices (sorted), the repaired
    rig and its tail's chain (see `tails_chain`)."""
    t = json.loads(truth_path.read_text())
    truth = np.array(sorted(int(v) for v in t["tail_vertices"]))
    rig = caudal.load(str(truth_path.parent / t["output_file"])).rig
    out, report = caudal.grow_chains(rig)
    return t, truth, out, tails_chain(out, report, truth)


def measure(truth_path: Path) -> str:
    t, truth, _, found = grown(truth_path)
    if found is None:
        return f"{t['output_file']:<40} no chain"
    part, share, count = found
    taken = share >= TAKEN_SHARE
    hit, n = int(taken[truth].sum()), int(taken.sum())
    precision = hit / n if n else 0.0
    return (
        f"{t['output_file']:<40} chains {count} on {part['attachment']:<18} "
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
