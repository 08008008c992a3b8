"""Malformed input: every case raises the documented exception with a
message naming the problem; nothing crashes and no partial file is left."""

from __future__ import annotations

import json
import os
import struct

import numpy as np
import pytest
from conftest import asset, rotation_track

import caudal


def box_rig(**change):
    """A valid two-joint rig (a box), with fields replaced by `change`."""
    v = np.array([[x, y, z] for x in (0, 1) for y in (0, 1) for z in (0, 1)], dtype=np.float32)
    t = np.array(
        [[0, 1, 3], [0, 3, 2], [4, 6, 7], [4, 7, 5], [0, 4, 5], [0, 5, 1], [2, 3, 7], [2, 7, 6]]
    )
    args = dict(
        vertices=v,
        triangles=t,
        skin_joints=np.array([[0, 1]] * 8),
        skin_weights=np.array([[0.5, 0.5]] * 8),
        joint_names=["root", "child"],
        parents=np.array([-1, 0]),
        bind_matrices=np.stack([np.eye(4), np.eye(4)]),
    )
    args.update(change)
    kw = {
        k: args.pop(k) for k in ["bind_matrices", "inverse_bind_matrices", "normalize"] if k in args
    }
    return caudal.Rig(**args, **kw)


def nan_vertices():
    v = box_rig().vertices.copy()
    v[3, 1] = np.nan
    return v


RIG_CASES = [
    (
        "NaN positions",
        dict(vertices=nan_vertices()),
        caudal.RigError,
        r"vertices: non-finite value at index 3",
    ),
    (
        "joint index out of range",
        dict(skin_joints=np.array([[0, 5]] * 8)),
        caudal.RigError,
        r"skin_joints.*index 5",
    ),
    ("cyclic parents", dict(parents=np.array([1, 0])), caudal.RigError, r"cyclic"),
    ("weights summing to 0", dict(skin_weights=np.zeros((8, 2))), caudal.RigError, r"sum.*0"),
    (
        "weights not summing to 1",
        dict(skin_weights=np.array([[0.5, 0.4]] * 8)),
        caudal.RigError,
        r"normalize=True",
    ),
    (
        "negative weight",
        dict(skin_weights=np.array([[1.5, -0.5]] * 8)),
        caudal.RigError,
        r"negative weight",
    ),
    (
        "mismatched lengths",
        dict(skin_weights=np.array([[0.5, 0.5]] * 7)),
        caudal.RigError,
        r"skin_weights: expected shape \[8, N\]",
    ),
    (
        "wrong vertex shape",
        dict(vertices=np.zeros((8, 2))),
        caudal.RigError,
        r"vertices: expected shape \[N, 3\]",
    ),
    (
        "triangle index out of range",
        dict(triangles=np.array([[0, 1, 9]])),
        caudal.RigError,
        r"triangles.*index 9",
    ),
    (
        "negative triangle index",
        dict(triangles=np.array([[0, 1, -1]])),
        caudal.RigError,
        r"triangles.*-1",
    ),
    (
        "duplicate joint names",
        dict(joint_names=["root", "root"]),
        caudal.RigError,
        r"duplicate joint name",
    ),
    (
        "parents of the wrong length",
        dict(parents=np.array([-1])),
        caudal.RigError,
        r"parents: expected shape \[2\]",
    ),
    ("parent out of range", dict(parents=np.array([-1, 7])), caudal.RigError, r"parents.*7"),
    (
        "NaN bind matrix",
        dict(bind_matrices=np.full((2, 4, 4), np.nan)),
        caudal.RigError,
        r"bind_matrices: non-finite",
    ),
    (
        "singular bind matrix",
        dict(bind_matrices=np.zeros((2, 4, 4))),
        caudal.ParameterError,
        r"bind_matrices.*singular",
    ),
    (
        "no bind matrices",
        dict(bind_matrices=None),
        caudal.RigError,
        r"bind world matrices or inverse bind matrices",
    ),
    (
        "empty mesh",
        dict(
            vertices=np.zeros((0, 3)),
            skin_joints=np.zeros((0, 2)),
            skin_weights=np.zeros((0, 2)),
            triangles=np.array([[0, 1, 2]]),
        ),
        caudal.RigError,
        r"vertices: empty mesh",
    ),
]


@pytest.mark.parametrize("name,change,exc,pattern", RIG_CASES, ids=[c[0] for c in RIG_CASES])
def test_malformed_rig_is_refused_with_a_named_field(name, change, exc, pattern):
    with pytest.raises(exc, match=pattern):
        box_rig(**change)


def test_a_rig_without_triangles_skins_but_refuses_surface_stages():
    # No triangles is a point cloud (enough for skinning and the solve);
    # detection, which reads the surface, names what is missing.
    rig = box_rig(triangles=np.zeros((0, 3)))
    assert rig.triangles.shape == (0, 3)
    with pytest.raises(caudal.RigError, match=r"triangles: empty mesh"):
        caudal.find_appendages(rig)


