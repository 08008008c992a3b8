"""Files that need extensions: meshopt + quantization decoded, appearance-
only extensions a warning (in Python and in `caudal info`), geometry ones
refused by name."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest
from conftest import asset, validate_gltf
from glb_merge import glb, split_glb

import caudal


def run(*args):
    return subprocess.run(
        [sys.executable, "-m", "caudal.cli", *args], capture_output=True, text=True
    )


def test_a_required_material_extension_is_a_warning(tmp_path):
    m = caudal.load(asset("fox_wildmesh/fox.glb"))
    assert len(m.warnings) == 1 and "KHR_materials_pbrSpecularGlossiness" in m.warnings[0]
    out = run("info", str(asset("fox_wildmesh/fox.glb")))
    assert (
        out.returncode == 0
        and "warning: extensionsRequired: KHR_materials_pbrSpecularGlossiness" in out.stdout
    )
    assert (
        json.loads(run("info", str(asset("fox_wildmesh/fox.glb")), "--json").stdout)["warnings"]
        == m.warnings
    )
    # The written file still requires it (its materials need it) and validates.
    m.write(tmp_path / "fox.glb")
    doc, _ = split_glb((tmp_path / "fox.glb").read_bytes())
    assert doc["extensionsRequired"] == ["KHR_materials_pbrSpecularGlossiness"]
    assert validate_gltf(tmp_path / "fox.glb")["errors"] == 0


@pytest.mark.parametrize("name", ["KHR_draco_mesh_compression", "EXT_mesh_gpu_instancing"])
def test_a_required_geometry_extension_is_refused_by_name(tmp_path, name):
    doc, bin_ = split_glb(asset("fox/Fox.glb").read_bytes())
    doc["extensionsUsed"] = doc["extensionsRequired"] = [name]
    p = tmp_path / "x.glb"
    p.write_bytes(glb(doc, bin_))
    with pytest.raises(caudal.GltfError, match=name):
        caudal.load(p)
    out = run("tail", str(p), "-o", str(tmp_path / "y.glb"))
    assert out.returncode == 2 and name in out.stderr and not (tmp_path / "y.glb").exists()


def test_the_meshopt_elephant_is_written_plain_and_valid(tmp_path):
    m = caudal.load(asset("elephant_meshopt/elephant.glb"))
    rig = m.rig
    assert (rig.joint_count, rig.vertex_count) == (69, 6336)
    assert 2.0 < rig.height < 4.5
    assert m.warnings == []
    m.write(tmp_path / "e.glb")
    doc, _ = split_glb((tmp_path / "e.glb").read_bytes())
    assert "EXT_meshopt_compression" not in json.dumps(doc)
    assert doc["extensionsRequired"] == ["KHR_mesh_quantization"]
    assert validate_gltf(tmp_path / "e.glb")["errors"] == 0
    back = caudal.load(tmp_path / "e.glb")
    assert np.array_equal(back.rig.vertices, rig.vertices)
    assert np.array_equal(back.rig.skin_weights, rig.skin_weights)
