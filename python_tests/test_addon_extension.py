"""The extension zip: built by Blender's own blender_ext.py around the caudal
wheel, installed into a fresh bpy (its own user folder) with the extension
install operator, and the add-on's operators run on the Fox from the
bundled wheel, not from the development tree."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from conftest import ROOT, asset, import_bpy

pytestmark = pytest.mark.blender

SCRIPT = r"""
import importlib.abc, importlib.machinery, json, os, sys
import bpy

USER = os.environ["BLENDER_USER_RESOURCES"]


class OnlyBundledCaudal(importlib.abc.MetaPathFinder):
    # caudal may only come from the extension's wheel under USER, never from
    # the development tree or the test venv.

    def find_spec(self, name, path, target=None):
        if name != "caudal":
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, [p for p in sys.path if p.startswith(USER)])
        if spec is None:
            raise ModuleNotFoundError("caudal is not installed by the extension")
        return spec


sys.meta_path.insert(0, OnlyBundledCaudal())
zip_path, fox = sys.argv[1], sys.argv[2]
out = {"install": sorted(bpy.ops.extensions.package_install_files(filepath=zip_path, repo="user_default", enable_on_install=True))}
import caudal
out["caudal_file"] = caudal.__file__
bpy.ops.wm.read_homefile(use_empty=True)
bpy.ops.import_scene.gltf(filepath=fox)
arm = next(o for o in bpy.context.scene.objects if o.type == "ARMATURE")
bpy.context.view_layer.objects.active = arm
arm.caudal.use_fingers = False
arm.caudal.use_tail = True
out["build"] = sorted(bpy.ops.caudal.build_armature())
out["bones"] = [b.name for b in arm.data.bones]
out["card"] = arm.caudal.card_title
arm.caudal.bake_actions = next(a.name for a in bpy.data.actions if a.name == "Walk" or a.name.startswith("Walk_"))
out["bake"] = sorted(bpy.ops.caudal.bake_tail())
target = arm
bpy.ops.import_scene.gltf(filepath=fox.replace("Fox_notail.glb", "Fox.glb"))
source = next(o for o in bpy.context.scene.objects if o.type == "ARMATURE" and o != target)
bpy.context.view_layer.objects.active = target
target.caudal.source_armature = source
target.caudal.source_action = source.animation_data.action
out["transfer"] = sorted(bpy.ops.caudal.transfer_animation())
out["quality"] = target.caudal.transfer_quality
print("RESULT" + json.dumps(out))
"""


def wheel() -> Path | None:
    env = os.environ.get("CAUDAL_WHEEL")
    if env:
        return Path(env)
    for d in (ROOT / ".ci-work" / "wheels", ROOT / "dist" / "manylinux", ROOT / "dist"):
        hits = sorted(d.glob("caudal-*.whl"))
        if hits:
            return hits[-1]
    return None


def extension_zip(tmp_path: Path) -> Path:
    """The zip to test: the one .ci/run built for release (CAUDAL_EXTENSION_ZIP),
    or one packed here around a built wheel."""
    built = os.environ.get("CAUDAL_EXTENSION_ZIP")
    if built:
        return Path(built)
    w = wheel()
    if w is None:
        if os.environ.get("CAUDAL_REQUIRE_BPY") == "1":
            pytest.fail("no caudal wheel to bundle (set CAUDAL_WHEEL or CAUDAL_EXTENSION_ZIP)")
        pytest.skip("no caudal wheel built (maturin build -o dist)")
    sys.path.insert(0, str(ROOT / "addon"))
    try:
        import build_extension
    finally:
        sys.path.pop(0)
    return build_extension.build([w], tmp_path / "dist")


def test_zip_installs_into_fresh_blender_and_operators_run(tmp_path):
    import_bpy()
    z = extension_zip(tmp_path)
    names = set(zipfile.ZipFile(z).namelist())
    bundled = sorted(n for n in names if n.startswith("wheels/caudal-") and n.endswith(".whl"))
    assert len(bundled) == 1, names
    assert {
        "blender_manifest.toml",
        "__init__.py",
        "bpy_arrays.py",
        "LICENSE",
        "LICENSE-MIT",
        "LICENSE-APACHE",
    } <= names
    assert not any(n.startswith("numpy") or "/numpy-" in n for n in names)
    assert "build_extension.py" not in names
    manifest = zipfile.ZipFile(z).read("blender_manifest.toml").decode()
    assert f'"./{bundled[0]}"' in manifest
    if bundled[0].endswith("_x86_64.whl"):
        assert 'platforms = ["linux-x64"]' in manifest and z.name.endswith("-linux-x64.zip")

    env = {**os.environ, "BLENDER_USER_RESOURCES": str(tmp_path / "user")}
    env.pop("PYTHONPATH", None)
    script = tmp_path / "run.py"
    script.write_text(SCRIPT)
    p = subprocess.run(
        [sys.executable, str(script), str(z), str(asset("fox/Fox_notail.glb"))],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    line = next((row for row in p.stdout.splitlines() if row.startswith("RESULT")), None)
    assert line is not None, p.stdout[-3000:] + p.stderr[-3000:]
    out = json.loads(line[len("RESULT") :])
    assert out["install"] == ["FINISHED"]
    assert str(tmp_path / "user") in out["caudal_file"], out["caudal_file"]
    assert out["build"] == ["FINISHED"]
    assert "Tail_1" in out["bones"] and "b_Hip_01" in out["bones"]
    assert out["card"].startswith("1 tail(s)")
    assert out["bake"] == ["FINISHED"] and out["transfer"] == ["FINISHED"]
    assert 0.5 < out["quality"] <= 1.0
