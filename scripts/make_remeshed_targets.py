#!/usr/bin/env python3
"""Re-meshed transfer targets from the repository's own animals, made with
Blender's ``bpy`` (run: ``python scripts/make_remeshed_targets.py`` in a venv
with ``bpy==5.0.1``; ``--check`` rebuilds into a temporary folder and compares
vertex counts and the joint map with the committed files instead).

What an auto-rigger delivers for an artist's character is a rig on *another*
mesh: the same animal re-meshed, its weights the rigger's, its bones named its
own way and no clips. This script makes that, three ways per animal:

* ``subdivided``: one Catmull-Clark level (the surface smooths and shrinks a
  little between the original vertices);
* ``decimated``: collapse decimation to half the faces;
* ``voxel``: voxel remesh (a new, uniform triangulation of the volume) at a
  voxel size of ``VOXEL_FRACTION`` of the model's diagonal.

On each: the artist's weights transferred from the original mesh (Blender's
data transfer, "nearest face interpolated": each new vertex takes the
weights at its closest point on the original surface), limited to four
influences and normalised (what glTF carries); every bone renamed
``bone_NNN`` (the hierarchy and bind pose are the artist's); every action
removed. Only positions, joints and weights are written (no normals, UVs or
materials: the files stay small).

Blender only does the mesh work. The source is read with the repository's
numpy glTF reader (python_tests/gltf_numpy.py) and the target written by
this script, with the source's node tree and inverse bind matrices: going
through Blender's glTF importer would move vertices (it re-poses the
Alpaca's mesh to the rest pose it guesses), and the target's bind space
would differ from the source's.

Because the weights came from the artist's rig, the exact answer of a
transfer onto these targets is known: the target mesh skinned by the
artist's own joints (``<Name>_<kind>.truth.json`` maps each ``bone_NNN`` back
to the artist's name). The tests score the solved clip against that.

Outputs go beside each source file (same folder, same licence) and into
``assets/MANIFEST.json`` with their sha256.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import struct
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
ASSETS = ROOT / "assets"
sys.path.insert(0, str(ROOT / "python_tests"))
from gltf_numpy import NumpyGltf  # noqa: E402  (the repository's independent glTF reader)

# (folder/file, short name used for outputs)
ANIMALS = [
    ("fox/Fox.glb", "Fox"),
    ("quaternius_wolf/Wolf.gltf", "Wolf"),
    ("quaternius_shiba_inu/ShibaInu.gltf", "ShibaInu"),
    ("quaternius_alpaca/Alpaca.gltf", "Alpaca"),
]
KINDS = ("subdivided", "decimated", "voxel")

# Collapse decimation keeps this share of the faces.
DECIMATE_RATIO = 0.5
# Voxel size of the remesh as a fraction of the model's bounding-box
# diagonal: fine enough to keep legs, ears and tail apart on these animals,
# coarse enough to keep each file a few hundred kilobytes.
VOXEL_FRACTION = 0.012
# Vertices closer than this fraction of the diagonal are one vertex.
WELD_FRACTION = 1e-6
# Influences per vertex after the transfer (glTF's JOINTS_0/WEIGHTS_0).
MAX_INFLUENCES = 4


def _bpy():
    try:
        import bpy  # noqa: F401
    except ImportError:
        sys.exit("bpy is required: pip install bpy==5.0.1 (Python 3.11, numpy<2)")
    import bpy

    return bpy


def read_source(path: Path):
    """Mesh-space positions, triangles, skin-local joints and weights of every
    skinned primitive, plus the glTF document and the skinned node."""
    g = NumpyGltf(path)
    doc = g.doc
    mesh_nodes = [i for i, n in enumerate(doc["nodes"]) if "mesh" in n and "skin" in n]
    skins = {doc["nodes"][i]["skin"] for i in mesh_nodes}
    if len(skins) != 1:
        raise ValueError(f"{path}: one skin expected, found {len(skins)}")
    pos, tris, joints, weights = [], [], [], []
    base = 0
    for ni in mesh_nodes:
        for prim in doc["meshes"][doc["nodes"][ni]["mesh"]]["primitives"]:
            p = g.accessor(prim["attributes"]["POSITION"]).astype(np.float64)
            t = (
                g.accessor(prim["indices"]).reshape(-1, 3).astype(np.int64)
                if "indices" in prim
                else np.arange(len(p)).reshape(-1, 3)
            )
            pos.append(p)
            tris.append(t + base)
            joints.append(g.accessor(prim["attributes"]["JOINTS_0"]).astype(np.int64))
            weights.append(g.accessor(prim["attributes"]["WEIGHTS_0"]).astype(np.float64))
            base += len(p)
    return (
        g,
        mesh_nodes[0],
        np.concatenate(pos),
        np.concatenate(tris),
        np.concatenate(joints),
        np.concatenate(weights),
    )


def _only_select(bpy, objs) -> None:
    bpy.ops.object.select_all(action="DESELECT")
    for o in objs:
        o.select_set(True)
    bpy.context.view_layer.objects.active = objs[0]


def _mesh_object(bpy, name: str, pos: np.ndarray, tris: np.ndarray):
    me = bpy.data.meshes.new(name)
    me.from_pydata(pos.tolist(), [], tris.tolist())
    me.validate()
    obj = bpy.data.objects.new(name, me)
    bpy.context.scene.collection.objects.link(obj)
    return obj


def remesh(pos, tris, joints, weights, bone_count: int, kind: str):
    """The re-meshed surface and its weights, transferred from the original
    (both in the source's mesh space: nothing is moved)."""
    bpy = _bpy()
    bpy.ops.wm.read_factory_settings(use_empty=True)
    source = _mesh_object(bpy, "source", pos, tris)
    groups = [source.vertex_groups.new(name=f"j{k:03d}") for k in range(bone_count)]
    for v in range(len(pos)):
        for j, w in zip(joints[v], weights[v], strict=False):
            if w > 0:
                groups[int(j)].add([v], float(w), "ADD")
    target = _mesh_object(bpy, "target", pos, tris)
    diag = float(np.linalg.norm(pos.max(axis=0) - pos.min(axis=0)))
    _only_select(bpy, [target])
    # Flat-shaded exports split every vertex per face (the Wolf: 3,994
    # vertices, 983 positions); weld first so the re-mesh sees one surface.
    bpy.ops.object.mode_set(mode="EDIT")
    bpy.ops.mesh.select_all(action="SELECT")
    bpy.ops.mesh.remove_doubles(threshold=WELD_FRACTION * diag)
    bpy.ops.object.mode_set(mode="OBJECT")
    if kind == "subdivided":
        mod = target.modifiers.new("subdivide", "SUBSURF")
        mod.subdivision_type = "CATMULL_CLARK"
        mod.levels = mod.render_levels = 1
    elif kind == "decimated":
        mod = target.modifiers.new("decimate", "DECIMATE")
        mod.decimate_type = "COLLAPSE"
        mod.ratio = DECIMATE_RATIO
    elif kind == "voxel":
        mod = target.modifiers.new("remesh", "REMESH")
        mod.mode = "VOXEL"
        mod.voxel_size = VOXEL_FRACTION * diag
    else:
        raise ValueError(kind)
    bpy.ops.object.modifier_apply(modifier=mod.name)
    bpy.ops.object.mode_set(mode="EDIT")
    bpy.ops.mesh.select_all(action="SELECT")
    bpy.ops.mesh.quads_convert_to_tris()
    bpy.ops.object.mode_set(mode="OBJECT")

    # Weights from the artist's mesh at each new vertex's closest surface point.
    for g in groups:
        target.vertex_groups.new(name=g.name)
    _only_select(bpy, [source, target])
    bpy.ops.object.data_transfer(
        use_reverse_transfer=False,
        data_type="VGROUP_WEIGHTS",
        vert_mapping="POLYINTERP_NEAREST",
        layers_select_src="ALL",
        layers_select_dst="NAME",
        use_object_transform=True,
    )
    me = target.data
    out_pos = np.array([v.co[:] for v in me.vertices], dtype=np.float64)
    out_tris = np.array([p.vertices[:] for p in me.polygons], dtype=np.int64)
    index = {g.index: int(g.name[1:]) for g in target.vertex_groups}
    out_j = np.zeros((len(out_pos), MAX_INFLUENCES), dtype=np.int64)
    out_w = np.zeros((len(out_pos), MAX_INFLUENCES), dtype=np.float64)
    for v in me.vertices:
        inf = sorted(((g.weight, index[g.group]) for g in v.groups if g.weight > 0), reverse=True)[
            :MAX_INFLUENCES
        ]
        if not inf:
            raise ValueError(f"vertex {v.index} received no weight")
        total = sum(w for w, _ in inf)
        for k, (w, j) in enumerate(inf):
            out_j[v.index, k] = j
            out_w[v.index, k] = w / total
    return out_pos, out_tris, out_j, out_w


def _pad4(b: bytes) -> bytes:
    return b + b"\0" * (-len(b) % 4)


def write_glb(
    g: NumpyGltf,
    mesh_node: int,
    out: Path,
    name: str,
    pos,
    tris,
    joints,
    weights,
    joint_names: dict[int, str],
) -> None:
    """The source's node tree and skin (inverse binds unchanged, joints
    renamed) with the new mesh on the source's skinned node; no animation,
    material or texture."""
    doc = g.doc
    skin = doc["skins"][doc["nodes"][mesh_node]["skin"]]
    nodes = []
    for i, n in enumerate(doc["nodes"]):
        keep = {
            k: v
            for k, v in n.items()
            if k in ("name", "children", "translation", "rotation", "scale", "matrix")
        }
        if i in joint_names:
            keep["name"] = joint_names[i]
        if i == mesh_node:
            keep.update(name=name, mesh=0, skin=0)
        nodes.append(keep)
    ibm = g.accessor(skin["inverseBindMatrices"]).astype(np.float32).tobytes()
    blobs = [
        (pos.astype(np.float32).tobytes(), 34962),
        (joints.astype(np.uint8 if len(skin["joints"]) < 256 else np.uint16).tobytes(), 34962),
        (weights.astype(np.float32).tobytes(), 34962),
        (tris.astype(np.uint16 if len(pos) < 65536 else np.uint32).tobytes(), 34963),
        (ibm, None),
    ]
    views, data = [], b""
    for blob, target in blobs:
        view = {"buffer": 0, "byteOffset": len(data), "byteLength": len(blob)}
        if target is not None:
            view["target"] = target
        views.append(view)
        data += _pad4(blob)
    n = len(pos)
    accessors = [
        {
            "bufferView": 0,
            "componentType": 5126,
            "count": n,
            "type": "VEC3",
            "min": pos.min(axis=0).astype(np.float32).tolist(),
            "max": pos.max(axis=0).astype(np.float32).tolist(),
        },
        {
            "bufferView": 1,
            "componentType": 5121 if len(skin["joints"]) < 256 else 5123,
            "count": n,
            "type": "VEC4",
        },
        {"bufferView": 2, "componentType": 5126, "count": n, "type": "VEC4"},
        {
            "bufferView": 3,
            "componentType": 5123 if n < 65536 else 5125,
            "count": int(tris.size),
            "type": "SCALAR",
        },
        {"bufferView": 4, "componentType": 5126, "count": len(skin["joints"]), "type": "MAT4"},
    ]
    gltf = {
        "asset": {
            "version": "2.0",
            "generator": f"caudal scripts/make_remeshed_targets.py (Blender {_bpy().app.version_string})",
        },
        "scene": doc.get("scene", 0),
        "scenes": [{k: v for k, v in s.items() if k in ("name", "nodes")} for s in doc["scenes"]],
        "nodes": nodes,
        "meshes": [
            {
                "name": name,
                "primitives": [
                    {
                        "attributes": {"POSITION": 0, "JOINTS_0": 1, "WEIGHTS_0": 2},
                        "indices": 3,
                        "mode": 4,
                    }
                ],
            }
        ],
        "skins": [
            {
                "joints": skin["joints"],
                "inverseBindMatrices": 4,
                **({"skeleton": skin["skeleton"]} if "skeleton" in skin else {}),
            }
        ],
        "accessors": accessors,
        "bufferViews": views,
        "buffers": [{"byteLength": len(data)}],
    }
    js = _pad4(json.dumps(gltf, separators=(",", ":")).encode()).replace(b"\0", b" ")
    body = (
        struct.pack("<II", len(js), 0x4E4F534A)
        + js
        + struct.pack("<II", len(data), 0x004E4942)
        + data
    )
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(struct.pack("<III", 0x46546C67, 2, 12 + len(body)) + body)


def make_target(src: Path, kind: str, out: Path, name: str) -> dict:
    """Builds one target file and returns its truth record."""
    g, mesh_node, pos, tris, joints, weights = read_source(src)
    skin = g.doc["skins"][g.doc["nodes"][mesh_node]["skin"]]
    new_pos, new_tris, new_j, new_w = remesh(pos, tris, joints, weights, len(skin["joints"]), kind)
    renamed = {node: f"bone_{k:03d}" for k, node in enumerate(skin["joints"])}
    write_glb(g, mesh_node, out, name, new_pos, new_tris, new_j, new_w, renamed)
    return {
        "source": src.relative_to(ASSETS).as_posix(),
        "kind": kind,
        "method": {
            "subdivided": "Catmull-Clark, 1 level",
            "decimated": f"collapse decimation, ratio {DECIMATE_RATIO}",
            "voxel": f"voxel remesh, voxel size {VOXEL_FRACTION} x diagonal",
        }[kind],
        "weights": f"Blender data transfer from the original, nearest face interpolated, {MAX_INFLUENCES} largest kept, normalised",
        "blender": _bpy().app.version_string,
        "vertices": int(len(new_pos)),
        "triangles": int(len(new_tris)),
        "joint_names": {
            new: g.doc["nodes"][node].get("name", f"node_{node}") for node, new in renamed.items()
        },
    }


def manifest_row(rel: str, source_row: dict, record: dict) -> dict:
    data = (ASSETS / rel).read_bytes()
    return {
        "path": rel,
        "source": f"derived from {source_row['source']}: {record['method']}, weights transferred from the original, bones renamed, clips removed (scripts/make_remeshed_targets.py)",
        "licence": source_row["licence"],
        "credit": source_row["credit"]
        + (
            " Modified: re-meshed, weights transferred, bones renamed."
            if "Modified" not in source_row["credit"]
            else ""
        ),
        "modified": True,
        "bytes": len(data),
        "sha256": hashlib.sha256(data).hexdigest(),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--check",
        action="store_true",
        help="rebuild into a temporary folder and compare with the committed files",
    )
    ap.add_argument(
        "--only", default=None, help="comma-separated animal names (Fox,Wolf,ShibaInu,Alpaca)"
    )
    args = ap.parse_args()
    only = set(args.only.split(",")) if args.only else None
    rows = json.loads((ASSETS / "MANIFEST.json").read_text(encoding="utf-8"))
    by_path = {r["path"]: r for r in rows}
    tmp = Path(tempfile.mkdtemp(prefix="caudal_targets_")) if args.check else None
    problems = []
    try:
        for rel, short in ANIMALS:
            if only and short not in only:
                continue
            folder = (ASSETS / rel).parent
            for kind in KINDS:
                name = f"{short}_{kind}"
                out = (tmp or folder) / f"{name}.glb"
                record = make_target(ASSETS / rel, kind, out, name)
                truth_path = (tmp or folder) / f"{name}.truth.json"
                truth_path.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
                print(
                    f"{name}: {record['vertices']} vertices, {record['triangles']} triangles, {out.stat().st_size} bytes"
                )
                if args.check:
                    committed = json.loads(
                        (folder / f"{name}.truth.json").read_text(encoding="utf-8")
                    )
                    for key in ("vertices", "triangles", "joint_names"):
                        if committed.get(key) != record.get(key):
                            problems.append(f"{name}: {key} differs")
                    continue
                base = folder.relative_to(ASSETS).as_posix()
                for f in (f"{name}.glb", f"{name}.truth.json"):
                    by_path[f"{base}/{f}"] = manifest_row(f"{base}/{f}", by_path[rel], record)
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
    if args.check:
        print("\n".join(problems) or "committed targets match")
        return 1 if problems else 0
    order = [r["path"] for r in rows]
    merged = [by_path[p] for p in order] + [by_path[p] for p in sorted(by_path) if p not in order]
    (ASSETS / "MANIFEST.json").write_text(
        json.dumps(merged, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
