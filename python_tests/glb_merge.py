"""Test helper: two GLB files side by side in one, as a scene with two
characters (disjoint skeletons, two skins) is exported. The Python twin of
rust_tests/merge.rs, so the Python tests make their own file."""

from __future__ import annotations

import json
import struct
from typing import Any


def split_glb(raw: bytes) -> tuple[dict[str, Any], bytes]:
    assert raw[:4] == b"glTF"
    jlen = struct.unpack_from("<I", raw, 12)[0]
    doc = json.loads(raw[20 : 20 + jlen])
    off = 20 + jlen
    bin_ = (
        raw[off + 8 : off + 8 + struct.unpack_from("<I", raw, off)[0]]
        if off + 8 <= len(raw)
        else b""
    )
    return doc, bin_


def glb(doc: dict[str, Any], bin_: bytes, describe_chunk: bool = True) -> bytes:
    """A GLB of ``doc`` and ``bin_`` (padded to 4 bytes). With
    ``describe_chunk`` ``doc``'s buffer 0 is set to the chunk's length (in
    place); without, ``doc["buffers"]`` is written as given."""
    bin_ = bin_ + b"\0" * (-len(bin_) % 4)
    if describe_chunk:
        doc["buffers"] = [{"byteLength": len(bin_)}]
    js = json.dumps(doc).encode()
    js += b" " * (-len(js) % 4)
    total = 12 + 8 + len(js) + 8 + len(bin_)
    return (
        b"glTF"
        + struct.pack("<II", 2, total)
        + struct.pack("<I", len(js))
        + b"JSON"
        + js
        + struct.pack("<I", len(bin_))
        + b"BIN\0"
        + bin_
    )


def merge_glbs(a: bytes, b: bytes, offset: tuple[float, float, float], wrapper: str) -> bytes:
    """`b`'s scene under a new node `wrapper` translated by `offset`, every
    index shifted past `a`'s; animations of one name merged into one."""
    da, bin_a = split_glb(a)
    db, bin_b = split_glb(b)
    n = {
        k: len(da.get(k, []))
        for k in [
            "nodes",
            "meshes",
            "skins",
            "accessors",
            "bufferViews",
            "materials",
            "textures",
            "images",
            "samplers",
        ]
    }
    base = len(bin_a) + (-len(bin_a) % 16)
    merged_bin = bin_a + b"\0" * (base - len(bin_a)) + bin_b

    def sh(o: dict[str, Any], key: str, by: str) -> None:
        if key in o:
            o[key] += n[by]

    for node in db.get("nodes", []):
        node["children"] = (
            [c + n["nodes"] for c in node.get("children", [])] or node.pop("children", None) or []
        )
        if not node["children"]:
            del node["children"]
        sh(node, "mesh", "meshes")
        sh(node, "skin", "skins")
    for skin in db.get("skins", []):
        skin["joints"] = [j + n["nodes"] for j in skin["joints"]]
        sh(skin, "skeleton", "nodes")
        sh(skin, "inverseBindMatrices", "accessors")
    for mesh in db.get("meshes", []):
        for p in mesh["primitives"]:
            p["attributes"] = {k: v + n["accessors"] for k, v in p["attributes"].items()}
            sh(p, "indices", "accessors")
            sh(p, "material", "materials")
            if "targets" in p:
                p["targets"] = [{k: v + n["accessors"] for k, v in t.items()} for t in p["targets"]]
    for acc in db.get("accessors", []):
        sh(acc, "bufferView", "bufferViews")
        for part in ("indices", "values"):
            if "sparse" in acc:
                sh(acc["sparse"][part], "bufferView", "bufferViews")
    for v in db.get("bufferViews", []):
        v["buffer"] = 0
        v["byteOffset"] = v.get("byteOffset", 0) + base
    for t in db.get("textures", []):
        sh(t, "source", "images")
        sh(t, "sampler", "samplers")
    for im in db.get("images", []):
        sh(im, "bufferView", "bufferViews")

    def shift_textures(o: Any) -> None:
        if isinstance(o, dict):
            if "index" in o:  # in a material only a textureInfo has an index
                o["index"] += n["textures"]
            for v in o.values():
                shift_textures(v)

    for m in db.get("materials", []):
        shift_textures(m)
    for anim in db.get("animations", []):
        for s in anim["samplers"]:
            s["input"] += n["accessors"]
            s["output"] += n["accessors"]
        for c in anim["channels"]:
            c["target"]["node"] += n["nodes"]
    roots_b = [r + n["nodes"] for r in db["scenes"][db.get("scene", 0)]["nodes"]]
    for key in n:
        if db.get(key):
            da.setdefault(key, []).extend(db[key])
    for anim in db.get("animations", []):
        same = next(
            (
                x
                for x in da.setdefault("animations", [])
                if x.get("name") is not None and x.get("name") == anim.get("name")
            ),
            None,
        )
        if same is None:
            da["animations"].append(anim)
            continue
        k = len(same["samplers"])
        same["samplers"].extend(anim["samplers"])
        same["channels"].extend({**c, "sampler": c["sampler"] + k} for c in anim["channels"])
    da["nodes"].append({"name": wrapper, "translation": list(offset), "children": roots_b})
    da["scenes"][da.get("scene", 0)]["nodes"].append(len(da["nodes"]) - 1)
    return glb(da, merged_bin)
