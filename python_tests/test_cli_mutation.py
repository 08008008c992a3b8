"""A short mutation run of the command line over the repository's assets
(issue 14; the long run is ``benches/mutate_cli.py``, figures in docs/gltf-io.md):
no panic, abort, hang or traceback, no partial file, every output reloads,
and no output holds bytes from outside its input's folder."""

from __future__ import annotations

import random
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

from cli_mutation import BROKEN, make_variant, prepare_work, run_variant

VARIANTS = 26  # two of each seed


def test_mutated_assets_through_the_cli_break_no_rule(tmp_path):
    prepare_work(tmp_path)
    rng = random.Random(1414)
    variants = [make_variant(i, rng) for i in range(VARIANTS)]
    with ThreadPoolExecutor(2) as pool:
        outcomes = list(pool.map(lambda v: run_variant(v, tmp_path), variants))
    counts = Counter(o.verdict for o in outcomes)
    print(dict(counts))
    broken = [
        f"#{o.variant.index} {o.variant.seed} {o.variant.mutations} {o.variant.command[0]}: {o.verdict}: {o.detail}"
        for o in outcomes
        if o.verdict in BROKEN
    ]
    assert not broken, "\n".join(broken)
    assert counts["refused"] > 0 and counts["ok-written"] + counts["ok-info"] > 0
