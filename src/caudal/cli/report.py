"""``caudal report IN``: the edge-stretch table (SPEC M1) for a rig as a
template rigger delivered it: original weights, the tail rigid on the
pelvis (the harness's self-check, exactly 1.000), the grown chain with its
baked spring motion, and the body's own edges, always with how much the tail
moves: the amplitude (tip angle RMS against the tail carried rigidly in its
carry pose, SPEC M1) and the swing (about the tip's mean direction: motion
only). ``--plot`` draws the distributions side by side (matplotlib, the
optional ``plot`` extra, imported only when asked for).

Below each table, the whole mesh (issue 13): every edge in four rows (the
tail beyond the collar band, the collar band on both sides of the tail's
root, the body beyond it, the whole mesh) for the tail rigid on the pelvis,
the rig as the rigger delivered it and the repaired rig; the edges the
repair tears that the rigid baseline keeps; how far body vertices outside
the band moved from the rigger's skinning. ``--truth`` (a
``*.truth.json``) makes the rows follow the true tail; ``--crouch`` adds a
generated crouch whose tail presses on the floor. The growth options
(``--min-bones``, ``--pelvis``, ``--rigid``...) and ``--spring`` are
``caudal tail``'s: the report measures the repair they make."""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import Any

import caudal
from caudal.cli.options import add_growth_options, add_spring_option
from caudal.cli.progress import each, working
from caudal.cli.tail import as_spring, check_pelvis, grow_keywords, pairs, pelvis_of, spring_value

LABELS = {
    "original": "original weights",
    "rigid": "rigid to pelvis",
    "chain": "tail chain",
    "body": "body, for comparison",
    "collar": "collar (tail-body seam), chain",
}


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "report",
        help="how far the tail's skin stretches: original weights, rigid, grown chain, body",
    )
    p.add_argument("input", help="a rigged .glb/.gltf whose tail has no bones")
    p.add_argument(
        "--clip",
        action="append",
        help="clip name (repeatable or comma-separated; default: every clip)",
    )
    p.add_argument(
        "--samples", type=int, default=24, help="evenly spaced times per clip (default 24)"
    )
    p.add_argument(
        "--character",
        type=int,
        help="index of the character to measure (default: every character of the file)",
    )
    p.add_argument(
        "--plot",
        metavar="PNG",
        help="write the stretch distributions as an image (needs matplotlib)",
    )
    p.add_argument(
        "--truth",
        metavar="JSON",
        help="a *.truth.json: the whole-mesh rows follow its true tail (tail_vertices)",
    )
    p.add_argument(
        "--crouch",
        action="store_true",
        help="add a generated crouch (a quarter of the height, the tail on the floor)",
    )
    add_growth_options(p)
    add_spring_option(p, "the chain's motion")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(run=run)


RIGS = {"rigid": "rigid", "rigger": "rigger", "repaired": "repaired"}


