"""Shared fixtures: the repository's assets (assets/, see MANIFEST.json), the glTF validator, Blender's bpy."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

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


def import_bpy():
    """bpy, or a skip (a failure when CAUDAL_REQUIRE_BPY=1, as in CI)."""
    try:
        import bpy  # noqa: F401
    except ImportError as e:
        if os.environ.get("CAUDAL_REQUIRE_BPY") == "1":
            pytest.fail(f"bpy is required here: {e}")
        pytest.skip("bpy (Blender as a Python module) is not installed")
    return bpy
