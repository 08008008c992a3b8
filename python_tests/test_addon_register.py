"""register()/unregister() are symmetric: everything the add-on adds to
Blender goes away and comes back."""

from __future__ import annotations

import pytest
from addon_harness import addon

import caudal

pytestmark = pytest.mark.blender


def test_unregister_removes_everything_and_register_restores_it():
    pkg = addon()
    import bpy

    from addon import live, spring_settings

    ops = ["build_armature", "bake_tail"]
    assert all(hasattr(bpy.types, f"CAUDAL_OT_{o}") for o in ops)
    assert hasattr(bpy.types.Object, "caudal")
    assert live.on_frame_change in bpy.app.handlers.frame_change_post
    pkg.unregister()
    try:
        assert not any(hasattr(bpy.types, f"CAUDAL_OT_{o}") for o in ops)
        assert not hasattr(bpy.types.Object, "caudal")
        assert not hasattr(bpy.types, "VIEW3D_PT_caudal") and not hasattr(
            bpy.types, "DATA_PT_caudal"
        )
        assert live.on_frame_change not in bpy.app.handlers.frame_change_post
    finally:
        pkg.register()
    assert all(hasattr(bpy.types, f"CAUDAL_OT_{o}") for o in ops)
    assert bpy.app.handlers.frame_change_post.count(live.on_frame_change) == 1
    s = bpy.data.objects.new("a", bpy.data.armatures.new("a")).caudal
    # The core's spring defaults, under the core's names, on a fresh armature.
    core = caudal.spring_defaults()
    assert {n: getattr(s, n) for n in spring_settings.NAMES} == {
        n: core[n] for n in spring_settings.NAMES
    }
    assert (s.root_frequency, s.damping_ratio, s.carry_deg, s.stop_deg) == pytest.approx(
        (0.9, 0.65, 50.0, 30.0)
    )
    assert s.rest_curve == 0.0 and s.ground and s.floor_height == 0.0


class Recorder:
    """Stands in for a UILayout: records what a panel draws, row by row."""

    def __init__(self, log, path="layout"):
        self.log, self.path = log, path
        self.active = True

    def _child(self, kind):
        r = Recorder(self.log, f"{self.path}/{kind}{len(self.log)}")
        return r

    def box(self):
        return self._child("box")

    def row(self, **k):
        return self._child("row")

    def column(self, **k):
        return self._child("col")

    def prop(self, data, name, **k):
        getattr(data, name)  # the property must exist
        self.log.append((self.path, "prop", name))

    def prop_search(self, data, name, search_data, search_name, **k):
        getattr(data, name)  # the property and the collection it picks from must exist
        getattr(search_data, search_name)
        self.log.append((self.path, "search", name))

    def operator(self, idname, **k):
        self.log.append((self.path, "op", idname))

    def label(self, text="", **k):
        self.log.append((self.path, "label", text))


def test_panel_puts_fingers_and_tail_side_by_side_and_draws_the_card():
    addon()
    import bpy
    from addon_harness import fresh_fox

    from addon import panels, spring_settings

    arm, _ = fresh_fox()
    p = arm.caudal.parts.add()
    p.kind, p.decision, p.attachment, p.vertex_count, p.bone_count = (
        "tail",
        "chain",
        "b_Hip_01",
        250,
        4,
    )
    arm.caudal.card_title = "1 tail(s) with 4 bone(s); 1 part(s) found"
    arm.caudal.warnings.add().text = "A broad part keeps the rigger's weights."
    log = []
    panels.draw_all(Recorder(log), bpy.context)
    rows = {}
    for path, _kind, name in log:
        rows.setdefault(path, []).append(name)
    assert ["use_fingers", "use_tail"] in rows.values()
    ops = [n for _, k, n in log if k == "op"]
    assert ops[0] == "caudal.build_armature" and "caudal.bake_tail" in ops
    labels = [n for _, k, n in log if k == "label"]
    assert "Tail at b_Hip_01: chain" in labels
    assert "250 vertices, length 0, 4 bones" in labels
    assert "A broad part keeps the rigger's weights." in labels
    props = {n for _, k, n in log if k == "prop"}
    assert {*spring_settings.NAMES, "live_preview"} <= props
    # The Pelvis picker sits in the Rig box, before Build Armature.
    kinds = [(k, n) for _, k, n in log]
    assert kinds.index(("search", "pelvis_bone")) < kinds.index(("op", "caudal.build_armature"))
