"""Batch throughput: the repository's assets plus 200 generated creatures
through ``caudal.batch`` (repair, bake, stretch report), on the process pool
with 1 and 2 workers and on a local Ray with 2 CPUs, side by side in one
run (rounds interleave the engines; the best round of each is kept).

Checks on the way that the three give the same summary (times aside) and
byte-identical GLBs, and prints the table docs/benchmarks.md shows (Batch throughput).

    python benches/batch.py [--creatures 200] [--rounds 2]

Needs ``pip install 'caudal[ray]'`` for the Ray rows (skipped without it).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import caudal

ROOT = Path(__file__).resolve().parent.parent


def comparable(rows: list[dict]) -> list[dict]:
    return [
        {k: v for k, v in r.items() if not k.endswith("seconds") and k != "resumed"} for r in rows
    ]


def glbs(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*.glb"))}


def run(
    inputs: list[Path], out: Path, settings: caudal.RepairSettings, **kw: object
) -> tuple[float, list[dict]]:
    start = time.perf_counter()
    batch = caudal.batch(inputs, out, settings, **kw)  # type: ignore[arg-type]
    for _ in batch:
        pass
    return time.perf_counter() - start, batch.summary().rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--creatures", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    try:
        import ray
    except ImportError:
        ray = None
        print("ray is not installed: no Ray rows (pip install 'caudal[ray]')", file=sys.stderr)
    settings = caudal.RepairSettings(bake=True)
    with tempfile.TemporaryDirectory(prefix="caudal-bench-batch-") as tmp:
        creatures = Path(tmp) / "creatures"
        creatures.mkdir()
        for seed in range(args.creatures):
            (creatures / f"creature_{seed:03d}.glb").write_bytes(caudal.generated_creature(seed)[0])
        inputs = [ROOT / "assets", creatures]
        files = len(caudal.batch(inputs, Path(tmp) / "count"))
        engines = [("local", 1), ("local", 2)] + ([("ray", 2)] if ray is not None else [])
        best: dict[tuple[str, int], float] = {}
        startup: list[float] = []
        reference: tuple[list[dict], dict[str, bytes]] | None = None
        for r in range(args.rounds):
            for engine, workers in engines:
                out = Path(tmp) / f"{engine}{workers}_{r}"
                if engine == "ray":
                    t = time.perf_counter()
                    ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
                    startup.append(time.perf_counter() - t)
                try:
                    seconds, rows = run(inputs, out, settings, workers=workers, engine=engine)
                finally:
                    if engine == "ray":
                        ray.shutdown()
                best[(engine, workers)] = min(seconds, best.get((engine, workers), float("inf")))
                outputs = glbs(out)
                if reference is None:
                    reference = (comparable(rows), outputs)
                else:
                    same_rows = comparable(rows) == reference[0]
                    same_bytes = outputs.keys() == reference[1].keys() and all(
                        outputs[k] == reference[1][k] for k in outputs
                    )
                    if not (same_rows and same_bytes):
                        print(
                            f"MISMATCH: {engine} x{workers} round {r}: summary {same_rows}, GLB bytes {same_bytes}",
                            file=sys.stderr,
                        )
                        return 1
        failed = sum(1 for row in reference[0] if row["status"] == "failed") if reference else 0
        print(
            f"{files} files ({args.creatures} generated creatures + the repository's assets), repair + bake + stretch report, "
            f"best of {args.rounds} round(s); load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; "
            f"summary and GLB bytes identical across engines; {failed} failed"
        )
        print()
        print("| engine | workers | seconds | files/s | vs process pool, 2 workers |")
        print("|---|---|---|---|---|")
        base = best[("local", 2)]
        for (engine, workers), seconds in best.items():
            name = "process pool" if engine == "local" else "Ray (local, started before)"
            print(
                f"| {name} | {workers} | {seconds:.2f} | {files / seconds:.1f} | {seconds / base:.2f}x |"
            )
        if startup:
            s = min(startup)
            print(
                f"| Ray, its start included | 2 | {best[('ray', 2)] + s:.2f} | {files / (best[('ray', 2)] + s):.1f} | {(best[('ray', 2)] + s) / base:.2f}x |"
            )
            print()
            print(f"Ray's start (ray.init, 2 CPUs): {s:.2f} s, best of {len(startup)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
