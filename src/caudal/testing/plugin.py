"""The pytest plugin (entry point ``pytest11``, loaded wherever caudal is
installed): fixtures that load models, clips and truth files, paths taken
relative to the test file, each file read once per session."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import caudal

_MODELS: dict[Path, caudal.Model] = {}


def _here(request: pytest.FixtureRequest) -> Path:
    return Path(str(request.path)).parent


def _resolve(base: Path, path: str | Path) -> Path:
    p = Path(path)
    return (p if p.is_absolute() else base / p).resolve()


@pytest.fixture
def caudal_model(request: pytest.FixtureRequest) -> Callable[[str | Path], caudal.Model]:
    """``caudal_model(path)``: a loaded file (relative to the test file)."""
    base = _here(request)

    def load(path: str | Path) -> caudal.Model:
        p = _resolve(base, path)
        if p not in _MODELS:
            _MODELS[p] = caudal.load(p)
        return _MODELS[p]

    return load


@pytest.fixture
def caudal_clip() -> Callable[..., caudal.Clip]:
    """``caudal_clip(model, name, rate=None, character=0)``: one character's clip."""

    def clip(
        model: caudal.Model, name: str, rate: float | None = None, character: int = 0
    ) -> caudal.Clip:
        return model.characters[character].clip(name, rate)

    return clip


@pytest.fixture
def caudal_truth(request: pytest.FixtureRequest) -> Callable[[str | Path], dict[str, Any]]:
    """``caudal_truth(path)``: a truth file (relative to the test file) as a dict."""
    base = _here(request)

    def read(path: str | Path) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(_resolve(base, path).read_text())
        return data

    return read
