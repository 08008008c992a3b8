"""Rig checks a studio keeps beside its assets (caudal's pytest plugin gives
the fixtures; paths are relative to this file)."""

import caudal.testing as ct


def test_fox_tail_is_repaired(caudal_model, caudal_truth):
    fox = caudal_model("../../assets/fox/Fox_notail.glb")
    ct.assert_tail_found(
        fox, caudal_truth("../../assets/fox/Fox_notail.truth.json"), min_recall=0.9
    )
    ct.assert_no_new_tears(fox, "Walk")
    ct.assert_loop_closes(fox, "Walk", deg=0.5)
    ct.assert_body_unchanged(fox, "Walk")
