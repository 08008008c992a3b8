"""The batch's progress on stderr: on a terminal, one line redrawn in place
(a bar, files done of all, failures, files per second, time left); elsewhere
(pipes, CI logs) one plain line per file as it finishes.

The time left counts only files done in this run: files skipped by
``--resume`` take no time and would make the estimate lie."""

from __future__ import annotations

import os
import sys
import threading
import time
from typing import TYPE_CHECKING, TextIO

from caudal.cli.progress import Redraws

if TYPE_CHECKING:  # caudal.pipeline imports the CLI's helpers while it loads
    from caudal.pipeline import FileResult

WIDTH = 24
"""Characters of the bar itself."""

REDRAW = 0.5
"""Seconds between redraws while a slow file keeps the count still: the
clock and the estimate keep moving."""


class BatchProgress:
    def __init__(self, total: int, stream: TextIO | None = None, bar: bool | None = None) -> None:
        self.total = total
        self.stream = stream if stream is not None else sys.stderr
        self.bar = self.stream.isatty() if bar is None else bar
        self.done = 0
        self.failed = 0
        self.skipped = 0
        self.last = ""
        self._start = time.monotonic()
        self._lock = threading.Lock()
        self._redraws = Redraws(self._redraw, "caudal-batch-progress")

    def __enter__(self) -> BatchProgress:
        if self.bar:
            self._redraws.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._redraws.stop():
            self.stream.write("\n")
            self.stream.flush()

    def update(self, result: FileResult) -> None:
        with self._lock:
            self.done += 1
            self.failed += not result.ok
            self.skipped += result.resumed
            self.last = result.path
        if self.bar:
            self._draw()
            return
        status = "resumed" if result.resumed else "done" if result.ok else "FAILED"
        tail = f": {result.error}" if result.error else ""
        self.stream.write(
            f"[{self.done}/{self.total}] {status} {result.path} ({result.seconds:.2f} s){tail}\n"
        )
        self.stream.flush()

    def line(self, now: float) -> str:
        elapsed = now - self._start
        worked = self.done - self.skipped
        filled = WIDTH * self.done // max(self.total, 1)
        rate = worked / elapsed if elapsed > 0 else 0.0
        left = self.total - self.done
        eta = _clock(left / rate) if rate > 0 else "--:--"
        failed = f", {self.failed} failed" if self.failed else ""
        return (
            f"[{'#' * filled}{'-' * (WIDTH - filled)}] {self.done}/{self.total} files{failed}, "
            f"{rate:.1f} files/s, {_clock(elapsed)} elapsed, ETA {eta}  {self.last}"
        )

    def _draw(self) -> None:
        width = _columns(self.stream) - 1
        with self._lock:  # the redraw thread and update() share the line
            self.stream.write("\r" + self.line(time.monotonic())[:width].ljust(width))
            self.stream.flush()

    def _redraw(self) -> None:
        while not self._redraws.stopped.wait(REDRAW):
            self._draw()


def _clock(seconds: float) -> str:
    s = int(round(seconds))
    return (
        f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"
    )


def _columns(stream: TextIO) -> int:
    try:
        return max(20, os.get_terminal_size(stream.fileno()).columns)
    except (OSError, ValueError):
        return 80
