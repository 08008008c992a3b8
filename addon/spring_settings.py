"""The tail spring's settings on an armature: which of caudal's spring
parameters the panel offers, under the core's own keyword names, with the
core's defaults (``caudal.spring_defaults()``, SPEC S1-S8). Only what a
panel needs beyond the core lives here: label, tooltip, slider range.
bpy-free; ``properties`` turns these rows into Blender properties."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SpringField:
    """One spring parameter as the panel shows it."""

    name: str  # the core's keyword (TailSpring, bake(spring=...))
    label: str
    description: str
    min: float | None = None
    max: float | None = None
    soft_max: float | None = None
    subtype: str = "NONE"


FIELDS = (
    SpringField(
        "root_frequency",
        "Frequency",
        "Root link frequency in Hz (the tip's is lower, by the core's tip_frequency_ratio)",
        min=0.05,
        soft_max=5.0,
    ),
    SpringField(
        "damping_ratio", "Damping", "Damping ratio ζ (1 = critically damped)", min=0.0, soft_max=2.0
    ),
    SpringField(
        "gravity",
        "Gravity",
        "Downward pull in m/s² for a character of 1.91 m, scaled with the model's height (a tail has muscles: not 9.8)",
        min=0.0,
        soft_max=20.0,
    ),
    SpringField(
        "carry_deg",
        "Carry",
        "Target elevation of the tail above straight down, in degrees: a tail modelled lower is lifted about the hips' side axis, spread over its joints; a level or curled one is left as modelled",
        min=-180.0,
        max=180.0,
    ),
    SpringField(
        "rest_curve",
        "Rest Curve",
        "0 = centred rest arc, 1 = keep the modelled side curvature",
        min=0.0,
        max=1.0,
        subtype="FACTOR",
    ),
    SpringField(
        "coupling_rate",
        "Coupling",
        "Bend coupling rate between neighbouring links, 1/s (0 = off)",
        min=0.0,
        soft_max=60.0,
    ),
    SpringField(
        "stop_deg",
        "Bend Limit",
        "Elastic stop: largest bend beyond the rest direction, in degrees",
        min=0.5,
        max=180.0,
    ),
    SpringField(
        "bend_capacity",
        "Bend Capacity",
        "A tail whose bones are shorter than this many times its skin's thickness gets its carry and bend limit scaled down in proportion, so a stub does not tear (0 = off)",
        min=0.0,
        soft_max=2.0,
    ),
    SpringField(
        "ground",
        "Floor",
        "Ground contact: the tail slides on the floor the character stands on (along its ground when the file is pitched)",
    ),
    SpringField(
        "floor_height",
        "Floor Height",
        "Floor height in metres for a character of 1.91 m, scaled with the model's height",
    ),
)

NAMES = tuple(f.name for f in FIELDS)
"""The core keywords the armature stores, in panel order."""


def defaults() -> dict:
    """The core's default for each field (bool for switches, float else)."""
    import caudal

    core = caudal.spring_defaults()
    return {name: core[name] for name in NAMES}


def spring_kwargs(settings) -> dict:
    """An armature's spring settings (anything with the fields as
    attributes) as ``caudal.TailSpring`` keywords, with the pelvis the
    artist named (``pelvis_bone``, if any) as the spring's roles: the spring
    reads the body's facing from the pelvis the chain was grown under."""
    out = {name: type(default)(getattr(settings, name)) for name, default in defaults().items()}
    pelvis = getattr(settings, "pelvis_bone", "")
    if pelvis:
        out["roles"] = {"pelvis": pelvis}
    return out
