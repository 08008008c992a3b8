"""No silent coercion at the API (issue 14): indices are integer arrays,
geometry real numbers; contradictory bind arguments and degenerate rigs are
errors; transfer quality of a clip that does not move is NaN with a
warning."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from test_bad_input import box_rig

import caudal

TYPE_CASES = [
    ("float joint indices", dict(skin_joints=np.array([[0.0, 1.7]] * 8)), r"skin_joints.*integer"),
    ("float triangles", dict(triangles=np.array([[0, 1, 3.5]])), r"triangles.*integer"),
    (
        "uint64 parent of 2**64-1",
        dict(parents=np.array([2**64 - 1, 0], dtype=np.uint64)),
        r"parents",
    ),
    ("float parents", dict(parents=np.array([-1.0, 0.0])), r"parents.*integer"),
    (
        "boolean joint indices",
        dict(skin_joints=np.array([[False, True]] * 8)),
        r"skin_joints.*integer",
    ),
    (
        "complex vertices",
        dict(vertices=np.zeros((8, 3), dtype=np.complex64) + 1j),
        r"vertices.*real",
    ),
    (
        "complex weights",
        dict(skin_weights=np.array([[0.5 + 0.1j, 0.5]] * 8)),
        r"skin_weights.*real",
    ),
    ("string vertices", dict(vertices=np.array([["a", "b", "c"]] * 8)), r"vertices"),
    (
        "complex bind matrices",
        dict(bind_matrices=np.stack([np.eye(4), np.eye(4)]).astype(np.complex128)),
        r"bind_matrices.*real",
    ),
]


@pytest.mark.parametrize("name,change,pattern", TYPE_CASES, ids=[c[0] for c in TYPE_CASES])
def test_wrong_dtype_is_refused_not_coerced(name, change, pattern):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the refusal must not depend on numpy's ComplexWarning
        with pytest.raises(caudal.RigError, match=pattern):
            box_rig(**change)


def test_integer_arrays_of_any_width_are_indices():
    for dt in [np.int8, np.uint16, np.int32, np.uint32, np.int64, np.uint64]:
        rig = box_rig(
            skin_joints=np.array([[0, 1]] * 8, dtype=dt),
            triangles=np.array([[0, 1, 3], [0, 3, 2]], dtype=dt),
        )
        assert rig.joint_count == 2
    # Lists of Python ints are integer arrays; empty arrays carry no values to coerce.
    assert box_rig(parents=[-1, 0]).joint_count == 2
    # Integer geometry is real numbers.
    assert (
        box_rig(
            vertices=np.array(
                [[x, y, z] for x in (0, 1) for y in (0, 1) for z in (0, 1)], dtype=np.int32
            )
        ).height
        == 1.0
    )


def test_skin_frames_are_integers():
    m = caudal.load(__import__("conftest").asset("fox/Fox.glb"))
    with pytest.raises(TypeError):
        caudal.skin(m.rig, m.clip("Walk"), frames=[0.5])


def test_contradictory_bind_arguments_are_refused():
    bind = np.stack([np.eye(4), np.eye(4)])
    with pytest.raises((caudal.RigError, caudal.ParameterError), match=r"inverse_bind_matrices"):
        box_rig(bind_matrices=bind, inverse_bind_matrices=bind * 2.0)


def test_consistent_bind_arguments_are_accepted():
    t = np.eye(4)
    t[:3, 3] = [0.0, 0.5, 0.0]
    bind = np.stack([np.eye(4), t])
    rig = box_rig(bind_matrices=bind, inverse_bind_matrices=np.linalg.inv(bind))
    assert np.allclose(rig.inverse_bind_matrices, np.linalg.inv(bind), atol=1e-6)


def flat_box():
    v = box_rig().vertices.copy()
    v[:, 1] = 0.0
    return v


DEGENERATE = [
    ("zero height", dict(vertices=flat_box()), r"height"),
    (
        "every triangle degenerate",
        dict(triangles=np.array([[0, 0, 1], [2, 2, 2], [0, 1, 1]])),
        r"triangles.*degenerate",
    ),
    (
        "collinear triangles",
        dict(vertices=np.array([[0, y, 0] for y in range(8)], dtype=np.float32)),
        r"triangles.*degenerate|height",
    ),
    (
        "extent overflows",
        dict(
            vertices=np.array([[0, 0, 0]] * 7 + [[0, 0, 0]], dtype=np.float32)
            + np.array([[-3.4e38, -3.4e38, 0]] * 4 + [[3.4e38, 3.4e38, 0]] * 4, dtype=np.float32)
        ),
        r"vertices.*(finite|extent)",
    ),
]


@pytest.mark.parametrize("name,change,pattern", DEGENERATE, ids=[c[0] for c in DEGENERATE])
def test_degenerate_rig_is_refused(name, change, pattern):
    with pytest.raises(caudal.RigError, match=pattern):
        box_rig(**change)


def test_transfer_quality_of_a_still_clip_is_nan_with_a_warning():
    rig = box_rig()
    rest = rig.vertices[None]
    with pytest.warns(RuntimeWarning, match="does not move"):
        q = caudal.transfer_quality(rig, rest, rest)
    assert np.isnan(q)
    # A clip that moves is scored as before.
    moved = rest + np.array([0.0, 0.1, 0.0], dtype=np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert caudal.transfer_quality(rig, moved, moved) == pytest.approx(1.0)