def test_normalize_fixes_weights_that_do_not_sum_to_one():
    rig = box_rig(skin_weights=np.array([[0.5, 0.4]] * 8), normalize=True)
    assert np.allclose(rig.skin_weights.sum(axis=1), 1.0, atol=1e-6)


def test_exceptions_subclass_value_error():
    for exc in [
        caudal.RigError,
        caudal.GltfError,
        caudal.ParameterError,
        caudal.UnknownJointError,
        caudal.NotFoundError,
    ]:
        assert issubclass(exc, caudal.CaudalError) and issubclass(exc, ValueError)
    # The base class is spelled as the package exports it (tracebacks print this).
    assert caudal.CaudalError.__qualname__ == "CaudalError"
    assert caudal.CaudalError.__module__ == "caudal"


def fox_bytes() -> bytes:
    return asset("fox/Fox.glb").read_bytes()


def gltf_with_missing_buffer(tmp_path):
    # A view reads the buffer: a buffer nothing uses is never opened.
    doc = {
        "asset": {"version": "2.0"},
        "buffers": [{"uri": "nowhere.bin", "byteLength": 12}],
        "bufferViews": [{"buffer": 0, "byteLength": 12}],
    }
    p = tmp_path / "missing.gltf"
    p.write_text(json.dumps(doc))
    return p


FILE_CASES = [
    ("truncated GLB", lambda tmp: fox_bytes()[:5000], caudal.GltfError, r"GLB|truncated"),
    ("wrong magic", lambda tmp: b"glTX" + fox_bytes()[4:], caudal.GltfError, r"not a glTF file"),
    ("bad JSON", lambda tmp: b"{ this is not json", caudal.GltfError, r"JSON"),
    (
        "no skin",
        lambda tmp: json.dumps({"asset": {"version": "2.0"}}).encode(),
        caudal.GltfError,
        r"no skin",
    ),
    (
        "GLB length lies",
        lambda tmp: fox_bytes()[:8] + struct.pack("<I", 10**9) + fox_bytes()[12:],
        caudal.GltfError,
        r"GLB",
    ),
]


@pytest.mark.parametrize("name,make,exc,pattern", FILE_CASES, ids=[c[0] for c in FILE_CASES])
def test_malformed_file_is_refused(tmp_path, name, make, exc, pattern):
    p = tmp_path / "bad.glb"
    p.write_bytes(make(tmp_path))
    with pytest.raises(exc, match=pattern):
        caudal.load(p)


def test_missing_buffer_file_is_named(tmp_path):
    with pytest.raises(caudal.GltfError, match=r"missing buffer file .*nowhere.bin"):
        caudal.load(gltf_with_missing_buffer(tmp_path))


def test_missing_file_is_file_not_found(tmp_path):
    with pytest.raises(FileNotFoundError, match="nope.glb"):
        caudal.load(tmp_path / "nope.glb")


def test_unknown_clip_is_not_found():
    with pytest.raises(caudal.NotFoundError, match=r'no animation named "Dance".*Survey'):
        caudal.load(asset("fox/Fox.glb")).clip("Dance")


def test_failed_write_leaves_no_file(tmp_path):
    model = caudal.load(asset("fox/Fox.glb"))
    with pytest.raises(FileNotFoundError):
        model.write(tmp_path / "no_such_dir" / "out.glb")
    assert not (tmp_path / "no_such_dir").exists()
    # The target is a directory: the rename fails after the data was written.
    target = tmp_path / "taken.glb"
    target.mkdir()
    with pytest.raises(OSError):
        model.write(target)
    assert target.is_dir() and os.listdir(tmp_path) == ["taken.glb"]
    # A rig that does not fit the file is refused before anything is written.
    other = caudal.load(asset("quaternius_wolf/Wolf_notail.glb")).rig
    with pytest.raises(caudal.RigError, match="rig"):
        model.write(tmp_path / "mismatch.glb", rig=other)
    assert sorted(os.listdir(tmp_path)) == ["taken.glb"]


def test_bad_tracks_are_refused(tmp_path):
    model = caudal.load(asset("fox/Fox.glb"))
    ok_times = np.array([0.0, 0.5], dtype=np.float32)
    ok_vals = np.array([[0, 0, 0, 1], [0, 0, 0, 1]], dtype=np.float32)

    def write(joint, times, values):
        model.write(
            tmp_path / "a.glb",
            tracks=[rotation_track("A", joint, times, values)],
        )

    with pytest.raises(caudal.UnknownJointError, match="b_Nope"):
        write("b_Nope", ok_times, ok_vals)
    with pytest.raises(caudal.ParameterError, match="strictly increasing"):
        write("b_Hip_01", ok_times[::-1].copy(), ok_vals)
    with pytest.raises(caudal.RigError, match=r"tracks.values"):
        write("b_Hip_01", ok_times, np.full((2, 4), np.nan))
    assert os.listdir(tmp_path) == []
