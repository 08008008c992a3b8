"""What the assertions look at: a model as delivered (a path or a loaded
``caudal.Model``), its repair as ``caudal batch`` writes it (the same work
function, the file read back as a user would), its clips sampled at the
same times before and after."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

import caudal
from caudal.pipeline.settings import RepairSettings
from caudal.pipeline.work import repair_model

ModelLike = str | os.PathLike[str] | caudal.Model
ClipLike = str | caudal.Clip

DEFAULT_SAMPLES = 24
"""Evenly spaced times per clip, as the stretch report (SPEC M1)."""


@dataclass(frozen=True)
class Repair:
    """A model and its repair, character by character in the same order."""

    original: caudal.Model
    repaired: caudal.Model
    label: str
    """How messages name the file."""


_CACHE: dict[tuple[Any, str], Repair] = {}


def load(model: ModelLike) -> caudal.Model:
    return model if isinstance(model, caudal.Model) else caudal.load(model)


def label_of(model: caudal.Model) -> str:
    return Path(model.path).name or model.path


def repair(
    model: ModelLike, settings: RepairSettings | None = None, repaired: ModelLike | None = None
) -> Repair:
    """The model and its repair: ``repaired`` when given (a file some
    pipeline wrote), else caudal's own, baked into every clip, made once per
    model and settings in a test session."""
    original = load(model)
    if repaired is not None:
        return Repair(original, load(repaired), label_of(original))
    settings = settings or RepairSettings(bake=True, samples=0)
    key = (original.path if not isinstance(model, caudal.Model) else id(model), settings.digest())
    if key not in _CACHE:
        glb, _ = repair_model(original, settings)
        _CACHE[key] = Repair(
            original,
            caudal.load_bytes(glb, label=f"{original.path} (repaired)"),
            label_of(original),
        )
    return _CACHE[key]


def characters(model: caudal.Model, character: int | None) -> list[int]:
    count = len(model.characters)
    if character is None:
        return list(range(count))
    if not 0 <= character < count:
        raise caudal.ParameterError(f"character: the file has {count} character(s), no {character}")
    return [character]


def compared(
    model: ModelLike,
    settings: RepairSettings | None,
    repaired: ModelLike | None,
    character: int | None,
) -> list[tuple[str, caudal.Character, caudal.Character]]:
    """Each character an assertion checks (``character``, or every one):
    how messages name it, and the character as delivered and as repaired
    (see ``repair``, made here, before the caller's loop starts)."""
    subject = repair(model, settings, repaired)
    return [
        (
            who(subject.label, subject.original, c),
            subject.original.characters[c],
            subject.repaired.characters[c],
        )
        for c in characters(subject.original, character)
    ]


def who(label: str, model: caudal.Model, c: int) -> str:
    """A file and, when it holds several, which character."""
    if len(model.characters) == 1:
        return label
    return f"{label} character {c} {model.characters[c].name!r}"


def clip_name(clip: ClipLike) -> str:
    return clip if isinstance(clip, str) else clip.name


def sample_frames(frame_count: int, samples: int) -> list[int]:
    """``samples`` evenly spaced frames, first and last included."""
    return sorted(
        {int(round(f)) for f in np.linspace(0, frame_count - 1, max(1, min(samples, frame_count)))}
    )


def clip_pair(
    before: caudal.Character, after: caudal.Character, name: str, samples: int
) -> tuple[caudal.Clip, caudal.Clip, list[int]]:
    """Clip ``name`` of a character as delivered and as repaired (keyed at
    the delivered rate), and ``samples`` evenly spaced frames both have."""
    clip_before = before.clip(name)
    clip_after = after.clip(name, rate=clip_before.rate)
    frames = sample_frames(min(clip_before.frame_count, clip_after.frame_count), samples)
    return clip_before, clip_after, frames


def heaviest_joint(rig: caudal.Rig, vertex: int) -> str:
    """The joint a vertex is weighted to most: where a user looks for it."""
    k = int(np.argmax(rig.skin_weights[vertex]))
    return rig.joint_names[int(rig.skin_joints[vertex, k])]


def unique_edges(triangles: npt.NDArray[np.uint32]) -> npt.NDArray[np.int64]:
    t = np.asarray(triangles, dtype=np.int64)
    e = np.concatenate([t[:, [0, 1]], t[:, [1, 2]], t[:, [2, 0]]])
    e.sort(axis=1)
    e = e[e[:, 0] != e[:, 1]]
    edges: npt.NDArray[np.int64] = np.unique(e, axis=0)
    return edges


def grown_joints(before: caudal.Rig, after: caudal.Rig) -> list[int]:
    """The joints the repair added (a repaired rig keeps the delivered
    joints, in order, and appends its chains)."""
    if after.joint_names[: before.joint_count] != before.joint_names:
        raise caudal.ParameterError(
            "repaired: its joints do not start with the delivered file's (not a repair of this file?)"
        )
    return list(range(before.joint_count, after.joint_count))


def chain_share(rig: caudal.Rig, joints: list[int]) -> npt.NDArray[np.float32]:
    """Each vertex's summed weight on ``joints``."""
    on = np.isin(rig.skin_joints, np.asarray(joints, dtype=np.int64))
    share: npt.NDArray[np.float32] = (
        np.where(on, rig.skin_weights, 0.0).sum(axis=1).astype(np.float32)
    )
    return share
