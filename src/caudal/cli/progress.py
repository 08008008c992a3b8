"""A progress bar on stderr for commands whose work takes more than a second.

The core releases the GIL around its work, so a drawing thread keeps the bar
moving while a call runs, and work split into units (clips) runs on a few
threads at once. The bar appears only on a terminal and only once the work
has lasted ``DELAY`` seconds; elsewhere (pipes, CI logs, tests) nothing is
drawn and stdout carries the results alone.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from contextlib import contextmanager
from typing import TextIO, TypeVar

T = TypeVar("T")
R = TypeVar("R")

DELAY = float(os.environ.get("CAUDAL_PROGRESS_DELAY", "1.0"))
"""Seconds of work before the bar is drawn: shorter work needs no bar
(``CAUDAL_PROGRESS_DELAY`` changes it, for tests of the bar itself)."""

REDRAW = 0.1
"""Seconds between redraws: often enough to look alive, cheap enough to ignore."""

WIDTH = 24
"""Characters of the bar itself."""


class Redraws:
    """A daemon thread running ``draw`` from ``start()`` until ``stop()``:
    the redraws of a progress line while the work holds the main thread.
    ``draw`` loops on ``stopped.wait(seconds)``."""

    def __init__(self, draw: Callable[[], None], name: str) -> None:
        self.stopped = threading.Event()
        self._thread = threading.Thread(target=draw, name=name, daemon=True)
        self._started = False

    def start(self) -> None:
        self._thread.start()
        self._started = True

    def stop(self) -> bool:
        """Ends the redraws and waits for the last; whether they had started."""
        self.stopped.set()
        if self._started:
            self._thread.join()
        return self._started


class Progress:
    """What is being done: a label, units done of a total (or 0 when unknown), and the current unit."""

    def __init__(
        self, label: str, total: int = 0, stream: TextIO | None = None, enabled: bool | None = None
    ) -> None:
        self.label = label
        self.total = total
        self.done = 0
        self.current = ""
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self._start = time.monotonic()
        self._lock = threading.Lock()
        self._drawn = False
        self._redraws = Redraws(self._draw, "caudal-progress")

    def step(self, current: str = "") -> None:
        """One unit finished; `current` names the next (or what was just done)."""
        with self._lock:
            self.done += 1
            self.current = current

    def line(self, now: float) -> str:
        elapsed = now - self._start
        if self.total > 0:
            filled = WIDTH * self.done // self.total
            bar = "#" * filled + "-" * (WIDTH - filled)
            count = f" {self.done}/{self.total}"
        else:
            # Unknown length: a block sliding to and fro.
            pos = int(elapsed / REDRAW) % (2 * (WIDTH - 3))
            pos = pos if pos < WIDTH - 3 else 2 * (WIDTH - 3) - pos
            bar = "-" * pos + "###" + "-" * (WIDTH - 3 - pos)
            count = ""
        current = f" {self.current}" if self.current else ""
        return f"{self.label} [{bar}]{count}{current} {elapsed:.0f} s"

    def _draw(self) -> None:
        if self._redraws.stopped.wait(DELAY):
            return
        while True:
            with self._lock:
                text = self.line(time.monotonic())
            width = _columns() - 1
            self.stream.write("\r" + text[:width].ljust(width))
            self.stream.flush()
            self._drawn = True
            if self._redraws.stopped.wait(REDRAW):
                return

    def __enter__(self) -> Progress:
        if self.enabled:
            self._redraws.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._redraws.stop()
        if self._drawn:
            # Clear the bar's line: the results print on a clean line.
            self.stream.write("\r" + " " * (_columns() - 1) + "\r")
            self.stream.flush()


def _columns() -> int:
    try:
        return max(20, os.get_terminal_size(sys.stderr.fileno()).columns)
    except (OSError, ValueError):
        return 80


@contextmanager
def working(label: str) -> Iterator[Progress]:
    """A bar for one piece of work of unknown length (one core call)."""
    with Progress(label) as p:
        yield p


def each(
    label: str, items: Sequence[T], work: Callable[[T], R], name: Callable[[T], str] = str
) -> list[R]:
    """`work(item)` for every item, on up to one thread per core (the core
    releases the GIL), with a bar counting finished items. Results come back
    in the order of `items`, whatever order they finished in."""
    if not items:
        return []
    workers = min(len(items), os.cpu_count() or 1)
    results: dict[int, R] = {}
    with Progress(label, total=len(items)) as p, ThreadPoolExecutor(max_workers=workers) as pool:
        futures = {pool.submit(work, item): i for i, item in enumerate(items)}
        for future in as_completed(futures):
            i = futures[future]
            results[i] = future.result()
            p.step(name(items[i]))
    return [results[i] for i in range(len(items))]
