"""``assert_transfer_quality``: an artist clip carried onto another rig by
the surface solve (SPEC X) keeps at least a given share of the surface's
motion (transfer quality, X5)."""

from __future__ import annotations

import caudal
from caudal.testing.subject import ClipLike, ModelLike, clip_name, heaviest_joint, label_of, load


def assert_transfer_quality(
    source: ModelLike,
    target: ModelLike,
    clip: ClipLike,
    at_least: float = 0.9,
    *,
    mode: str = "rigid",
    source_character: int = 0,
    target_character: int = 0,
) -> None:
    """Fails when ``caudal.transfer_clip`` of ``clip`` (a name in
    ``source``, or a Clip for its rig) onto ``target``'s rig reaches a
    transfer quality below ``at_least`` (a share: 0.9 = 90%)."""
    __tracebackhide__ = True
    src, tgt = load(source), load(target)
    s, t = src.characters[source_character], tgt.characters[target_character]
    motion = s.clip(clip) if isinstance(clip, str) else clip
    _, report = caudal.transfer_clip(s.rig, motion, t.rig, mode=mode)
    quality = float(report["quality"])
    if quality >= at_least:
        return
    frame = int(report["worst_frame"])
    vertex = int(report["worst_vertex"])
    raise AssertionError(
        f"clip {clip_name(clip)!r} from {label_of(src)} onto {label_of(tgt)}: transfer quality {100 * quality:.1f}% "
        f"against at least {100 * at_least:.1f}%; worst: vertex {vertex} (weighted most to {heaviest_joint(t.rig, vertex)}) "
        f"at t={float(motion.times[frame]):.3f} s, {100 * float(report['worst_error']):.2f}% of the diagonal "
        f"off the artist's surface (mean {100 * float(report['mean_error']):.2f}%)"
    )
