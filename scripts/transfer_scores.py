#!/usr/bin/env python3
"""Transfer tables for docs/solve.md: every shared animal and clip onto its own
mesh (control) and two clips onto each re-meshed target, scored
independently in numpy (python_tests/transfer_truth.py) at 24 evenly spaced
times against the exact answer, beside the figures caudal reports.

    python scripts/transfer_scores.py [--control] [--all-clips] [--remeshed] [--mode rigid|rotation_only] [--rate R]

The source clip is keyed at its own key times (``--rate`` samples it evenly
instead, as caudal did before issue 18). Writes each solved file into a
temporary folder, reads it back with the numpy reader, prints markdown
tables.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "python_tests"))

import transfer_truth as tt  # noqa: E402
from gltf_numpy import NumpyGltf  # noqa: E402

import caudal  # noqa: E402

ANIMALS = [
    ("fox/Fox.glb", "Fox", ["Walk", "Run"]),
    ("quaternius_wolf/Wolf.gltf", "Wolf", ["Walk", "Gallop"]),
    ("quaternius_shiba_inu/ShibaInu.gltf", "ShibaInu", ["Walk", "Gallop"]),
    ("quaternius_alpaca/Alpaca.gltf", "Alpaca", ["Walk", "Gallop"]),
]
KINDS = ("subdivided", "decimated", "voxel")


def transfer(
    src_path: Path, clip: str, tgt_path: Path, out: Path, mode: str, rate: float | None
) -> tuple[dict, float]:
    src, tgt = caudal.load(src_path), caudal.load(tgt_path)
    t0 = time.perf_counter()
    c = src.clip(clip, rate) if rate else src.clip(clip, keys=True)
    solved, report = caudal.transfer_clip(src.rig, c, tgt.rig, mode=mode, report="summary")
    seconds = time.perf_counter() - t0
    tgt.write(out, tracks=caudal.clip_tracks(tgt, solved, clip))
    return report, seconds


def row(
    src_path: Path,
    clip: str,
    tgt_path: Path,
    names: dict[str, str],
    mode: str,
    rate: float | None,
    tmp: Path,
) -> dict:
    out = tmp / f"{tgt_path.stem}_{clip}.glb"
    report, seconds = transfer(src_path, clip, tgt_path, out, mode, rate)
    g = NumpyGltf(src_path)
    times = tt.even_times(g, tt.animation_index(g, clip))
    got = tt.played(out, clip, times)
    want = tt.exact(src_path, clip, tgt_path, names, times)
    s = tt.score(got, want, tt.rest(tgt_path))
    loop = None
    first, last = tt.played(src_path, clip, [times[0], times[-1]])
    if abs(first - last).max() < 1e-4 * tt.diagonal(tt.rest(src_path)):
        a, b = got[0], got[-1]
        loop = float(abs(a - b).max() / tt.diagonal(tt.rest(tgt_path)))
    return {"score": s, "report": report, "seconds": seconds, "loop": loop}


def fmt_report(r: dict) -> str:
    keys = ["quality", "quality_keys", "quality_halfway", "worst_error", "bone_length_change"]
    return ", ".join(f"{k} {r[k]:.5f}" for k in keys if k in r and isinstance(r[k], float))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--control", action="store_true")
    ap.add_argument("--remeshed", action="store_true")
    ap.add_argument("--all-clips", action="store_true", help="control: every clip of each animal")
    ap.add_argument("--mode", default="rigid")
    ap.add_argument("--rate", type=float, default=None)
    args = ap.parse_args()
    assets = ROOT / "assets"
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        if args.control or not args.remeshed:
            print(f"\nControl (same mesh), {args.mode}, scored at 24 even times")
            print(
                "| animal | clip | quality | worst vertex (% diag) | loop seam (% diag) | reported | s |"
            )
            print("|---|---|---|---|---|---|---|")
            for rel, short, clips in ANIMALS:
                path = assets / rel
                names = caudal.load(path).clip_names if args.all_clips else clips
                for clip in names:
                    r = row(path, clip, path, {}, args.mode, args.rate, tmp)
                    s = r["score"]
                    loop = "-" if r["loop"] is None else f"{r['loop'] * 100:.4f}"
                    print(
                        f"| {short} | {clip} | {s['quality'] * 100:.3f}% | {s['worst'] * 100:.4f} | {loop} | {fmt_report(r['report'])} | {r['seconds']:.2f} |"
                    )
        if args.remeshed:
            print(f"\nRe-meshed targets, {args.mode}, against the exact answer at 24 even times")
            print("| animal | kind | clip | quality | worst vertex (% diag) | reported | s |")
            print("|---|---|---|---|---|---|---|")
            for rel, short, clips in ANIMALS:
                path = assets / rel
                for kind in KINDS:
                    tgt = path.parent / f"{short}_{kind}.glb"
                    names = json.loads(tgt.with_suffix(".truth.json").read_text())["joint_names"]
                    for clip in clips:
                        r = row(path, clip, tgt, names, args.mode, args.rate, tmp)
                        s = r["score"]
                        print(
                            f"| {short} | {kind} | {clip} | {s['quality'] * 100:.2f}% | {s['worst'] * 100:.3f} | {fmt_report(r['report'])} | {r['seconds']:.2f} |"
                        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
