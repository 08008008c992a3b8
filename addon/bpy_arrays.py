"""The one place where Blender data becomes arrays and back.

Everything goes through ``foreach_get``/``foreach_set`` except vertex-group
membership, which Blender exposes only per vertex (no bulk accessor exists
for deform weights): it is read in one flat pass and written with one
``VertexGroup.add`` call per distinct weight. Axis conversion (Blender Z-up
<-> core Y-up) happens here and nowhere else (see ``axes``).
"""

from __future__ import annotations

import bpy
import numpy as np

from . import axes
from .rig_table import MeshSlice, RigTable


def _matrices(coll, count: int) -> np.ndarray:
    flat = np.empty(count * 16, dtype=np.float32)
    coll.foreach_get("matrix_local", flat)
    # foreach_get yields column-major matrices.
    return flat.reshape(count, 4, 4).transpose(0, 2, 1).astype(np.float64)


def bone_table(arm) -> tuple[list[str], np.ndarray, np.ndarray]:
    """Names, parent indices and rest matrices (armature space) of all bones."""
    bones = arm.data.bones
    names = [b.name for b in bones]
    index = {n: i for i, n in enumerate(names)}
    parents = np.array([index[b.parent.name] if b.parent else -1 for b in bones], dtype=np.int32)
    return names, parents, _matrices(bones, len(bones))


def deform_meshes(arm) -> list:
    """Mesh objects deformed by this armature (through an Armature modifier)."""
    out = []
    for o in bpy.data.objects:
        if o.type != "MESH":
            continue
        if any(m.type == "ARMATURE" and m.object == arm for m in o.modifiers):
            out.append(o)
    return sorted(out, key=lambda o: o.name)


def mesh_positions(obj) -> np.ndarray:
    """Rest positions of the mesh's vertices in Blender world space (N, 3)."""
    me = obj.data
    co = np.empty(len(me.vertices) * 3, dtype=np.float32)
    me.vertices.foreach_get("co", co)
    return axes.transform_points(np.array(obj.matrix_world), co.reshape(-1, 3))


def mesh_triangles(obj) -> np.ndarray:
    me = obj.data
    me.calc_loop_triangles()
    tri = np.empty(len(me.loop_triangles) * 3, dtype=np.int32)
    me.loop_triangles.foreach_get("vertices", tri)
    return tri.reshape(-1, 3).astype(np.uint32)


def group_weights(obj) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[str]]:
    """(vertex, group, weight) triples and the object's group names."""
    names = [g.name for g in obj.vertex_groups]
    triples = [(v.index, g.group, g.weight) for v in obj.data.vertices for g in v.groups]
    if not triples:
        return np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.float32), names
    a = np.array(triples, dtype=np.float64)
    return a[:, 0].astype(np.int64), a[:, 1].astype(np.int64), a[:, 2].astype(np.float32), names


