"""The local engine: a process pool (the default, no extra dependency).

Processes are spawned, not forked: a fork of a process whose core thread
pool is running can deadlock. Results come back in completion order.

A worker that dies (killed, out of memory, a crash in native code) breaks
the whole pool, taking every unfinished file with it. Those files go to a
fresh pool; a file unfinished at a second break is run alone, and one that
kills a worker on its own becomes an error row."""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Generator, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool

from caudal.pipeline.inputs import Job
from caudal.pipeline.work import Outcome, failed, run_path

CRASHED = "the worker process died while repairing this file (killed, out of memory, or a crash in native code)"


def run_local(jobs: Sequence[Job], workers: int) -> Iterator[Outcome]:
    todo = list(jobs)
    rounds = 0
    while todo:
        rounds += 1
        if rounds <= 2:
            todo = yield from _pool(todo, workers)
        else:
            broken: list[Job] = []
            for job in todo:
                broken += yield from _pool([job], 1)
            for job in broken:
                yield failed(job, BrokenProcessPool(CRASHED), time.perf_counter())
            todo = []


def _pool(jobs: list[Job], workers: int) -> Generator[Outcome, None, list[Job]]:
    """Runs ``jobs``, yielding outcomes as they finish; returns the jobs a
    broken pool left unfinished."""
    broken: list[Job] = []
    ctx = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(max_workers=max(1, min(workers, len(jobs))), mp_context=ctx)
    try:
        futures: dict[Future[Outcome], Job] = {pool.submit(run_path, job): job for job in jobs}
        for future in as_completed(futures):
            try:
                outcome = future.result()
            except BrokenProcessPool:
                broken.append(futures[future])
                continue
            yield outcome
    finally:
        # A caller that stops early (or is interrupted) leaves no queued work behind.
        pool.shutdown(wait=True, cancel_futures=True)
    return sorted(broken, key=lambda j: j.index)
