"""``caudal report IN``: the edge-stretch table (SPEC M1) for a rig as a
template rigger delivered it: original weights, the tail rigid on the
pelvis (the harness's self-check, exactly 1.000), the grown chain with its
baked spring motion, and the body's own edges, always with how much the tail
moves: the amplitude (tip angle RMS against the tail carried rigidly in its
carry pose, SPEC M1) and the swing (about the tip's mean direction: motion
only). ``--plot`` draws the distributions side by side (matplotlib, the
optional ``plot`` extra, imported only when asked for)."""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import Any

import caudal
from caudal.cli.progress import each, working

LABELS = {
    "original": "original weights",
    "rigid": "rigid to pelvis",
    "chain": "tail chain",
    "body": "body, for comparison",
    "collar": "collar (tail-body seam), chain",
}


def add_parser(sub: Any) -> None:
    p = sub.add_parser("report", help="how far the tail's skin stretches: original weights, rigid, grown chain, body")
    p.add_argument("input", help="a rigged .glb/.gltf whose tail has no bones")
    p.add_argument("--clip", action="append", help="clip name (repeatable or comma-separated; default: every clip)")
    p.add_argument("--samples", type=int, default=24, help="evenly spaced times per clip (default 24)")
    p.add_argument("--character", type=int, help="index of the character to measure (default: every character of the file)")
    p.add_argument("--plot", metavar="PNG", help="write the stretch distributions as an image (needs matplotlib)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(run=run)


def clip_names(values: list[str] | None) -> list[str] | None:
    if not values:
        return None
    return [n.strip() for v in values for n in v.split(",") if n.strip()]


def format_table(entry: dict[str, Any]) -> str:
    lines = [
        f"{entry['clip']}: {entry['tail_edges']:,} tail edges x {entry['samples']} times "
        f"({entry['rows'][0]['samples']:,} samples), {entry['body_edges']:,} body edges, "
        f"{entry['collar_edges']:,} collar edges",
        "| rig | p95 | p99 | max | torn | tail amplitude | tail swing |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in entry["rows"]:
        if r["rig"] == "collar" and r["samples"] == 0:
            lines.append(f"| {LABELS['collar']} | no edges: the tail is a separate shell | | | | | |")
            continue
        torn = "-" if r["rig"] == "body" else f"{100 * r['torn_share']:.1f}%"
        amp = "-" if r["amplitude_deg"] is None else f"{r['amplitude_deg']:.1f} deg"
        swing = "-" if r["swing_deg"] is None else f"{r['swing_deg']:.1f} deg"
        lines.append(f"| {LABELS[r['rig']]} | {r['p95']:.2f} | {r['p99']:.2f} | {r['max']:.2f} | {torn} | {amp} | {swing} |")
    b = entry["bake"]
    if b["looping"]:
        lines.append(
            f"chain baked as a loop: {b['warmup_passes']} warm-up passes, closure {b['closure_deg']:.3f} deg, "
            f"seam step {b['seam_ratio']:.2f}x the median step"
        )
    else:
        lines.append(f"chain baked as a one-shot, settled {b['warmup_seconds']:.1f} s at the first pose")
    if b["seam_blend_deg"] > 0.0:
        lines.append(f"the tail's motion never repeated: the cycle was blended shut ({b['seam_blend_deg']:.2f} deg)")
    if b["bend_capacity"] < 1.0:
        lines.append(
            f"bend capacity {b['bend_capacity']:.2f}: the tail's bones are short for its thickness, "
            "so its carry and stop were scaled by that"
        )
    return "\n".join(lines)


def plot(entries: list[dict[str, Any]], path: Path, title: str) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as e:  # pragma: no cover - depends on the optional extra
        raise caudal.ParameterError(f"plot: matplotlib is not installed (pip install 'caudal[plot]'): {e}") from e
    fig, axes = plt.subplots(1, len(entries), figsize=(4.2 * len(entries), 4.0), squeeze=False)
    for ax, entry in zip(axes[0], entries):
        rows = [r for r in entry["rows"] if len(r["ratios"])]  # a separate-shell tail has no collar
        ax.boxplot([r["ratios"] for r in rows], whis=(1, 99), showfliers=False)
        ax.set_xticks(range(1, len(rows) + 1), [LABELS[r["rig"]].split(",")[0] for r in rows], rotation=20)
        ax.axhline(1.5, color="red", lw=0.8, ls="--", label="torn beyond 1.5 / below 0.67")
        ax.axhline(0.67, color="red", lw=0.8, ls="--")
        ax.legend(loc="upper right", fontsize="small")
        ax.set_title(entry["clip"])
        ax.set_ylabel("skinned / bind edge length (whiskers p1-p99)")
    fig.suptitle(title)
    fig.tight_layout()
    # Through a temporary in the same folder (the core's naming, so a killed
    # run's leftover is cleaned by the next write there): no partial image.
    tmp = path.with_name(f".caudal-{os.getpid()}-plot.tmp")
    try:
        fig.savefig(tmp, dpi=110, format="png")
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    plt.close(fig)


def run(args: argparse.Namespace) -> int:
    with working(f"reading {Path(args.input).name}"):
        model = caudal.load(args.input)
    chars = model.characters if args.character is None else [model.characters[args.character]] if 0 <= args.character < len(model.characters) else None
    if chars is None:
        raise caudal.ParameterError(f"--character: {args.input} has {len(model.characters)} character(s), no {args.character}")
    names = clip_names(args.clip)
    if names is None:
        names = model.clip_names
    for name in names:
        if name not in model.clip_names:
            raise caudal.NotFoundError(f"--clip: no animation named {name!r} (have: {', '.join(model.clip_names)})")

    def table(unit: tuple[Any, str]) -> dict[str, Any]:
        # Each clip's table stands alone: one call per clip gives the same
        # rows as one call for all, and a bar that counts clips.
        ch, name = unit
        (entry,) = caudal.stretch_table(ch, [name], samples=args.samples, ratios=bool(args.plot))
        return entry

    tables = each("measuring", [(ch, n) for ch in chars for n in names], table, name=lambda unit: unit[1])
    results = []
    for i, ch in enumerate(chars):
        entries = tables[i * len(names) : (i + 1) * len(names)]
        if args.plot:
            suffix = "" if len(chars) == 1 else f" character {ch.index} {ch.name!r}"
            png = Path(args.plot) if len(chars) == 1 else Path(args.plot).with_stem(f"{Path(args.plot).stem}_{ch.index}")
            plot(entries, png, f"{Path(args.input).name}{suffix}: edge stretch, {args.samples} times per clip")
        for e in entries:
            for r in e["rows"]:
                r.pop("ratios", None)
        results.append((ch, entries))
    if args.json:
        out: dict[str, Any] = {"input": args.input}
        if len(results) == 1:
            out["clips"] = results[0][1]
        out["characters"] = [{"character": ch.index, "name": ch.name, "clips": e} for ch, e in results]
        print(json.dumps(out, indent=2))
        return 0
    for ch, entries in results:
        who = "" if len(results) == 1 else f" character {ch.index} {ch.name!r}"
        print(f"{Path(args.input).name}{who}: how far the tail's skin stretches (skinned / bind edge length)")
        for e in entries:
            print()
            print(format_table(e))
    if args.plot:
        print(f"\nwrote {args.plot}")
    return 0