def read_rig(arm, meshes=None) -> RigTable:
    """The rig table of an armature and the meshes it deforms, in core space.

    Only groups named after deform bones count (the Armature modifier ignores
    the rest); weights are normalised per vertex like the modifier does. A
    vertex with no deform weight stays where it is in Blender: it is bound to
    the root bone here, which the rest pose leaves in place.
    """
    if arm is None or arm.type != "ARMATURE":
        raise ValueError("select an armature (or a mesh deformed by one)")
    meshes = deform_meshes(arm) if meshes is None else list(meshes)
    if not meshes:
        raise ValueError(
            f"no mesh is deformed by '{arm.name}' (an Armature modifier pointing at it)"
        )
    for o in (arm, *meshes):
        if o.mode == "EDIT":
            o.update_from_editmode()  # read what the user sees, not the last flush
    names, parents, rest = bone_table(arm)
    if not names:
        raise ValueError(f"'{arm.name}' has no bones")
    deform = {b.name for b in arm.data.bones if b.use_deform}
    joint_of = {n: i for i, n in enumerate(names)}
    bind_core = axes.frames_to_core(np.array(arm.matrix_world) @ rest)

    verts, tris, slices, blocks = [], [], [], []
    start = 0
    for obj in meshes:
        p = mesh_positions(obj)
        t = mesh_triangles(obj)
        r, g, w, gnames = group_weights(obj)
        lut = np.array([joint_of[n] if n in deform else -1 for n in gnames] or [-1], dtype=np.int64)
        cols = lut[g] if g.size else g
        keep = (cols >= 0) & (w > 0)
        blocks.append((r[keep] + start, cols[keep], w[keep]))
        verts.append(axes.points_to_core(p))
        tris.append(t + start)
        slices.append(MeshSlice(obj.name, start, p.shape[0]))
        start += p.shape[0]

    n = start
    rows = np.concatenate([b[0] for b in blocks])
    cols = np.concatenate([b[1] for b in blocks])
    ws = np.concatenate([b[2] for b in blocks])
    dense = np.zeros((n, len(names)), dtype=np.float32)
    np.add.at(dense, (rows, cols), ws)
    sums = dense.sum(axis=1)
    empty = sums <= 0
    warnings = []
    if empty.any():
        root = int(np.flatnonzero(parents < 0)[0])
        dense[empty, root] = 1.0
        sums[empty] = 1.0
        warnings.append(
            f"{int(empty.sum())} vertices had no bone weight; they were treated as bound to '{names[root]}'"
        )
    dense /= sums[:, None]
    return RigTable(
        armature=arm.name,
        joint_names=names,
        parents=parents,
        bind_core=bind_core,
        vertices_core=np.concatenate(verts),
        triangles=np.concatenate(tris) if tris else np.zeros((0, 3), np.uint32),
        dense=dense,
        meshes=slices,
        unweighted=int(empty.sum()),
        warnings=warnings,
    )


def write_weights(table: RigTable, names: list[str], dense: np.ndarray, rows: np.ndarray) -> None:
    """Rewrites the deform weights of the given table rows from ``dense``
    (columns named by ``names``); other vertices and non-deform groups keep
    theirs. Groups are created for joints that gain weight."""
    rows = np.asarray(rows, dtype=np.int64)
    for sl in table.meshes:
        obj = bpy.data.objects[sl.name]
        mine = rows[(rows >= sl.start) & (rows < sl.start + sl.count)]
        if mine.size == 0:
            continue
        local = (mine - sl.start).tolist()
        for name in names:
            g = obj.vertex_groups.get(name)
            if g is not None:
                g.remove(local)
        sub = dense[mine]
        r, c = np.nonzero(sub > 0.0)
        for j in np.unique(c):
            name = names[j]
            g = obj.vertex_groups.get(name) or obj.vertex_groups.new(name=name)
            sel = c == j
            verts = mine[r[sel]] - sl.start
            ws = sub[r[sel], j]
            uniq, inverse, counts = np.unique(ws, return_inverse=True, return_counts=True)
            order = np.argsort(inverse, kind="stable")
            for w, chunk in zip(uniq, np.split(verts[order], np.cumsum(counts)[:-1]), strict=False):
                g.add(chunk.tolist(), float(w), "REPLACE")


def remove_groups(table: RigTable, names: list[str]) -> None:
    for sl in table.meshes:
        obj = bpy.data.objects[sl.name]
        for name in names:
            g = obj.vertex_groups.get(name)
            if g is not None:
                obj.vertex_groups.remove(g)


def bone_frames_from_core(arm, bind_core: np.ndarray) -> np.ndarray:
    """Core world binds -> armature-space rest matrices."""
    return np.linalg.inv(np.array(arm.matrix_world)) @ axes.frames_from_core(bind_core)


def action_frames(action, fps: float, rate: float | None = None) -> np.ndarray:
    """Frames the action is sampled at: its frame range at ``rate`` keys per
    second (the scene's rate by default), ends included."""
    f0, f1 = (float(x) for x in action.frame_range)
    rate = fps if rate is None else rate
    n = max(2, int(round((f1 - f0) / fps * rate)) + 1)
    return np.linspace(f0, f1, n)


