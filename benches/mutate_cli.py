"""Mutation run of the command line over the repository's assets (issue 14):

    python benches/mutate_cli.py --variants 3000 --workers 2 --seed 14

Each variant is a damaged asset (see python_tests/cli_mutation.py: container
bytes, binary-chunk bytes, structure-aware JSON edits, hostile URIs aimed at
a secret file outside the input's folder, a symlink to it and a FIFO) run
through ``caudal tail`` (with --report; sometimes --bake or a .gltf output)
or ``caudal info`` in a child process with a 30 s timeout under a 4 GiB
address-space limit. Prints a markdown table (figures copied into docs/gltf-io.md)
and every broken rule; exits 1 if any."""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "python_tests"))

from cli_mutation import BROKEN, SEEDS, make_variant, prepare_work, run_variant  # noqa: E402

RULES = [
    ("panics", ["panic"]),
    ("hangs (30 s)", ["hang"]),
    ("aborts or crashes under a 4 GiB address-space limit", ["abort", "crash"]),
    ("Python tracebacks from the CLI", ["traceback"]),
    ("failures not one line with exit code 2", ["noisy-error", "bad-exit"]),
    ("partial files", ["partial"]),
    ("outputs that fail to reload after a successful run", ["no-reload"]),
    ("outputs containing bytes from outside the input file's folder", ["leak"]),
]


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--variants", type=int, default=3000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=14)
    ap.add_argument(
        "--work",
        help="folder for the cases (default: a temporary folder); failing cases are kept there",
    )
    args = ap.parse_args()
    work = Path(args.work) if args.work else Path(tempfile.mkdtemp(prefix="caudal-mutate-"))
    prepare_work(work)
    t0 = time.perf_counter()
    done = 0

    def run(i):  # type: ignore[no-untyped-def]
        nonlocal done
        # Made when run, from its own seed: reproducible alone, and only
        # the variants in flight are held in memory.
        v = make_variant(i, random.Random(f"{args.seed}-{i}"))
        o = run_variant(v, work)
        o.variant.files.clear()
        done += 1
        if done % 250 == 0:
            print(
                f"  {done}/{args.variants} in {time.perf_counter() - t0:.0f} s",
                file=sys.stderr,
                flush=True,
            )
        return o

    with ThreadPoolExecutor(args.workers) as pool:
        outcomes = list(pool.map(run, range(args.variants)))
    elapsed = time.perf_counter() - t0
    counts = Counter(o.verdict for o in outcomes)
    by_command = Counter((o.variant.command[0], o.verdict) for o in outcomes)
    slowest = max(outcomes, key=lambda o: o.seconds)
    print(
        f"{len(outcomes)} variants of {len(SEEDS)} seeds (seed {args.seed}), {args.workers} workers, {elapsed:.0f} s"
    )
    print()
    print("| outcome | variants |")
    print("|---|---|")
    print(f"| refused with one line, exit code 2, nothing written | {counts['refused']} |")
    print(
        f"| `caudal tail` succeeded: output and report written, output reloads | {counts['ok-written']} |"
    )
    print(f"| `caudal info` succeeded | {counts['ok-info']} |")
    for label, verdicts in RULES:
        print(f"| {label} | {sum(counts[v] for v in verdicts)} |")
    print()
    print(
        f"slowest variant {slowest.seconds:.1f} s (#{slowest.variant.index}, {slowest.variant.seed}, {' '.join(slowest.variant.command[:1])})"
    )
    print("by command: " + ", ".join(f"{c} {v}: {n}" for (c, v), n in sorted(by_command.items())))
    broken = [o for o in outcomes if o.verdict in BROKEN]
    for o in broken[:50]:
        print(
            f"BROKEN #{o.variant.index} {o.variant.seed} {o.variant.mutations} {' '.join(o.variant.command)}: {o.verdict}: {o.detail}"
        )
    if broken:
        print(f"failing cases kept in {work}")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
