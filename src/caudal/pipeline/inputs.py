"""What a batch works on: the inputs (files, folders, manifests) expanded
into one job per file, each with its settings and its output name.

Folders are searched, recursively and in sorted order, for ``.glb`` and
``.gltf`` files (hidden files and folders skipped). A manifest is a ``.csv``
file or JSON lines (``.jsonl``, ``.ndjson``, or ``.json`` holding JSON lines
or one array of objects) with a ``path`` column, relative to the manifest's
folder, and optional settings columns named like the fields of
:class:`~caudal.pipeline.settings.RepairSettings`. Any other argument is a
file, even one that does not exist: it becomes that file's error row.

Outputs mirror the inputs: a file found in a folder keeps its path below
that folder, a file named directly or by a manifest keeps its name, always
with ``.glb``. Names that would still collide get a short hash of the
input's absolute path, so they are the same on every run with the same
inputs."""

from __future__ import annotations

import csv
import hashlib
import json
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import caudal
from caudal.pipeline.settings import RepairSettings

GLTF_SUFFIXES = (".glb", ".gltf")
MANIFEST_SUFFIXES = (".csv", ".jsonl", ".ndjson", ".json")


@dataclass(frozen=True)
class Job:
    """One input file to repair."""

    index: int
    """Position in the batch: summaries list files in this order."""
    path: str
    """The input as the user named it (or as found in a folder or manifest)."""
    output: str
    """The repaired GLB's path below the output folder (``/``-separated)."""
    settings: RepairSettings
    source: str
    """Where the file came from: ``argument``, ``folder DIR`` or ``MANIFEST:LINE``."""

    @property
    def report(self) -> str:
        """The JSON report's path below the output folder."""
        return self.output[: -len(".glb")] + ".report.json"


def expand(
    inputs: Iterable[str | os.PathLike[str]],
    settings: RepairSettings,
    out_dir: str | os.PathLike[str] | None = None,
) -> list[Job]:
    """One job per input file, in the order given (folders sorted). A file
    named twice with the same settings is done once. Files inside
    ``out_dir`` are never inputs (a batch does not repair its own output)."""
    out = Path(out_dir).resolve() if out_dir is not None else None
    found: list[tuple[str, str, RepairSettings, str]] = []  # path, wanted output, settings, source
    for item in inputs:
        p = Path(item)
        if p.is_dir():
            for f in _gltf_files(p, out):
                found.append(
                    (
                        str(f),
                        f.relative_to(p).with_suffix(".glb").as_posix(),
                        settings,
                        f"folder {p}",
                    )
                )
        elif p.suffix.lower() in MANIFEST_SUFFIXES:
            found.extend(_manifest(p, settings))
        else:
            found.append((str(p), p.with_suffix(".glb").name, settings, "argument"))
    jobs: list[Job] = []
    seen: set[tuple[str, str]] = set()
    for path, output, s, source in found:
        key = (os.path.abspath(path), s.digest())
        if key in seen:
            continue
        seen.add(key)
        jobs.append(Job(len(jobs), path, output, s, source))
    return _unique_outputs(jobs)


def _gltf_files(folder: Path, skip: Path | None) -> list[Path]:
    out = []
    for root, dirs, files in os.walk(folder):
        here = Path(root)
        dirs[:] = sorted(
            d
            for d in dirs
            if not d.startswith(".") and (skip is None or (here / d).resolve() != skip)
        )
        out += [
            here / f
            for f in sorted(files)
            if not f.startswith(".") and Path(f).suffix.lower() in GLTF_SUFFIXES
        ]
    return out


def _manifest(path: Path, settings: RepairSettings) -> list[tuple[str, str, RepairSettings, str]]:
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as e:
        raise caudal.ParameterError(f"{path}: a manifest must be UTF-8 text: {e}") from None
    rows = _csv_rows(path, text) if path.suffix.lower() == ".csv" else _json_rows(path, text)
    out = []
    for line, row in rows:
        where = f"{path}:{line}"
        if not isinstance(row, Mapping):
            raise caudal.ParameterError(
                f"{where}: expected an object with a 'path', got {type(row).__name__}"
            )
        name = row.get("path")
        if not isinstance(name, str) or not name.strip():
            raise caudal.ParameterError(f"{where}: no 'path'")
        file = Path(name.strip())
        if not file.is_absolute():
            file = path.parent / file
        out.append(
            (str(file), file.with_suffix(".glb").name, settings.with_overrides(row, where), where)
        )
    return out


def _csv_rows(path: Path, text: str) -> list[tuple[int, dict[str, Any]]]:
    reader = csv.DictReader(text.splitlines())
    if reader.fieldnames is None or "path" not in reader.fieldnames:
        raise caudal.ParameterError(
            f"{path}: a CSV manifest needs a 'path' column (header: {reader.fieldnames})"
        )
    return [
        (reader.line_num, {k: (v.strip() if isinstance(v, str) else v) for k, v in row.items()})
        for row in reader
    ]


def _json_rows(path: Path, text: str) -> list[tuple[int, Any]]:
    stripped = text.lstrip()
    try:
        if stripped.startswith("["):
            return [(i + 1, row) for i, row in enumerate(json.loads(text))]
        return [
            (i + 1, json.loads(line)) for i, line in enumerate(text.splitlines()) if line.strip()
        ]
    except json.JSONDecodeError as e:
        raise caudal.ParameterError(f"{path}: not JSON lines: {e}") from None


def _unique_outputs(jobs: Sequence[Job]) -> list[Job]:
    """Outputs that collide (the same name from two folders, ``Wolf.gltf``
    beside ``Wolf.glb``, one file under two settings) get a hash of the
    input's absolute path and settings in their stem. Case-insensitive, so
    the outputs stay apart on any file system."""
    count: dict[str, int] = {}
    for j in jobs:
        count[j.output.lower()] = count.get(j.output.lower(), 0) + 1
    out = []
    for j in jobs:
        if count[j.output.lower()] > 1:
            tag = hashlib.sha256(
                f"{os.path.abspath(j.path)}\n{j.settings.digest()}".encode()
            ).hexdigest()[:8]
            stem = j.output[: -len(".glb")]
            j = Job(j.index, j.path, f"{stem}-{tag}.glb", j.settings, j.source)
        out.append(j)
    return out
