"""``caudal.batch``: repairs many files into one output folder, file by file
results as they finish, and a summary at the end."""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import caudal
from caudal.pipeline import store
from caudal.pipeline.inputs import Job, expand
from caudal.pipeline.rows import Summary, rows_of, summarise
from caudal.pipeline.settings import RepairSettings
from caudal.pipeline.work import Outcome

Engine = Literal["local", "ray"]

CHARACTER_TASKS_ABOVE = 50_000
"""Vertices of a several-character file above which the Ray engine gives
each character a task of its own. A character's task reads and repairs the
whole file again (about a quarter of a file's work on the generated
corpus), so a split pays only where the bakes and measures are long; 50,000
is a round figure of that order, not a tuned one."""


@dataclass(frozen=True)
class FileResult:
    """One input file, done, failed or skipped by ``resume``."""

    index: int
    """Position in the batch (input order; results arrive in completion order)."""
    path: str
    ok: bool
    resumed: bool
    """Skipped: an earlier run made its output from the same bytes and settings."""
    output: Path | None
    """The repaired GLB, None when the file failed."""
    report_path: Path
    report: dict[str, Any]
    rows: list[dict[str, Any]]
    """Its summary rows, one per character (one for a failed file)."""

    @property
    def error(self) -> str | None:
        """``"Type: message"`` of the failure, None when the file was done."""
        e = self.report["error"]
        return None if e is None else f"{e['type']}: {e['message']}"

    @property
    def seconds(self) -> float:
        """Wall time this file took in its worker."""
        return float(self.report["seconds"])


class Batch:
    """An iterator of :class:`FileResult` in completion order (the work
    runs as it is iterated, once), then :meth:`summary`."""

    def __init__(
        self,
        inputs: Iterable[str | os.PathLike[str]],
        out_dir: str | os.PathLike[str],
        settings: RepairSettings,
        *,
        workers: int,
        engine: Engine,
        address: str | None,
        resume: bool,
        character_tasks_above: int,
    ) -> None:
        if engine not in ("local", "ray"):
            raise caudal.ParameterError(f"engine: {engine!r} is not 'local' or 'ray'")
        if engine == "ray" and importlib.util.find_spec("ray") is None:
            raise caudal.ParameterError(
                "engine: 'ray' needs Ray installed: pip install 'caudal[ray]'"
            )
        if workers < 1:
            raise caudal.ParameterError(f"workers: {workers} must be at least 1")
        self.out_dir = Path(out_dir)
        self.jobs: list[Job] = expand(inputs, settings, self.out_dir)
        self.workers = workers
        self.engine = engine
        self.address = address
        self.resume = resume
        self.character_tasks_above = character_tasks_above
        self._done: list[tuple[int, dict[str, Any], bool]] = []
        self._results: Iterator[FileResult] | None = None
        self._summary: Summary | None = None

    def __len__(self) -> int:
        """How many files the batch has (results come one per file)."""
        return len(self.jobs)

    def __iter__(self) -> Iterator[FileResult]:
        return self

    def __next__(self) -> FileResult:
        if self._results is None:
            self._results = self._run()
        return next(self._results)

    def _run(self) -> Iterator[FileResult]:
        self.out_dir.mkdir(parents=True, exist_ok=True)
        store.remove_stale_temps(self.out_dir)
        todo = []
        for job in self.jobs:
            earlier = store.previous(self.out_dir, job) if self.resume else None
            if earlier is None:
                todo.append(job)
            else:
                yield self._record(job, earlier, resumed=True)
        for outcome in self._engine(todo):
            store.save(self.out_dir, outcome)
            yield self._record(outcome.job, outcome.report, resumed=False)
        self._summary = summarise(self._done)
        self._summary.write(self.out_dir)

    def summary(self) -> Summary:
        """The rows of every file in input order (runs what is left first).
        Also written as ``summary.csv`` and ``summary.jsonl`` in the output folder."""
        for _ in self:
            pass
        if self._summary is None:
            raise RuntimeError("the batch was stopped before its end: no summary")
        return self._summary

    @property
    def failed(self) -> bool:
        """Whether any file failed (so far)."""
        return any(r["error"] is not None for _, r, _ in self._done)

    def _record(self, job: Job, report: dict[str, Any], resumed: bool) -> FileResult:
        self._done.append((job.index, report, resumed))
        ok = report["error"] is None
        return FileResult(
            index=job.index,
            path=job.path,
            ok=ok,
            resumed=resumed,
            output=self.out_dir / job.output if ok else None,
            report_path=self.out_dir / job.report,
            report=report,
            rows=rows_of(report, resumed),
        )

    def _engine(self, jobs: list[Job]) -> Iterator[Outcome]:
        if not jobs:
            return iter(())
        if self.engine == "ray":
            from caudal.pipeline.ray_engine import run_ray

            return run_ray(
                jobs,
                address=self.address,
                num_cpus=self.workers,
                character_tasks_above=self.character_tasks_above,
            )
        from caudal.pipeline.local import run_local

        return run_local(jobs, self.workers)


def batch(
    paths: Iterable[str | os.PathLike[str]] | str | os.PathLike[str],
    out_dir: str | os.PathLike[str],
    settings: RepairSettings | None = None,
    *,
    workers: int | None = None,
    engine: Engine = "local",
    address: str | None = None,
    resume: bool = False,
    character_tasks_above: int = CHARACTER_TASKS_ABOVE,
) -> Batch:
    """Repairs every path (files, folders searched for .glb/.gltf,
    CSV or JSON-lines manifests) into ``out_dir``: per file the repaired GLB
    and a JSON report, at the end ``summary.csv`` and ``summary.jsonl``.
    ``caudal batch`` on the command line; ``settings`` are its flags.

    ``workers``: processes of the local engine, CPUs of a local Ray
    (default: every core). ``address``: an existing Ray cluster.
    ``resume``: skip files whose output an earlier run made from the same
    input bytes and settings. Iterate the result for each file's
    :class:`FileResult` as it finishes, then ``summary()``."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    return Batch(
        paths,
        out_dir,
        settings or RepairSettings(),
        workers=workers or os.cpu_count() or 1,
        engine=engine,
        address=address,
        resume=resume,
        character_tasks_above=character_tasks_above,
    )
