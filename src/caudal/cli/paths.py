"""Command-line checks on file arguments, run by argparse before any work."""

from __future__ import annotations

import argparse
from pathlib import Path

GLTF_SUFFIXES = (".glb", ".gltf")
"""What caudal writes: binary glTF, or JSON glTF with its buffer embedded."""


def gltf_output(text: str) -> str:
    """An output path for a glTF file: the suffix decides the format, so any
    other suffix is a mistake (a GLB written to out.txt helps nobody)."""
    suffix = Path(text).suffix
    if suffix.lower() not in GLTF_SUFFIXES:
        got = f"{suffix!r}" if suffix else "no extension"
        raise argparse.ArgumentTypeError(
            f"{text!r}: the output must end in .glb or .gltf (got {got})"
        )
    return text
