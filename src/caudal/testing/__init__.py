"""Rig checks for pytest: assertions whose failure names the clip, the
time, the worst edge, vertex or bone, and the figure against its bound.

Each repair check takes the model as delivered (a path or a loaded
``caudal.Model``) and checks caudal's repair of it, made as ``caudal batch``
makes it (the ``settings`` of the batch, baked into every clip), or a file
some pipeline already wrote (``repaired=``). The pytest plugin
(``caudal.testing.plugin``, loaded automatically) adds the fixtures
``caudal_model``, ``caudal_clip`` and ``caudal_truth``::

    import caudal.testing as ct

    def test_fox(caudal_model, caudal_truth):
        fox = caudal_model("assets/Fox_notail.glb")
        ct.assert_tail_found(fox, caudal_truth("assets/Fox_notail.truth.json"), min_recall=0.9)
        ct.assert_no_new_tears(fox, "Walk")
        ct.assert_loop_closes(fox, "Walk", deg=0.5)
        ct.assert_body_unchanged(fox, "Walk")
"""

from __future__ import annotations

from caudal.testing.body import assert_body_unchanged
from caudal.testing.detection import assert_tail_found
from caudal.testing.loop import assert_loop_closes
from caudal.testing.subject import Repair, repair
from caudal.testing.tears import TORN_ABOVE, TORN_BELOW, assert_no_new_tears
from caudal.testing.transfer import assert_transfer_quality

__all__ = [
    "Repair",
    "TORN_ABOVE",
    "TORN_BELOW",
    "assert_body_unchanged",
    "assert_loop_closes",
    "assert_no_new_tears",
    "assert_tail_found",
    "assert_transfer_quality",
    "repair",
]
