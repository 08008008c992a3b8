"""The ``caudal`` command line. Each subcommand lives in its own module with
``add_parser(subparsers)`` and ``run(args) -> int``; every one takes
``--json`` for machine-readable output."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from caudal import CaudalError
from caudal.cli import batch, demo, info, report, solve, tail

COMMANDS = [info, demo, tail, report, solve, batch]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="caudal",
        description="Gives tails the bones auto-riggers forgot; carries artists' animation onto any auto-rig.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    for command in COMMANDS:
        command.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.run(args))
    except (CaudalError, OSError) as e:
        print(f"caudal {args.command}: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
