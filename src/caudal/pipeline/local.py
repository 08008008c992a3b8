"""The local engine: worker processes of our own (no extra dependency).

Processes are spawned, not forked: a fork of a process whose core thread
pool is running can deadlock. Results come back in completion order.

Each worker has a pipe of its own and holds one file at a time, so a worker
that dies (killed, out of memory, a crash in native code) takes only the
file it held. ``concurrent.futures.ProcessPoolExecutor`` was used before:
its workers share one queue, and a worker killed while it read from that
queue could leave the pool hung on Python 3.11 instead of broken (seen in
CI: ``test_a_worker_killed_mid_file_costs_only_a_retry`` waited 76 minutes).
Here nothing is shared, and a dead worker is seen by its process sentinel.

A worker says when it has taken a file (``STARTED``): only a death after
that counts against the file. A file whose worker dies is run again on a
fresh worker; a file that has killed ``CRASH_LIMIT`` workers becomes an
error row. A worker that dies before taking its file (killed while idle,
the file handed to it as it died) costs the file nothing; workers that keep
dying before they take any file (more than ``UNSTARTED_LIMIT`` pools' worth
in a row: they cannot start) count against their files again, so the batch
ends in error rows rather than respawning for ever."""

from __future__ import annotations

import multiprocessing
import signal
import time
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any

from caudal.pipeline.inputs import Job
from caudal.pipeline.work import Outcome, failed, run_path

CRASHED = "the worker process died while repairing this file (killed, out of memory, or a crash in native code)"

CRASH_LIMIT = 2
"""Workers a file may kill before it is an error row: once can be the
machine (the out-of-memory killer, a user's ``kill``), twice is the file."""

UNSTARTED_LIMIT = 2
"""Pools' worth of workers that may die in a row before taking a file: one
kill can take a whole pool at once, idle workers with it."""

STARTED = "started"
"""What a worker sends when it has taken a file, before its outcome."""

STOP_GRACE_S = 5.0
"""How long a worker asked to stop may take before it is killed."""


class WorkerDied(RuntimeError):
    """The error row of a file that killed ``CRASH_LIMIT`` workers."""


@dataclass
class _Worker:
    process: BaseProcess
    conn: Connection
    job: Job | None = None
    started: float = field(default_factory=time.perf_counter)
    took: bool = False
    """Whether the worker said it took ``job`` (``STARTED``)."""


def _serve(conn: Connection) -> None:
    """A worker's loop: a job in, its outcome out, until told to stop.
    Ctrl-C reaches the whole process group; the driver answers it by
    stopping its workers, so a worker ignores it rather than print a
    traceback of its own."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError, KeyboardInterrupt):
            return
        if job is None:
            return
        conn.send(STARTED)
        conn.send(run_path(job))


def run_local(jobs: Sequence[Job], workers: int) -> Iterator[Outcome]:
    """Runs ``jobs`` on up to ``workers`` processes, yielding each outcome as
    it finishes. Stopping early (or an interrupt) stops every worker."""
    ctx = multiprocessing.get_context("spawn")
    todo: deque[Job] = deque(sorted(jobs, key=lambda j: j.index))
    crashes: dict[int, int] = {}
    unstarted = 0
    pool: list[_Worker] = []
    size = max(1, min(workers, len(todo)))
    try:
        while todo or any(w.job is not None for w in pool):
            while todo and len(pool) < size:
                pool.append(_start(ctx))
            dead: list[_Worker] = []
            for worker in [w for w in pool if w.job is None][: len(todo)]:
                job = todo.popleft()
                if not _hand(worker, job):
                    pool.remove(worker)
                    dead.append(worker)
            finished = _finished(pool) if any(w.job is not None for w in pool) else []
            for worker, outcome in finished:
                if outcome is not None:
                    yield outcome
                    continue
                pool.remove(worker)
                dead.append(worker)
            for worker in dead:
                _stop(worker)
                if worker.job is None:
                    continue  # died idle: nothing lost
                job = worker.job
                unstarted = 0 if worker.took else unstarted + 1
                if worker.took or unstarted > UNSTARTED_LIMIT * size:
                    crashes[job.index] = crashes.get(job.index, 0) + 1
                if crashes.get(job.index, 0) >= CRASH_LIMIT:
                    yield failed(job, WorkerDied(CRASHED), worker.started)
                else:
                    todo.appendleft(job)
    finally:
        for worker in pool:
            _stop(worker, busy=worker.job is not None)


def _hand(worker: _Worker, job: Job) -> bool:
    """Gives an idle worker ``job``; False when the worker turns out to have
    died (the job stays its own, not taken)."""
    worker.job, worker.took, worker.started = job, False, time.perf_counter()
    try:
        worker.conn.send(job)
    except OSError:
        return False
    return True


def _start(ctx: Any) -> _Worker:
    mine, theirs = ctx.Pipe(duplex=True)
    process = ctx.Process(target=_serve, args=(theirs,), daemon=True)
    process.start()
    theirs.close()
    return _Worker(process, mine)


def _finished(pool: list[_Worker]) -> list[tuple[_Worker, Outcome | None]]:
    """Waits until some worker answers, says it took its file, or dies:
    each worker that answered, with its outcome, or died, with None (an
    idle worker's death too, its job None). A worker that only said it took
    its file is marked (``took``) and not listed."""
    by_handle: dict[Any, _Worker] = {}
    for worker in pool:
        by_handle[worker.process.sentinel] = worker
        if worker.job is not None:
            by_handle[worker.conn] = worker
    ready = wait(list(by_handle))
    seen: dict[int, tuple[_Worker, Outcome | None]] = {}
    for handle in ready:
        worker = by_handle[handle]
        if id(worker) in seen:
            continue
        outcome: Outcome | None = None
        alive = worker.process.is_alive()
        # An answer sent just before the worker died is still an answer.
        try:
            while outcome is None and worker.job is not None and worker.conn.poll():
                message = worker.conn.recv()
                if message == STARTED:
                    worker.took = True
                else:
                    outcome = message
        except (EOFError, OSError):
            alive = False
        if outcome is not None:
            worker.job = None
            seen[id(worker)] = (worker, outcome)
        elif not alive:
            seen[id(worker)] = (worker, None)
    return list(seen.values())


def _stop(worker: _Worker, busy: bool = False) -> None:
    """Ends a worker: an idle one is asked, a busy one (the caller stopped
    early) is killed, its file's answer being no longer wanted."""
    if not busy:
        try:
            worker.conn.send(None)
        except (OSError, ValueError):
            pass
        worker.process.join(STOP_GRACE_S)
    if worker.process.is_alive():
        worker.process.kill()
        worker.process.join()
    worker.conn.close()
