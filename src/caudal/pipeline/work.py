"""The work on one file, the same in every engine: read, repair each
character with ``caudal tail``'s own function, bake if asked, measure with
``caudal report``'s stretch table, encode the repaired GLB. Runs in a worker
process (or a Ray task); returns the GLB's bytes and the JSON report, and
writes nothing itself: the batch's driver writes every output.

A bad file is an outcome with an error, never an exception: whatever one
file raises, the batch goes on."""

from __future__ import annotations

import hashlib
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import caudal
from caudal.cli.tail import as_spring, grow_keywords, pelvis_of, repair, report_json
from caudal.dicts import StretchTableEntry
from caudal.pipeline.inputs import Job
from caudal.pipeline.settings import RepairSettings

REPORT_FORMAT = "caudal batch report v1"


@dataclass
class Outcome:
    """What a worker hands back for one file."""

    job: Job
    report: dict[str, Any]
    glb: bytes | None
    """The repaired file, None when the file failed."""


@dataclass
class CharacterWork:
    """One character's bake and measurement: its report entry and the
    animation tracks its bake adds to the file."""

    entry: dict[str, Any]
    tracks: list[caudal.Track]


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def resume_key(input_sha256: str, settings: RepairSettings) -> str:
    """What an output was made from: the input's bytes and the settings
    (with caudal's version). ``--resume`` skips a file whose report holds
    the same key."""
    return sha256(f"{input_sha256}\n{settings.digest()}".encode())


def run_path(job: Job) -> Outcome:
    """The local engine's unit: the worker reads the file itself."""
    start = time.perf_counter()
    try:
        data = Path(job.path).read_bytes()
    except Exception as e:  # noqa: BLE001 - any unreadable input is that file's error row
        return failed(job, e, start)
    return run_bytes(job, data, start)


Repaired = list[tuple[caudal.Character, caudal.Rig, dict[str, Any]]]
"""Each character of a file with its new rig and appendage report."""

CharacterRunner = Callable[[RepairSettings, Repaired, list[str]], list[CharacterWork]]
"""Does every character's bake and measurement: in turn (the default), or
as tasks of their own (the Ray engine, for large files)."""


def run_bytes(
    job: Job, data: bytes, start: float | None = None, characters: CharacterRunner | None = None
) -> Outcome:
    """Repairs one file given its bytes (external buffers of a .gltf are
    read beside ``job.path``)."""
    start = time.perf_counter() if start is None else start
    digest = sha256(data)
    try:
        model = load(job, data)
        glb, entries = repair_model(model, job.settings, characters)
    except Exception as e:  # noqa: BLE001 - whatever one file raises, the batch goes on
        return failed(job, e, start, digest)
    return done(job, digest, model, entries, glb, start)


def repair_model(
    model: caudal.Model, settings: RepairSettings, characters: CharacterRunner | None = None
) -> tuple[bytes, list[dict[str, Any]]]:
    """The repaired file's bytes and each character's report entry."""
    names = clip_names(model, settings)
    repaired = repair_characters(model, settings)
    works = (characters or each_character)(settings, repaired, names)
    glb = encode(model, [rig for _, rig, _ in repaired], [t for w in works for t in w.tracks])
    return glb, [w.entry for w in works]


def each_character(
    settings: RepairSettings, repaired: Repaired, names: list[str]
) -> list[CharacterWork]:
    return [character_work(ch, rig, report, settings, names) for ch, rig, report in repaired]


def one_character(job: Job, data: bytes, index: int) -> CharacterWork:
    """Character ``index`` of the file alone (a task of its own): the file
    is read and repaired again, which is deterministic and cheap beside the
    bake and the measure, so the result is the one the whole file gives."""
    model = load(job, data)
    names = clip_names(model, job.settings)
    ch, rig, report = repair_characters(model, job.settings)[index]
    return character_work(ch, rig, report, job.settings, names)


def load(job: Job, data: bytes) -> caudal.Model:
    return caudal.load_bytes(data, base_dir=str(Path(job.path).parent), label=job.path)


