"""The Ray engine (``pip install 'caudal[ray]'``): one Ray task per file, on
a local Ray or on an existing cluster (``address``).

Ray does the scheduling, the queueing and the retries: the driver puts each
input's bytes in the object store (so workers need not see the driver's
disk; a ``.gltf`` with external buffers still needs them beside its path on
the worker), submits every task, and takes results with ``ray.wait`` in the
order they finish. A task whose worker dies is retried by Ray
(``max_retries``); a bad file is not an exception but an outcome with its
error, so it is never retried. A file with several characters and more
than ``character_tasks_above`` vertices runs each character's bake and
measure as a nested task (Ray frees the waiting task's CPU meanwhile). The
work is the local engine's, function for function, so the GLBs are the same
bytes.

Every node needs this caudal installed (the same version: it is part of
each report's resume key)."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import ray

from caudal.pipeline.inputs import Job
from caudal.pipeline.settings import RepairSettings
from caudal.pipeline.work import (
    CharacterWork,
    Outcome,
    Repaired,
    each_character,
    failed,
    one_character,
    run_bytes,
)

MAX_RETRIES = 3
"""Ray's retries of a task whose worker process died (its own default)."""


def _character_work(job: Job, data_box: list[Any], index: int) -> CharacterWork:
    return one_character(job, ray.get(data_box[0]), index)


def _file_work(job: Job, data_box: list[Any], character_tasks_above: int) -> Outcome:
    # The bytes come boxed in a list: Ray hands a nested ObjectRef over
    # unresolved, so character tasks share the one copy in the object store.
    start = time.perf_counter()
    data = ray.get(data_box[0])

    def characters(
        settings: RepairSettings, repaired: Repaired, names: list[str]
    ) -> list[CharacterWork]:
        vertices = sum(rig.vertex_count for _, rig, _ in repaired)
        if len(repaired) < 2 or vertices <= character_tasks_above:
            return each_character(settings, repaired, names)
        try:
            return list(
                ray.get([_character_task.remote(job, data_box, i) for i in range(len(repaired))])
            )
        except ray.exceptions.RayTaskError as e:
            # The character's own error (a CaudalError...), not Ray's wrapper.
            cause = getattr(e, "cause", None)
            raise (cause if isinstance(cause, Exception) else e) from None

    return run_bytes(job, data, start, characters)


# Ray's tasks (plain calls of ray.remote rather than decorators: typed the
# same with or without Ray's own type hints installed).
_character_task = ray.remote(max_retries=MAX_RETRIES, retry_exceptions=False)(_character_work)
_file_task = ray.remote(max_retries=MAX_RETRIES, retry_exceptions=False)(_file_work)


def run_ray(
    jobs: Sequence[Job], *, address: str | None, num_cpus: int | None, character_tasks_above: int
) -> Iterator[Outcome]:
    """Outcomes in completion order. Starts a local Ray with ``num_cpus``
    (or connects to ``address``) unless Ray is already initialised in this
    process, and shuts down only what it started."""
    started = not ray.is_initialized()
    if started:
        ray.init(
            address=address,
            num_cpus=num_cpus if address is None else None,
            include_dashboard=False,
            logging_level=logging.WARNING,
            log_to_driver=False,
        )
    try:
        pending: dict[Any, Job] = {}
        for job in jobs:
            try:
                data = Path(job.path).read_bytes()
            except Exception as e:  # noqa: BLE001 - an unreadable input is that file's error row
                yield failed(job, e, time.perf_counter())
                continue
            pending[_file_task.remote(job, [ray.put(data)], character_tasks_above)] = job
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            job = pending.pop(ready[0])
            try:
                yield ray.get(ready[0])
            except ray.exceptions.RayError as e:
                # The worker died more than max_retries times, or the task was cancelled.
                yield failed(job, e, time.perf_counter())
    finally:
        if started:
            ray.shutdown()
