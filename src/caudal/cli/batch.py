"""``caudal batch INPUT... -o OUTDIR``: ``caudal tail`` (and ``caudal
report``'s stretch table) over a whole library, on a process pool or Ray.
All the work is ``caudal.batch``; this parses, shows progress and prints.

Exit status: 0 when every file was done, 1 when any file failed (each
failure is a row of the summary), 2 when the batch could not run at all."""

from __future__ import annotations

import argparse
import json
import os
from typing import Any

import caudal

# caudal.pipeline reuses caudal tail's helpers, so it imports this package
# while it loads: its names are looked up when a command runs.
from caudal import pipeline
from caudal.cli.batch_progress import BatchProgress
from caudal.cli.options import add_repair_options


def batch_options(split: int) -> list[tuple[str, dict[str, Any]]]:
    """The options of ``caudal batch`` beside the repair options: the
    report, the engine, resuming and the summary's form."""
    workers = os.cpu_count() or 1
    return [
        ("--samples", {"type": int, "default": 24, "help": "evenly spaced times per clip of the stretch report (default 24; 0: no report)"}),
        ("--workers", {"type": int, "default": workers, "help": "processes (local) or CPUs of a local Ray (default: every core)"}),
        ("--engine", {"choices": ["local", "ray"], "default": "local", "help": "local: a process pool (default); ray: one Ray task per file (pip install 'caudal[ray]')"}),
        ("--address", {"help": "with --engine ray: an existing Ray cluster (e.g. ray://head:10001, or auto)"}),
        ("--character-tasks-above", {"type": int, "default": split, "metavar": "VERTICES", "help": f"with --engine ray: a file with several characters and more vertices than this gets a task per character (default {split:,})"}),
        ("--resume", {"action": "store_true", "help": "skip files whose output exists for the same input bytes and settings"}),
        ("--json", {"action": "store_true", "help": "print the summary as JSON (progress still goes to stderr)"}),
    ]  # fmt: skip


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "batch",
        help="repair many files (folders, manifests) into one folder, with a summary; a process pool or Ray",
        description=(
            "Repairs every input file (as caudal tail), bakes if asked, measures (as caudal report) and writes "
            "OUTDIR/<name>.glb, OUTDIR/<name>.report.json, OUTDIR/summary.csv and OUTDIR/summary.jsonl "
            "(one row per character). A bad file becomes an error row; exit status 1 if any file failed."
        ),
    )
    p.add_argument(
        "inputs",
        nargs="+",
        metavar="INPUT",
        help=".glb/.gltf files, folders (searched for them), or manifests (.csv, .jsonl: a path column and optional settings)",
    )
    p.add_argument("-o", "--out", required=True, metavar="OUTDIR", help="output folder")
    add_repair_options(p)
    for flag, options in batch_options(pipeline.run.CHARACTER_TASKS_ABOVE):
        p.add_argument(flag, **options)
    p.set_defaults(run=run, usage_error=p.error)


def run(args: argparse.Namespace) -> int:
    if args.address and args.engine != "ray":
        args.usage_error("--address only applies with --engine ray")
    if args.loop and not args.bake:
        args.usage_error("--loop only applies with --bake")
    if args.workers < 1:
        args.usage_error(f"--workers must be at least 1 (got {args.workers})")
    settings = pipeline.RepairSettings.from_args(args)
    batch = caudal.batch(
        args.inputs,
        args.out,
        settings,
        workers=args.workers,
        engine=args.engine,
        address=args.address,
        resume=args.resume,
        character_tasks_above=args.character_tasks_above,
    )
    with BatchProgress(len(batch)) as progress:
        for result in batch:
            progress.update(result)
    summary = batch.summary()
    failed = summary.failed
    files = len(batch)
    resumed = len({r["file"] for r in summary.rows if r["resumed"]})
    if args.json:
        out = {
            "out": args.out,
            "files": files,
            "failed": len({r["file"] for r in failed}),
            "resumed": resumed,
            "summary_csv": os.path.join(args.out, "summary.csv"),
            "summary_jsonl": os.path.join(args.out, "summary.jsonl"),
            "rows": [pipeline.rows.finite(r) for r in summary.records()],
        }
        print(json.dumps(out, indent=2))
    else:
        done = [r for r in summary.rows if r["status"] == "done"]
        print(
            f"{files} file(s): {files - len(failed)} done ({resumed} resumed), {len(failed)} failed; "
            f"{len(done)} character(s), {sum(r['tails'] for r in done)} tail(s), {sum(r['tail_bones'] for r in done)} bone(s) grown"
        )
        for r in failed:
            print(f"  failed {r['file']}: {r['error_type']}: {r['error']}")
        print(f"wrote {os.path.join(args.out, 'summary.csv')} and summary.jsonl")
    return 1 if failed else 0
