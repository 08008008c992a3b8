"""The output folder: each file's repaired GLB and JSON report, written
atomically by the driver alone (``caudal.write_atomic``, the writer of every
caudal GLB), the GLB first and the report last, so a report on disk means
its GLB is complete. ``--resume`` trusts a report only when its key matches
the input's bytes and the settings and its GLB still hashes as recorded."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import caudal
from caudal.pipeline.inputs import Job
from caudal.pipeline.rows import finite
from caudal.pipeline.work import Outcome, resume_key, sha256

TEMP_NAME = re.compile(r"^\.(?:.+\.)?caudal-(\d+)(?:-\d+)?\.tmp$")
"""``write_atomic``'s temporary files: ``.NAME.caudal-PID.tmp``, or
``.caudal-PID-N.tmp``."""


def save(out_dir: Path, outcome: Outcome) -> None:
    """Writes one file's outputs. A failed file has a report and no GLB
    (an older GLB under its name is removed: it is not this input's)."""
    job = outcome.job
    glb = out_dir / job.output
    glb.parent.mkdir(parents=True, exist_ok=True)
    if outcome.glb is not None:
        caudal.write_atomic(glb, outcome.glb)
    else:
        glb.unlink(missing_ok=True)
    text = json.dumps(finite(outcome.report), indent=2, allow_nan=False) + "\n"
    caudal.write_atomic(out_dir / job.report, text.encode())


def previous(out_dir: Path, job: Job) -> dict[str, Any] | None:
    """The report of an earlier run that made this file's output from the
    same bytes and settings, if its GLB is there intact; else None."""
    report_path = out_dir / job.report
    glb = out_dir / job.output
    try:
        report = json.loads(report_path.read_text())
        if report.get("error") is not None or report.get("output") != job.output:
            return None
        if report.get("key") != resume_key(sha256(Path(job.path).read_bytes()), job.settings):
            return None
        if sha256(glb.read_bytes()) != report.get("output_sha256"):
            return None
    except (OSError, ValueError):
        return None
    return report if isinstance(report, dict) else None


def remove_stale_temps(out_dir: Path) -> list[Path]:
    """Deletes the temporary files of writes that were killed (their
    process is gone) below ``out_dir``; returns what it removed."""
    removed = []
    for root, _, files in os.walk(out_dir):
        for name in files:
            m = TEMP_NAME.match(name)
            if m and not _alive(int(m.group(1))):
                path = Path(root) / name
                path.unlink(missing_ok=True)
                removed.append(path)
    return removed


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