def clip_names(model: caudal.Model, settings: RepairSettings) -> list[str]:
    """The clips to bake and measure; a clip asked for and missing fails the file."""
    if settings.clips is None:
        return model.clip_names
    missing = [c for c in settings.clips if c not in model.clip_names]
    if missing:
        have = ", ".join(model.clip_names) or "none"
        raise caudal.NotFoundError(
            f"clips: no animation named {', '.join(map(repr, missing))} (have: {have})"
        )
    return list(settings.clips)


def repair_characters(model: caudal.Model, settings: RepairSettings) -> Repaired:
    """Every character's new rig and appendage report, with ``caudal
    tail``'s function (chain names unique in the file)."""
    return repair(model, settings.tail_args())


def character_work(
    ch: caudal.Character,
    rig: caudal.Rig,
    report: dict[str, Any],
    settings: RepairSettings,
    names: list[str],
) -> CharacterWork:
    """Bakes the character's chains into the clips ``names`` (with
    ``--bake``) and measures its stretch table on them (``caudal report``).
    A character with no chain has nothing to bake or measure."""
    start = time.perf_counter()
    has_chain = any(p["decision"] == "chain" for p in report["parts"])
    tracks: list[caudal.Track] = []
    baked: list[caudal.BakeSummary] = []
    spring = as_spring(settings.spring, pelvis_of(ch, settings))
    if settings.bake and has_chain and names:
        bake = caudal.bake(ch, rig, names, loops=dict(settings.loops) or None, spring=spring)
        tracks = bake.tracks()
        baked = [c.summary() for c in bake.clips]
    stretch: list[StretchTableEntry] = []
    if settings.samples > 0 and has_chain and names:
        # The chain measured is the one written: grown with these settings.
        stretch = caudal.stretch_table(
            ch, names, samples=settings.samples, spring=spring, grow=grow_keywords(ch, settings)
        )
    entry = {
        "character": ch.index,
        "name": ch.name,
        "joints_before": ch.rig.joint_count,
        "joints_after": rig.joint_count,
        **report_json(report),
        "bake": baked,
        "stretch": stretch,
        "seconds": time.perf_counter() - start,
    }
    return CharacterWork(entry, tracks)


def encode(model: caudal.Model, rigs: list[caudal.Rig], tracks: list[caudal.Track]) -> bytes:
    """The repaired file's bytes, written by ``Model.write`` (the same
    writer as ``caudal tail``) into a private folder and read back."""
    with tempfile.TemporaryDirectory(prefix="caudal-batch-") as tmp:
        out = Path(tmp) / "repaired.glb"
        model.write(out, rigs=list(rigs), tracks=tracks or None)
        return out.read_bytes()


def file_report(job: Job, input_sha256: str | None, start: float, **fields: Any) -> dict[str, Any]:
    """A file's report: what it was made from, then ``fields`` (what came of it)."""
    return {
        "format": REPORT_FORMAT,
        "caudal_version": caudal.__version__,
        "input": job.path,
        "source": job.source,
        "input_sha256": input_sha256,
        "settings": job.settings.to_json(),
        **fields,
        "seconds": time.perf_counter() - start,
    }


def done(
    job: Job,
    input_sha256: str,
    model: caudal.Model,
    entries: list[dict[str, Any]],
    glb: bytes,
    start: float,
) -> Outcome:
    key = resume_key(input_sha256, job.settings)
    fields = {
        "key": key,
        "output": job.output,
        "output_sha256": sha256(glb),
        "error": None,
        "warnings": model.warnings,
        "characters": entries,
    }
    return Outcome(job, file_report(job, input_sha256, start, **fields), glb)


def failed(
    job: Job, error: BaseException, start: float, input_sha256: str | None = None
) -> Outcome:
    message = {"type": type(error).__name__, "message": str(error) or type(error).__name__}
    fields: dict[str, Any] = {
        "key": None,
        "output": None,
        "output_sha256": None,
        "error": message,
        "warnings": [],
        "characters": [],
    }
    return Outcome(job, file_report(job, input_sha256, start, **fields), None)