def format_mesh(mesh: dict[str, Any]) -> str:
    """The whole-mesh view of one clip as markdown."""
    tail = "true tail" if mesh["truth"] else "detected tail"
    band = (
        "" if mesh["seam"] else " (the tail is a separate shell: the band starts at its root end)"
    )
    lines = [
        f"whole mesh: {tail} of {mesh['tail_vertices']:,} vertices; collar band {mesh['band_width_share_h'] * 100:.1f}% H "
        f"of geodesic reach on each side of the tail root (one root thickness){band}",
        "| row | edges | rigid p99 / torn | rigger p99 / torn | repaired p95 / p99 / max | repaired torn (edges) |",
        "|---|---|---|---|---|---|",
    ]
    by = {r["rig"]: {x["region"]: x for x in r["rows"]} for r in mesh["rigs"]}
    for region in ("tail", "collar", "body", "whole"):
        rg, ri, rp = by["rigid"][region], by["rigger"][region], by["repaired"][region]
        if rp["edges"] == 0:
            lines.append(f"| {region} | 0 | | | | |")
            continue
        lines.append(
            f"| {region} | {rp['edges']:,} | {rg['p99']:.2f} / {100 * rg['torn_share']:.2f}% | {ri['p99']:.2f} / {100 * ri['torn_share']:.2f}% "
            f"| {rp['p95']:.2f} / {rp['p99']:.2f} / {rp['max']:.2f} | {100 * rp['torn_share']:.2f}% ({rp['torn_edges']}) |"
        )
    t = mesh["torn_by_repair"]
    where = ", ".join(f"{k} {v}" for k, v in t["by_region"].items() if v)
    lines.append(
        f"torn by the repair (torn where the rigid baseline keeps them): {t['edges']} edges, {t['samples']} edge-samples"
        + (f" ({where})" if where else "")
    )
    for w in t["worst"]:
        a, b = w["vertices"]
        lines.append(
            f"  vertices {a}-{b}: {w['ratio']:.2f} at frame {w['frame']}, near {w['joint']}"
        )
    d = mesh["body_drift"]
    at = "" if d["vertex"] is None else f" (vertex {d['vertex']}, frame {d['frame']})"
    lines.append(
        f"body drift outside the band: {100 * d['share_h']:.4f}% H{at}, {d['vertices']:,} vertices"
    )
    m = mesh["motion"]
    lines.append(
        f"{tail} motion on the repaired rig: amplitude {m['amplitude_deg']:.1f} deg, swing {m['swing_deg']:.1f} deg"
    )
    worst = [
        (x["region"], w)
        for x in by["repaired"].values()
        if x["region"] != "whole"
        for w in x["worst"][:2]
    ]
    if worst:
        lines.append(
            "worst repaired edges: "
            + "; ".join(
                f"{r} {w['vertices'][0]}-{w['vertices'][1]} {w['ratio']:.2f} near {w['joint']}"
                for r, w in worst
            )
        )
    return "\n".join(lines)


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
            lines.append(
                f"| {LABELS['collar']} | no edges: the tail is a separate shell | | | | | |"
            )
            continue
        torn = "-" if r["rig"] == "body" else f"{100 * r['torn_share']:.1f}%"
        amp = "-" if r["amplitude_deg"] is None else f"{r['amplitude_deg']:.1f} deg"
        swing = "-" if r["swing_deg"] is None else f"{r['swing_deg']:.1f} deg"
        lines.append(
            f"| {LABELS[r['rig']]} | {r['p95']:.2f} | {r['p99']:.2f} | {r['max']:.2f} | {torn} | {amp} | {swing} |"
        )
    b = entry["bake"]
    if b["looping"]:
        lines.append(
            f"chain baked as a loop: {b['warmup_passes']} warm-up passes, closure {b['closure_deg']:.3f} deg, "
            f"seam step {b['seam_ratio']:.2f}x the median step"
        )
    else:
        lines.append(
            f"chain baked as a one-shot, settled {b['warmup_seconds']:.1f} s at the first pose"
        )
    if b["seam_blend_deg"] > 0.0:
        lines.append(
            f"the tail's motion never repeated: the cycle was blended shut ({b['seam_blend_deg']:.2f} deg)"
        )
    if b["bend_capacity"] < 1.0:
        lines.append(
            f"bend capacity {b['bend_capacity']:.2f}: the tail's bones are short for its thickness, "
            "so its carry and stop were scaled by that"
        )
    return "\n".join(lines)


def truth_tail(path: str) -> Any:
    """The true tail's vertex ids from a ``*.truth.json``."""
    import numpy as np

    try:
        data = json.loads(Path(path).read_text())
        return np.asarray(data["tail_vertices"], dtype=np.uint32)
    except (KeyError, TypeError, ValueError) as e:
        raise caudal.ParameterError(f"--truth: {path} has no usable tail_vertices: {e}") from e


