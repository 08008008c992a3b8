"""Live tail preview during playback (filled in with the spring binding)."""

from __future__ import annotations


def settings_changed(settings) -> None:
    pass


def register() -> None:
    pass


def unregister() -> None:
    pass
