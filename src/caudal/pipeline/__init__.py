"""Pipelines: repair a whole asset library (``caudal batch``,
``caudal.batch``) on a process pool or a Ray cluster.

One module per job: ``settings`` (what is done to each file), ``inputs``
(files, folders, manifests into jobs), ``work`` (one file, in a worker),
``store`` (the output folder, resume), ``rows`` (the summary), ``local`` and
``ray_engine`` (where the work runs), ``run`` (the batch itself)."""

from __future__ import annotations

from caudal.pipeline.rows import Summary
from caudal.pipeline.run import Batch, FileResult, batch
from caudal.pipeline.settings import RepairSettings

__all__ = ["Batch", "FileResult", "RepairSettings", "Summary", "batch"]
