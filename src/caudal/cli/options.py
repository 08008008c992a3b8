"""The options several commands share: the output file (``tail``, ``solve``)
and the repair options (``tail``, ``batch``): what to grow and how to bake it. ``caudal.pipeline.RepairSettings.from_args`` reads them
back, so one list here keeps the two commands' flags the same; ``report``
takes the growth and spring options, to measure the repair they make."""

from __future__ import annotations

from typing import Any

from caudal.cli.paths import gltf_output


def add_output(p: Any, help: str) -> None:
    """The required ``-o/--out`` option: a .glb or .gltf path to write."""
    p.add_argument("-o", "--out", required=True, type=gltf_output, help=help)


def add_repair_options(p: Any) -> None:
    """Adds the growth options (--rigid ... --joint-blend, and
    --merge-fingers) and the bake options (--bake, --clips, --spring, --loop)
    to the argparse parser ``p``."""
    add_growth_options(p)
    p.add_argument(
        "--merge-fingers",
        action="store_true",
        help="move the finger joints' skin weights onto the hands before growing (the finger joints stay, weightless)",
    )
    p.add_argument(
        "--bake",
        action="store_true",
        help="simulate the clips and write the tail rotations into each as loop-closed keys",
    )
    p.add_argument(
        "--clips",
        help="comma-separated clip names to bake (and, in caudal batch, measure; default: every clip)",
    )
    add_spring_option(p, "the bake and the report")
    p.add_argument(
        "--loop",
        action="append",
        default=[],
        metavar="CLIP=MODE",
        help="with --bake: auto, loop or once for one clip, repeatable (default auto: first and last pose equal)",
    )


def add_spring_option(p: Any, what: str) -> None:
    """The repeatable ``--spring NAME=VALUE`` option, for ``what``."""
    p.add_argument(
        "--spring",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help=f"a spring parameter for {what}, repeatable (e.g. carry_deg=40, stop_deg=25, bend_capacity=0, ground=off)",
    )


def add_growth_options(p: Any) -> None:
    """What ``caudal.grow_chains`` grows with (``caudal.cli.tail.grow_keywords``
    reads them back): ``tail`` and ``batch`` repair with them, ``report``
    measures the repair they make."""
    p.add_argument(
        "--rigid",
        action="store_true",
        help="bind each tail rigidly to the joint it hangs from (the pelvis, or the trunk joint carrying the rump when the pelvis carries no skin) instead of growing a chain",
    )
    p.add_argument(
        "--broad",
        choices=["untouched", "rigid"],
        default="untouched",
        help="broad trunk parts (capes, skirts): keep the rigger's weights (default) or bind them to one bone",
    )
    p.add_argument(
        "--pelvis",
        metavar="JOINT",
        help="the pelvis joint, for the character whose skeleton has it (default: where the hind legs and the spine meet); chains hang from it and the spring reads the body's facing from it",
    )
    p.add_argument("--min-bones", type=int, help="fewest bones a chain gets (default 3)")
    p.add_argument("--max-bones", type=int, help="most bones a chain gets (default 8)")
    p.add_argument(
        "--segment-thickness",
        type=float,
        help="no bone shorter than this many times the tail's thickness (default 1.25; 0 = one bone per tenth of the height)",
    )
    p.add_argument(
        "--handover-radii",
        type=float,
        help="width of the band at a tail's root where its weights go over from the pelvis to the chain's, in root radii (default 2: the root's thickness, at most the first bone; 0 = off)",
    )
    p.add_argument(
        "--joint-blend",
        type=float,
        help="share of a segment each side of a joint over which neighbouring bones blend (default 0.5; the article's 0.25 bends low-poly tails in folds)",
    )
