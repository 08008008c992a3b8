"""The batch summary: one row per character (one per failed file), made
from the per-file reports alone, so a resumed batch summarises the files it
skipped exactly as the run that did them.

Stretch columns follow whatever rows the stretch report has (``{row}_{figure}``,
e.g. ``chain_p99``, ``collar_torn_share``): the worst over the clips, the
largest, or the smallest for ``min`` and for the tail's motion
(``amplitude_deg``, ``swing_deg``: a tail that barely moves is the bad case).
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import caudal

FILE_COLUMNS = ["file", "output", "status", "resumed", "error_type", "error"]
CHARACTER_COLUMNS = [
    "character",
    "name",
    "vertices",
    "joints",
    "bones_added",
    "parts",
    "tails",
    "tail_bones",
    "rigid_parts",
    "height",
    "pelvis",
    "loop_source",
    "clips",
    "loops",
    "loop_closure_deg",
    "seam_blend_deg",
    "oneshot_settle_s",
    "stretch_clips",
]
TIME_COLUMNS = ["file_seconds", "character_seconds"]
LEAST_IS_WORST = ("min", "amplitude_deg", "swing_deg")
"""Stretch figures whose worst clip is the one with the smallest value."""


def rows_of(report: dict[str, Any], resumed: bool = False) -> list[dict[str, Any]]:
    """The summary rows of one file's report."""
    base = {
        "file": report["input"],
        "output": report["output"] or "",
        "status": "failed" if report["error"] else "done",
        "resumed": resumed,
        "error_type": report["error"]["type"] if report["error"] else "",
        "error": report["error"]["message"] if report["error"] else "",
    }
    if report["error"]:
        return [{**base, "file_seconds": report["seconds"]}]
    return [
        {
            **base,
            **character_columns(e),
            "file_seconds": report["seconds"],
            "character_seconds": e["seconds"],
        }
        for e in report["characters"]
    ]


def character_columns(entry: dict[str, Any]) -> dict[str, Any]:
    parts = entry["parts"]
    chains = [p for p in parts if p["decision"] == "chain"]
    # The written keys' loop figures with --bake, else those of the
    # report's own bake (the stretch table bakes the chain to measure it).
    bakes = entry["bake"] or [s["bake"] for s in entry["stretch"]]
    loops = [b for b in bakes if b["looping"]]
    once = [b for b in bakes if not b["looping"]]
    row: dict[str, Any] = {
        "character": entry["character"],
        "name": entry["name"],
        "vertices": entry["vertex_count"],
        "joints": entry["joints_before"],
        "bones_added": entry["joints_after"] - entry["joints_before"],
        "parts": len(parts),
        "tails": len(chains),
        "tail_bones": sum(p["bone_count"] for p in chains),
        "rigid_parts": sum(1 for p in parts if p["decision"] == "rigid"),
        "height": entry["height"],
        "pelvis": entry["pelvis"],
        "loop_source": ("bake" if entry["bake"] else "report") if bakes else "",
        "clips": len(bakes),
        "loops": len(loops),
        "loop_closure_deg": max((b["closure_deg"] for b in loops), default=None),
        "seam_blend_deg": max((b["seam_blend_deg"] for b in loops), default=None),
        "oneshot_settle_s": max((b["warmup_seconds"] for b in once), default=None),
        "stretch_clips": len(entry["stretch"]),
    }
    row.update(stretch_columns(entry["stretch"]))
    return row


def stretch_columns(clips: list[dict[str, Any]]) -> dict[str, Any]:
    worst: dict[str, float] = {}
    for clip in clips:
        for r in clip["rows"]:
            label = re.sub(r"[^a-z0-9]+", "_", str(r["rig"]).lower()).strip("_")
            for key, value in r.items():
                if (
                    key in ("rig", "samples")
                    or isinstance(value, bool)
                    or not isinstance(value, (int, float))
                ):
                    continue
                column = f"{label}_{key}"
                pick = min if key in LEAST_IS_WORST else max
                worst[column] = value if column not in worst else pick(worst[column], value)
    return worst


@dataclass
class Summary:
    """The rows of a batch, in input order. Plain data: ``to_pandas()``
    makes a DataFrame where pandas is installed, ``rows`` are dicts."""

    rows: list[dict[str, Any]]

    @property
    def columns(self) -> list[str]:
        """Every column, in a fixed order: the file, the character, the
        stretch figures as the reports name them, the times."""
        seen = dict.fromkeys(FILE_COLUMNS + CHARACTER_COLUMNS)
        for row in self.rows:
            seen.update(dict.fromkeys(k for k in row if k not in TIME_COLUMNS))
        return list(seen) + TIME_COLUMNS

    @property
    def files(self) -> int:
        """How many input files the rows come from."""
        return len({r["file"] for r in self.rows})

    @property
    def failed(self) -> list[dict[str, Any]]:
        """The error rows."""
        return [r for r in self.rows if r["status"] == "failed"]

    def records(self) -> Iterator[dict[str, Any]]:
        """Every row with every column (None where a row has no value)."""
        columns = self.columns
        for row in self.rows:
            yield {c: row.get(c) for c in columns}

    def to_pandas(self) -> Any:
        """A ``pandas.DataFrame`` with one row per character."""
        try:
            import pandas
        except ImportError as e:
            raise ImportError(
                "Summary.to_pandas needs pandas (pip install pandas); Summary.rows are plain dicts"
            ) from e
        return pandas.DataFrame(list(self.records()), columns=self.columns)

    def csv_text(self) -> str:
        """The rows as CSV, one line per character (header first)."""
        out = io.StringIO()
        w = csv.DictWriter(out, fieldnames=self.columns, lineterminator="\n")
        w.writeheader()
        for row in self.records():
            w.writerow({k: _cell(v) for k, v in row.items()})
        return out.getvalue()

    def jsonl_text(self) -> str:
        """The rows as JSON Lines (non-finite figures as null)."""
        return "".join(json.dumps(finite(row), allow_nan=False) + "\n" for row in self.records())

    def write(self, out_dir: str | os.PathLike[str]) -> tuple[str, str]:
        """``summary.csv`` and ``summary.jsonl`` in ``out_dir``, each written atomically."""
        csv_path = os.path.join(out_dir, "summary.csv")
        jsonl_path = os.path.join(out_dir, "summary.jsonl")
        caudal.write_atomic(csv_path, self.csv_text().encode())
        caudal.write_atomic(jsonl_path, self.jsonl_text().encode())
        return csv_path, jsonl_path


def _cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, float):
        return repr(value) if math.isfinite(value) else ""
    return value


def finite(value: Any) -> Any:
    """``value`` with NaN and infinities as None: JSON has no such numbers."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [finite(v) for v in value]
    return value


def summarise(reports: Iterable[tuple[int, dict[str, Any], bool]]) -> Summary:
    """The summary of (job index, report, resumed) triples, in job order."""
    rows: list[dict[str, Any]] = []
    for _, report, resumed in sorted(reports, key=lambda t: t[0]):
        rows += rows_of(report, resumed)
    return Summary(rows)