def plot(entries: list[dict[str, Any]], path: Path, title: str) -> None:
    """Top: SPEC M1's tail rows per clip. Bottom: the whole mesh per clip,
    every row (tail, collar, body, whole) with the rigid baseline, the
    rigger's rig and the repaired rig side by side."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as e:  # pragma: no cover - depends on the optional extra
        raise caudal.ParameterError(
            f"plot: matplotlib is not installed (pip install 'caudal[plot]'): {e}"
        ) from e
    fig, axes = plt.subplots(2, len(entries), figsize=(4.8 * len(entries), 8.4), squeeze=False)
    colours = {"rigid": "tab:gray", "rigger": "tab:red", "repaired": "tab:blue"}
    for ax, low, entry in zip(axes[0], axes[1], entries, strict=False):
        rows = [
            r for r in entry.get("rows", []) if len(r["ratios"])
        ]  # a separate-shell tail has no collar
        if rows:
            ax.boxplot([r["ratios"] for r in rows], whis=(1, 99), showfliers=False)
            ax.set_xticks(
                range(1, len(rows) + 1), [LABELS[r["rig"]].split(",")[0] for r in rows], rotation=20
            )
            ax.axhline(1.5, color="red", lw=0.8, ls="--", label="torn beyond 1.5 / below 0.67")
            ax.axhline(0.67, color="red", lw=0.8, ls="--")
            ax.legend(loc="upper right", fontsize="small")
            ax.set_ylabel("skinned / bind edge length (whiskers p1-p99)")
        else:
            ax.axis("off")
        ax.set_title(f"{entry['clip']}: tail (SPEC M1)")
        mesh = entry["mesh"]
        regions = ["tail", "collar", "body", "whole"]
        for k, rig in enumerate(mesh["rigs"]):
            by = {x["region"]: x for x in rig["rows"]}
            data = [by[g]["ratios"] if len(by[g]["ratios"]) else [1.0] for g in regions]
            pos = [4 * i + k for i in range(len(regions))]
            b = low.boxplot(
                data, positions=pos, widths=0.8, whis=(1, 99), showfliers=False, patch_artist=True
            )
            for patch in b["boxes"]:
                patch.set_facecolor(colours[rig["rig"]])
                patch.set_alpha(0.6)
            low.plot([], [], color=colours[rig["rig"]], lw=6, alpha=0.6, label=rig["rig"])
        low.set_xticks([4 * i + 1 for i in range(len(regions))], regions)
        low.axhline(1.5, color="red", lw=0.8, ls="--")
        low.axhline(0.67, color="red", lw=0.8, ls="--")
        t = mesh["torn_by_repair"]["edges"]
        drift = 100 * mesh["body_drift"]["share_h"]
        low.set_title(
            f"whole mesh: {t} torn by the repair, body drift {drift:.3f}% H", fontsize="medium"
        )
        low.legend(loc="upper right", fontsize="small")
        low.set_ylabel("skinned / bind edge length (whiskers p1-p99)")
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
    chars = (
        model.characters
        if args.character is None
        else [model.characters[args.character]]
        if 0 <= args.character < len(model.characters)
        else None
    )
    if chars is None:
        raise caudal.ParameterError(
            f"--character: {args.input} has {len(model.characters)} character(s), no {args.character}"
        )
    if args.truth and len(chars) > 1:
        raise caudal.ParameterError(
            f"--truth: {args.input} has {len(chars)} characters; name one with --character"
        )
    check_pelvis(model, args)
    spring_values = {k: spring_value(v) for k, v in pairs("--spring", args.spring).items()}
    truth = truth_tail(args.truth) if args.truth else None
    names = clip_names(args.clip)
    if names is None:
        names = model.clip_names
    for name in names:
        if name not in model.clip_names:
            raise caudal.NotFoundError(
                f"--clip: no animation named {name!r} (have: {', '.join(model.clip_names)})"
            )

    def table(unit: tuple[Any, str]) -> dict[str, Any]:
        # Each clip's table stands alone: one call per clip gives the same
        # rows as one call for all, and a bar that counts clips.
        ch, name = unit
        (entry,) = caudal.stretch_table(
            ch,
            [name],
            samples=args.samples,
            ratios=bool(args.plot),
            truth=truth,
            spring=as_spring(spring_values, pelvis_of(ch, args)),
            grow=grow_keywords(ch, args),
        )
        # The report adds its own keys (errors, crouch rows) to the entries.
        return dict(entry)

    tables = each(
        "measuring", [(ch, n) for ch in chars for n in names], table, name=lambda unit: unit[1]
    )
    results = []
    for i, ch in enumerate(chars):
        entries = tables[i * len(names) : (i + 1) * len(names)]
        if args.crouch:
            try:
                with working("measuring a crouch"):
                    c = caudal.crouch_stretch(
                        ch,
                        truth=truth,
                        ratios=bool(args.plot),
                        spring=as_spring(spring_values, pelvis_of(ch, args)),
                        grow=grow_keywords(ch, args),
                    )
                entries.append(
                    {
                        "clip": "crouch",
                        "generated": True,
                        "depth": c["depth"],
                        "floor": c["floor"],
                        "mesh": c["mesh"],
                    }
                )
            except caudal.CaudalError as err:
                entries.append({"clip": "crouch", "generated": True, "error": str(err)})
        if args.plot:
            entries_plotted = [e for e in entries if "mesh" in e]
            suffix = "" if len(chars) == 1 else f" character {ch.index} {ch.name!r}"
            png = (
                Path(args.plot)
                if len(chars) == 1
                else Path(args.plot).with_stem(f"{Path(args.plot).stem}_{ch.index}")
            )
            plot(
                entries_plotted,
                png,
                f"{Path(args.input).name}{suffix}: edge stretch, {args.samples} times per clip",
            )
        for e in entries:
            for r in e.get("rows", []):
                r.pop("ratios", None)
            for rig in e.get("mesh", {}).get("rigs", []):
                for r in rig["rows"]:
                    r.pop("ratios", None)
        results.append((ch, entries))
    if args.json:
        out: dict[str, Any] = {"input": args.input}
        if len(results) == 1:
            out["clips"] = results[0][1]
        out["characters"] = [
            {"character": ch.index, "name": ch.name, "clips": e} for ch, e in results
        ]
        print(json.dumps(out, indent=2))
        return 0
    for ch, entries in results:
        who = "" if len(results) == 1 else f" character {ch.index} {ch.name!r}"
        print(
            f"{Path(args.input).name}{who}: how far the tail's skin stretches (skinned / bind edge length)"
        )
        for e in entries:
            print()
            if e.get("generated"):
                if "error" in e:
                    print(f"crouch: not generated ({e['error']})")
                    continue
                low = e["mesh"]["tail_lowest"]
                print(
                    f"crouch (generated: the pelvis sinks {e['depth']:.3g} units, a quarter of the height, feet planted; every frame); "
                    f"floor at {e['floor']:.3g} (the spring's, or half a tail thickness above the rigid tail's lowest point); "
                    f"the tail's lowest point: rigid {low['rigid']:.3g}, rigger {low['rigger']:.3g}, repaired {low['repaired']:.3g}"
                )
            else:
                print(format_table(e))
            print(format_mesh(e["mesh"]))
    if args.plot:
        print(f"\nwrote {args.plot}")
    return 0
