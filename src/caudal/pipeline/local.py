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

A file whose worker dies is run again on a fresh worker; a file that has
killed ``CRASH_LIMIT`` workers becomes an error row. A worker found dead
when handed a file counts against that file too, so workers that cannot
start at all end the batch in error rows rather than respawning for ever."""

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
        conn.send(run_path(job))


def run_local(jobs: Sequence[Job], workers: int) -> Iterator[Outcome]:
    """Runs ``jobs`` on up to ``workers`` processes, yielding each outcome as
    it finishes. Stopping early (or an interrupt) stops every worker."""
    ctx = multiprocessing.get_context("spawn")
    todo: deque[Job] = deque(sorted(jobs, key=lambda j: j.index))
    crashes: dict[int, int] = {}
    pool: list[_Worker] = []
    size = max(1, min(workers, len(todo)))
    try:
        while todo or any(w.job is not None for w in pool):
            while todo and len(pool) < size:
                pool.append(_start(ctx))
            dead: list[tuple[_Worker, Job]] = []
            for worker in [w for w in pool if w.job is None]:
                if todo and not _hand(worker, todo):
                    # Found dead when handed a file: charged to that file
                    # too, or a worker that cannot even start (a broken
                    # install) would be respawned for ever.
                    pool.remove(worker)
                    dead.append((worker, todo.popleft()))
            finished = _finished(pool) if any(w.job is not None for w in pool) else []
            for worker, outcome in finished:
                if outcome is not None:
                    yield outcome
                    continue
                pool.remove(worker)
                if worker.job is not None:
                    dead.append((worker, worker.job))
                else:
                    _stop(worker)  # died idle: nothing lost
            for worker, job in dead:
                _stop(worker)
                crashes[job.index] = crashes.get(job.index, 0) + 1
                if crashes[job.index] >= CRASH_LIMIT:
                    yield failed(job, WorkerDied(CRASHED), worker.started)
                else:
                    todo.appendleft(job)
    finally:
        for worker in pool:
            _stop(worker, busy=worker.job is not None)


def _hand(worker: _Worker, todo: deque[Job]) -> bool:
    """Gives an idle worker the next job; False (the job left at the front
    of ``todo``) when the worker turns out to have died."""
    job = todo.popleft()
    try:
        worker.conn.send(job)
    except OSError:
        todo.appendleft(job)
        return False
    worker.job = job
    worker.started = time.perf_counter()
    return True


def _start(ctx: Any) -> _Worker:
    mine, theirs = ctx.Pipe(duplex=True)
    process = ctx.Process(target=_serve, args=(theirs,), daemon=True)
    process.start()
    theirs.close()
    return _Worker(process, mine)


def _finished(pool: list[_Worker]) -> list[tuple[_Worker, Outcome | None]]:
    """Waits until some busy worker answers or dies: each such worker with
    its outcome, or None when it died (an idle worker's death is also
    reported, with its job None)."""
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
        # An answer sent just before the worker died is still an answer.
        if worker.job is not None and worker.conn.poll():
            try:
                outcome = worker.conn.recv()
            except (EOFError, OSError):
                outcome = None
        if outcome is not None:
            worker.job = None
        seen[id(worker)] = (worker, outcome)
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
