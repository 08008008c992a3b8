"""Transfer error heat map toggle (filled in with the solve binding)."""


def show(settings, context) -> None:
    pass