def sample_action(arm, action, table: RigTable, rig, frames: np.ndarray, fps: float):
    """The action as a ``caudal.Clip`` on the table's joints (core space),
    read from its f-curves without touching the live pose. Channels the
    action does not key stay at rest (Blender's own behaviour)."""
    from mathutils import Euler

    import caudal

    from . import anim

    curves = anim.fcurves(action, anim.slot_for(arm, action))
    f, j = len(frames), len(table.joint_names)
    loc = np.zeros((f, j, 3))
    quat = np.zeros((f, j, 4))
    quat[..., 0] = 1.0
    scale = np.ones((f, j, 3))
    for k, name in enumerate(table.joint_names):
        pb = arm.pose.bones.get(name)
        base = f'pose.bones["{bpy.utils.escape_identifier(name)}"]'
        for i in range(3):
            loc[:, k, i] = anim.sample(anim.find(curves, base + ".location", i), frames, 0.0)
            scale[:, k, i] = anim.sample(anim.find(curves, base + ".scale", i), frames, 1.0)
        mode = pb.rotation_mode if pb is not None else "QUATERNION"
        if mode == "QUATERNION":
            for i in range(4):
                quat[:, k, i] = anim.sample(
                    anim.find(curves, base + ".rotation_quaternion", i),
                    frames,
                    1.0 if i == 0 else 0.0,
                )
        elif mode != "AXIS_ANGLE":
            e = np.stack(
                [
                    anim.sample(anim.find(curves, base + ".rotation_euler", i), frames, 0.0)
                    for i in range(3)
                ],
                axis=1,
            )
            quat[:, k] = [tuple(Euler(row, mode).to_quaternion()) for row in e]
    t, q, s = axes.locals_from_basis(
        np.asarray(rig.rest_translations), np.asarray(rig.rest_rotations), loc, quat, scale
    )
    return caudal.Clip(
        action.name, float(fps), t.astype(np.float32), q.astype(np.float32), s.astype(np.float32)
    )


def write_clip(arm, clip, rig, action, frame_start: float = 0.0) -> None:
    """A caudal Clip (local TRS on ``rig``'s joints, which are the armature's
    bones) written into ``action`` as location, quaternion and scale keys,
    one key per clip frame."""
    from . import anim

    fps = bpy.context.scene.render.fps / bpy.context.scene.render.fps_base
    frames = frame_start + np.asarray(clip.times, dtype=np.float64) * fps
    loc, quat = axes.basis_from_locals(
        np.asarray(rig.rest_translations),
        np.asarray(rig.rest_rotations),
        np.asarray(clip.translations),
        np.asarray(clip.rotations),
    )
    scale = np.asarray(clip.scales, dtype=np.float64)
    curves = anim.fcurves(action, anim.slot_for(arm, action), create=True)
    for k, name in enumerate(rig.joint_names):
        base = f'pose.bones["{bpy.utils.escape_identifier(name)}"]'
        for i in range(3):
            anim.write_curve(curves, base + ".location", i, frames, loc[:, k, i], group=name)
            anim.write_curve(curves, base + ".scale", i, frames, scale[:, k, i], group=name)
        for i in range(4):
            anim.write_curve(
                curves, base + ".rotation_quaternion", i, frames, quat[:, k, i], group=name
            )
        pb = arm.pose.bones.get(name)
        if pb is not None:
            pb.rotation_mode = "QUATERNION"


def write_vertex_colours(table: RigTable, name: str, rgb: np.ndarray) -> None:
    """Per-vertex colours (N, 3) of the table as a point colour attribute on
    each mesh (replaced if it exists)."""
    for sl in table.meshes:
        me = bpy.data.objects[sl.name].data
        old = me.color_attributes.get(name)
        if old is not None:
            me.color_attributes.remove(old)
        attr = me.color_attributes.new(name, "FLOAT_COLOR", "POINT")
        rgba = np.ones((sl.count, 4), dtype=np.float32)
        rgba[:, :3] = rgb[sl.start : sl.start + sl.count]
        attr.data.foreach_set("color", rgba.reshape(-1))
