"""Test helper: hostile variants of a real file (the Khronos Fox), made by
editing its JSON, and a way to run code that might abort the interpreter in
a child process under an address-space limit."""

from __future__ import annotations

import copy
import json
import os
import resource
import struct
import subprocess
import sys
from pathlib import Path
from typing import Any

from conftest import asset
from glb_merge import split_glb

FOUR_GIB = 4 << 30


def fox() -> tuple[dict[str, Any], bytes]:
    """The Fox's JSON (a fresh copy) and binary chunk."""
    doc, bin_ = split_glb(asset("fox/Fox.glb").read_bytes())
    return copy.deepcopy(doc), bin_


def glb_bytes(doc: dict[str, Any], bin_: bytes, describe_chunk: bool = True) -> bytes:
    """A GLB of `doc` and `bin_`. With `describe_chunk` buffer 0 is set to
    the chunk's length; without, `doc["buffers"]` is written as given (a
    lie about the chunk included)."""
    doc = copy.deepcopy(doc)
    bin_ = bin_ + b"\0" * (-len(bin_) % 4)
    if describe_chunk:
        doc["buffers"] = [{"byteLength": len(bin_)}]
    js = json.dumps(doc).encode()
    js += b" " * (-len(js) % 4)
    total = 12 + 8 + len(js) + 8 + len(bin_)
    return b"glTF" + struct.pack("<II", 2, total) + struct.pack("<I", len(js)) + b"JSON" + js + struct.pack("<I", len(bin_)) + b"BIN\0" + bin_


def write_glb(path: Path, doc: dict[str, Any], bin_: bytes, describe_chunk: bool = True) -> Path:
    path.write_bytes(glb_bytes(doc, bin_, describe_chunk))
    return path


def write_gltf(folder: Path, doc: dict[str, Any], bin_: bytes, uri: str, bin_name: str | None = "fox.bin", name: str = "fox.gltf") -> Path:
    """A .gltf in `folder` whose buffer 0 is `uri`; the binary written as
    `folder/bin_name` (unless None)."""
    folder.mkdir(parents=True, exist_ok=True)
    d = copy.deepcopy(doc)
    d["buffers"] = [{"uri": uri, "byteLength": len(bin_)}]
    if bin_name is not None:
        target = folder / bin_name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(bin_)
    p = folder / name
    p.write_text(json.dumps(d))
    return p


def limit_address_space() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (FOUR_GIB, FOUR_GIB))


def run_isolated(code: str, timeout: float = 60.0) -> subprocess.CompletedProcess[str]:
    """Runs `code` in a fresh interpreter (caudal importable, the tests'
    helpers on the path) under a 4 GiB address-space limit, so that an
    abort or a runaway allocation fails the test instead of the run."""
    here = Path(__file__).resolve().parent
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(here), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=timeout,
        preexec_fn=limit_address_space,
        env=env,
    )
