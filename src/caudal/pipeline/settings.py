"""What a batch does to each file, as one value: the options of ``caudal
tail`` (chain shape, bake, spring, loop modes) and of ``caudal report``
(times per clip). The command line builds it from its flags with the same
parsers ``caudal tail`` uses; a manifest row overrides it field by field;
its digest, with the input's bytes, decides whether ``--resume`` may skip a
file."""

from __future__ import annotations

import argparse
import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

import caudal
from caudal.cli.tail import pairs, spring_value

BROAD_CHOICES = ("untouched", "rigid")
LOOP_MODES = ("auto", "loop", "once")
GROWTH_FIELDS = (
    "rigid",
    "broad",
    "merge_fingers",
    "pelvis",
    "min_bones",
    "max_bones",
    "segment_thickness",
    "joint_blend",
    "handover_radii",
)
"""The settings that shape the grown chains: the options ``caudal tail``
reads, under the same names on the command line and in RepairSettings."""


@dataclass(frozen=True)
class RepairSettings:
    """The repair of one file. ``None`` means the core's default (see
    ``caudal tail --help``). ``spring`` and ``loops`` are per-name
    overrides: a manifest row adds to them rather than replacing them."""

    rigid: bool = False
    broad: str = "untouched"
    merge_fingers: bool = False
    """Finger joints' weight onto the hands before growing (``caudal tail --merge-fingers``)."""
    pelvis: str | None = None
    """The pelvis joint of the character that has it (``caudal tail --pelvis``;
    None: found from the skeleton's structure)."""
    min_bones: int | None = None
    max_bones: int | None = None
    segment_thickness: float | None = None
    joint_blend: float | None = None
    handover_radii: float | None = None
    bake: bool = False
    clips: tuple[str, ...] | None = None
    """Clips to bake and to measure (default: every clip of the file)."""
    spring: Mapping[str, float | bool] = field(default_factory=dict)
    loops: Mapping[str, str | bool] = field(default_factory=dict)
    samples: int = 24
    """Evenly spaced times per clip of the stretch report (``caudal
    report --samples``); 0 skips the report."""

    def __post_init__(self) -> None:
        if self.broad not in BROAD_CHOICES:
            raise caudal.ParameterError(
                f"broad: {self.broad!r} is not one of {', '.join(BROAD_CHOICES)}"
            )
        if not isinstance(self.samples, int) or isinstance(self.samples, bool) or self.samples < 0:
            raise caudal.ParameterError(f"samples: {self.samples!r} is not a whole number >= 0")
        if self.clips is not None:
            clips = (self.clips,) if isinstance(self.clips, str) else tuple(self.clips)
            if not all(isinstance(c, str) and c for c in clips):
                raise caudal.ParameterError(f"clips: {self.clips!r} is not a list of clip names")
            object.__setattr__(self, "clips", clips)
        for name, value in self.loops.items():
            if not isinstance(value, bool) and value not in LOOP_MODES:
                raise caudal.ParameterError(
                    f"loops[{name!r}]: {value!r} is not one of {', '.join(LOOP_MODES)} (or a bool)"
                )
        # Copies: the caller's dicts may change after the settings were made.
        object.__setattr__(self, "spring", dict(self.spring))
        object.__setattr__(self, "loops", dict(self.loops))

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> RepairSettings:
        """The settings of a ``caudal batch`` command line (the flags of
        ``caudal tail``, parsed by the same functions)."""
        clips = tuple(c.strip() for c in args.clips.split(",") if c.strip()) if args.clips else None
        return cls(
            **{name: getattr(args, name) for name in GROWTH_FIELDS},
            bake=args.bake,
            clips=clips,
            spring={k: spring_value(v) for k, v in pairs("--spring", args.spring).items()},
            loops=dict(pairs("--loop", args.loop)),
            samples=args.samples,
        )

    def tail_args(self) -> argparse.Namespace:
        """The options ``caudal.cli.tail.repair`` reads: the batch grows
        chains with the very function ``caudal tail`` uses."""
        return argparse.Namespace(**{name: getattr(self, name) for name in GROWTH_FIELDS})

    def to_json(self) -> dict[str, Any]:
        """Every setting as plain JSON values (what a resumed run compares)."""
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        out["clips"] = list(self.clips) if self.clips is not None else None
        out["spring"] = dict(sorted(self.spring.items()))
        out["loops"] = dict(sorted(self.loops.items()))
        return out

    def digest(self) -> str:
        """sha256 of the canonical JSON of these settings and caudal's
        version: a new caudal may repair differently, so it redoes a file."""
        text = json.dumps(
            {"caudal": caudal.__version__, "settings": self.to_json()},
            sort_keys=True,
            separators=(",", ":"),
        )
        return hashlib.sha256(text.encode()).hexdigest()

    def with_overrides(self, row: Mapping[str, Any], where: str) -> RepairSettings:
        """These settings with a manifest row's values on top. Values may be
        text (CSV) or JSON types; empty cells and nulls leave a field
        unchanged; ``spring`` and ``loops`` merge name by name. ``where`` (file
        and line) starts every error message."""
        known = {f.name for f in fields(self)}
        changes: dict[str, Any] = {}
        for key, value in row.items():
            if key == "path" or value is None or value == "":
                continue
            if key not in known:
                raise caudal.ParameterError(
                    f"{where}: unknown column {key!r} (known: path, {', '.join(sorted(known))})"
                )
            try:
                changes[key] = _parse(key, value, getattr(self, key))
            except (ValueError, TypeError) as e:
                raise caudal.ParameterError(f"{where}: {key}: {e}") from None
        try:
            return replace(self, **changes)
        except caudal.ParameterError as e:
            raise caudal.ParameterError(f"{where}: {e}") from None


def _parse(key: str, value: Any, current: Any) -> Any:
    if key in ("rigid", "bake", "merge_fingers"):
        return _flag(value)
    if key in ("broad", "pelvis"):
        return str(value)
    if key in ("min_bones", "max_bones", "samples"):
        if isinstance(value, bool) or (isinstance(value, float) and not value.is_integer()):
            raise ValueError(f"{value!r} is not a whole number")
        return int(value)
    if key in ("segment_thickness", "joint_blend", "handover_radii"):
        if isinstance(value, bool):
            raise ValueError(f"{value!r} is not a number")
        return float(value)
    if key == "clips":
        names = value.replace(";", ",").split(",") if isinstance(value, str) else list(value)
        return tuple(str(n).strip() for n in names if str(n).strip())
    # spring, loops: a dict (JSON) or "NAME=VALUE" items separated by ';' or spaces (CSV).
    items = _named_items(key, value)
    if key == "spring":
        items = {
            k: (spring_value(v) if isinstance(v, str) else _spring_number(v))
            for k, v in items.items()
        }
    return {**current, **items}


def _flag(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("0", "false", "no", "off"):
        return False
    raise ValueError(f"{value!r} is not true/false")


def _spring_number(value: Any) -> float | bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return float(value)
    raise ValueError(f"{value!r} is not a number or on/off")


def _named_items(key: str, value: Any) -> dict[str, Any]:
    if isinstance(value, Mapping):
        return {str(k): v for k, v in value.items()}
    if isinstance(value, str):
        return dict(pairs(key, value.replace(";", " ").split()))
    raise ValueError(f"{value!r} is neither an object nor NAME=VALUE items")
