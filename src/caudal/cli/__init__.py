"""The ``caudal`` command line. Each subcommand lives in its own module with
``add_parser(subparsers)`` and ``run(args) -> int``; every one takes
``--json`` for machine-readable output. Errors print one line and exit 2."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from caudal import CaudalError, __version__
from caudal.cli import batch, demo, info, report, solve, tail

COMMANDS = [info, demo, tail, report, solve, batch]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="caudal",
        description="Gives tails the bones auto-riggers forgot; carries artists' animation onto any auto-rig.",
    )
    parser.add_argument("--version", action="version", version=f"caudal {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    for command in COMMANDS:
        command.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Runs one command. Every failure is one line on stderr and exit code
    2: refused input (a CaudalError, a panic caught in the core included)
    and I/O errors as they are; anything else is a caudal bug, reported as
    an internal error (``CAUDAL_TRACEBACK=1`` shows its traceback)."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.run(args))
    except BrokenPipeError:
        # The reader went away (`caudal info X | head`): stop quietly, and
        # keep Python from complaining when it flushes stdout at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except (CaudalError, OSError) as e:
        print(f"caudal {args.command}: {one_line(e)}", file=sys.stderr)
        return 2
    except Exception as e:
        if os.environ.get("CAUDAL_TRACEBACK") == "1":
            raise
        print(
            f"caudal {args.command}: internal error (a caudal bug; please report it): {type(e).__name__}: {one_line(e)}",
            file=sys.stderr,
        )
        return 2


def one_line(e: BaseException) -> str:
    return " ".join(str(e).split())


if __name__ == "__main__":
    sys.exit(main())
