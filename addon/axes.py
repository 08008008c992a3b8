"""Blender <-> caudal conventions, bpy-free so it is tested without Blender.

caudal's core is Y-up (SPEC: "Blender's Z-up is converted at the add-on
boundary"); Blender is Z-up. A point (x, y, z) in Blender is (x, z, -y) in the
core, exactly what Blender's glTF importer undoes. Bind matrices keep the
bone's own local frame (only the world side is turned), so a local rotation in
caudal is a rotation in Blender's bone space and converting a pose needs no
per-bone axis juggling.

Quaternions: caudal stores (x, y, z, w) like glTF; Blender's
``rotation_quaternion`` is (w, x, y, z).
"""

from __future__ import annotations

import numpy as np

# core = CORE_FROM_BLENDER @ blender (points, rotation part)
CORE_FROM_BLENDER = np.array([[1, 0, 0], [0, 0, 1], [0, -1, 0]], dtype=np.float64)
BLENDER_FROM_CORE = CORE_FROM_BLENDER.T


def _mat4(m3: np.ndarray) -> np.ndarray:
    m = np.eye(4)
    m[:3, :3] = m3
    return m


CORE_FROM_BLENDER_4 = _mat4(CORE_FROM_BLENDER)
BLENDER_FROM_CORE_4 = _mat4(BLENDER_FROM_CORE)


def points_to_core(p: np.ndarray) -> np.ndarray:
    """Blender world points (N, 3) -> core points."""
    return np.asarray(p, dtype=np.float64) @ CORE_FROM_BLENDER.T


def points_from_core(p: np.ndarray) -> np.ndarray:
    return np.asarray(p, dtype=np.float64) @ BLENDER_FROM_CORE.T


def frames_to_core(m: np.ndarray) -> np.ndarray:
    """Blender world frames (J, 4, 4), local side untouched -> core frames."""
    return CORE_FROM_BLENDER_4 @ np.asarray(m, dtype=np.float64)


def frames_from_core(m: np.ndarray) -> np.ndarray:
    return BLENDER_FROM_CORE_4 @ np.asarray(m, dtype=np.float64)


def transform_points(m: np.ndarray, p: np.ndarray) -> np.ndarray:
    """Applies one 4x4 affine matrix to points (N, 3)."""
    m = np.asarray(m, dtype=np.float64)
    return np.asarray(p, dtype=np.float64) @ m[:3, :3].T + m[:3, 3]


def xyzw_to_wxyz(q: np.ndarray) -> np.ndarray:
    q = np.asarray(q)
    return np.concatenate([q[..., 3:4], q[..., 0:3]], axis=-1)


def wxyz_to_xyzw(q: np.ndarray) -> np.ndarray:
    q = np.asarray(q)
    return np.concatenate([q[..., 1:4], q[..., 0:1]], axis=-1)


def quat_mul_xyzw(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Hamilton product a*b on (..., 4) arrays in (x, y, z, w) order."""
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    ax, ay, az, aw = np.moveaxis(a, -1, 0)
    bx, by, bz, bw = np.moveaxis(b, -1, 0)
    return np.stack(
        [
            aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw,
            aw * bw - ax * bx - ay * by - az * bz,
        ],
        axis=-1,
    )


def quat_conj_xyzw(q: np.ndarray) -> np.ndarray:
    q = np.array(q, dtype=np.float64)
    q[..., :3] *= -1.0
    return q


def basis_from_local(rest_local_xyzw: np.ndarray, local_xyzw: np.ndarray) -> np.ndarray:
    """caudal local rotation (relative to the parent joint) -> Blender pose
    bone ``rotation_quaternion`` (relative to the bone's rest), as (w, x, y, z).

    Blender poses a bone as ``parent @ rest_local @ basis``; caudal as
    ``parent @ local``; so ``basis = rest_local^-1 * local`` (a pure rotation
    when the translation is the rest translation, as for the tail bones).
    Signs are made continuous along the first axis so f-curves do not flip.
    """
    q = quat_mul_xyzw(quat_conj_xyzw(rest_local_xyzw), local_xyzw)
    q /= np.linalg.norm(q, axis=-1, keepdims=True)
    q = xyzw_to_wxyz(q)
    if q.ndim >= 2 and q.shape[0] > 1:
        for f in range(1, q.shape[0]):
            flip = np.sum(q[f] * q[f - 1], axis=-1) < 0
            q[f][flip] *= -1.0
    return q


def locals_from_basis(
    rest_t: np.ndarray,
    rest_q_xyzw: np.ndarray,
    loc: np.ndarray,
    q_wxyz: np.ndarray,
    scale: np.ndarray,
):
    """Blender pose channels (F, J, ...) -> caudal local TRS.

    ``local = rest_local @ basis``: translation ``rest_t + R_rest loc``,
    rotation ``q_rest * q_basis``, scale the pose scale (Blender bones have
    no rest scale).
    """
    q_basis = wxyz_to_xyzw(q_wxyz)
    q_rest = np.broadcast_to(rest_q_xyzw, q_basis.shape)
    t = rest_t + rotate_xyzw(q_rest, loc)
    q = quat_mul_xyzw(q_rest, q_basis)
    q /= np.linalg.norm(q, axis=-1, keepdims=True)
    return t, q, np.asarray(scale, dtype=np.float64)


def rotate_xyzw(q: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Rotates vectors (..., 3) by unit quaternions (..., 4)."""
    q = np.asarray(q, dtype=np.float64)
    v = np.asarray(v, dtype=np.float64)
    u, w = q[..., :3], q[..., 3:4]
    t = 2.0 * np.cross(u, v)
    return v + w * t + np.cross(u, t)


def basis_from_locals(
    rest_t: np.ndarray, rest_q_xyzw: np.ndarray, t: np.ndarray, q_xyzw: np.ndarray
):
    """caudal local TRS (F, J, ...) -> Blender pose channels: the inverse of
    ``locals_from_basis``. Returns (location, rotation_quaternion wxyz);
    quaternion signs continuous over frames."""
    q_rest = np.broadcast_to(rest_q_xyzw, np.shape(q_xyzw))
    loc = rotate_xyzw(quat_conj_xyzw(q_rest), np.asarray(t, dtype=np.float64) - rest_t)
    return loc, basis_from_local(rest_q_xyzw, q_xyzw)
