"""A check that fails, to show what a failure says: the Fox's template rig
reproduces about 85% of the artist's walk, not 95%."""

import caudal.testing as ct


def test_walk_carries_onto_the_template_rig(caudal_model, caudal_clip):
    artist = caudal_model("../../assets/fox/Fox.glb")
    walk = caudal_clip(artist, "Walk")
    ct.assert_transfer_quality(
        artist, caudal_model("../../assets/fox/Fox_notail.glb"), walk, at_least=0.95
    )
