"""Shared fixtures: the repository's assets (assets/, see MANIFEST.json), the glTF validator, Blender's bpy
and other optional modules, the command line run as a user runs it."""

from __future__ import annotations

import importlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
ASSETS = ROOT / "assets"
VALIDATOR_JS = Path(__file__).resolve().parent / "validate_gltf.js"


def asset(rel: str) -> Path:
    p = ASSETS / rel
    if not p.exists():
        pytest.fail(f"asset missing: {p}")
    return p


def validator_dir() -> Path | None:
    d = os.environ.get("CAUDAL_GLTF_VALIDATOR_DIR")
    if d and (Path(d) / "node_modules" / "gltf-validator").exists():
        return Path(d)
    return None


def validate_gltf(path: Path) -> dict:
    """Runs the Khronos glTF validator (npm gltf-validator) on one file."""
    d = validator_dir()
    node = shutil.which("node")
    if d is None or node is None:
        if os.environ.get("CI"):
            pytest.fail("the glTF validator is required in CI (set CAUDAL_GLTF_VALIDATOR_DIR)")
        pytest.skip(
            "gltf-validator not installed (npm install gltf-validator; set CAUDAL_GLTF_VALIDATOR_DIR)"
        )
    out = subprocess.run(
        [node, str(VALIDATOR_JS), str(path)],
        capture_output=True,
        text=True,
        env={**os.environ, "NODE_PATH": str(d / "node_modules")},
        timeout=120,
    )
    if out.returncode not in (0, 1):
        raise RuntimeError(out.stderr)
    return json.loads(out.stdout)


def import_or_skip(name: str, required_by: str, missing: str) -> ModuleType:
    """Module ``name``, or a skip saying ``missing`` (a failure when the
    environment variable ``required_by`` is 1, as in CI)."""
    try:
        return importlib.import_module(name)
    except ImportError as e:
        if os.environ.get(required_by) == "1":
            pytest.fail(f"{name} is required here: {e}")
        pytest.skip(missing)


def import_bpy() -> ModuleType:
    """bpy, or a skip (a failure when CAUDAL_REQUIRE_BPY=1, as in CI)."""
    return import_or_skip(
        "bpy", "CAUDAL_REQUIRE_BPY", "bpy (Blender as a Python module) is not installed"
    )


def run_cli(*args: str | os.PathLike[str]) -> subprocess.CompletedProcess[str]:
    """``caudal ARGS...`` in a child interpreter, its stdout and stderr captured as text."""
    return subprocess.run(
        [sys.executable, "-m", "caudal.cli", *map(str, args)], capture_output=True, text=True
    )


def rotation_track(animation: str, joint: str, times, values) -> dict:
    """One ``Model.write(tracks=...)`` entry: ``joint``'s rotation keys
    (``values`` xyzw at ``times`` seconds) in animation ``animation``."""
    return {
        "animation": animation,
        "joint": joint,
        "path": "rotation",
        "times": times,
        "values": values,
    }
