"""Every example in README.md and docs/*.md runs as written, on the
repository's assets, and shows what it says it shows
(python_tests/readme_blocks.py has the conventions). Each page runs in its
own scratch folder, top to bottom. The extractor itself is tested on broken
snippets: a README test that cannot fail would prove nothing."""

from __future__ import annotations

import textwrap

import pytest
from conftest import ASSETS, ROOT
from readme_blocks import blocks, matches, run

README = (ROOT / "README.md").read_text(encoding="utf-8")

PAGES = ["README.md"] + sorted(
    f"docs/{p.name}" for p in (ROOT / "docs").glob("*.md") if blocks(p.read_text(encoding="utf-8"))
)
"""Every page with a python or sh block; a new page's blocks run too."""

SKIPPED = {
    "README.md": {
        "python3.11 -m venv .venv && .venv/bin/pip install . && .venv/bin/caudal demo --out demo-out",
        "bash .ci/run",
    },
    "docs/batch.md": {
        "caudal batch library/ -o repaired --bake --engine ray --address ray://head:10001",
    },
    "docs/gltf-io.md": {
        "cargo build --release --example fuzz_readers\n"
        "(ulimit -v 4194304; target/release/examples/fuzz_readers --seconds 3600 --seed 7)",
    },
}
"""The blocks marked as not run here, and why: installing the package (a
release build; its last command is run below from the installed wheel), the
whole CI (which runs this test), a Ray cluster's address (the Ray engine is
tested on a local Ray in test_batch_ray.py), and an hour's fuzzing (CI runs
the fuzzer for 60 s). The pages not listed here whose skips are counted in
SKIPPED_ELSEWHERE show synopses with placeholders, builds for other
platforms, an earlier API kept as a record, or a table that runs for minutes
(the corpus whole-mesh table: two of its seeds run in test_whole_mesh.py)."""

SKIPPED_ELSEWHERE = {
    "docs/bake-and-measure.md": 2,
    "docs/blender.md": 2,
    "docs/solve.md": 1,
    "docs/whole-mesh-stretch.md": 2,
}

WRITTEN = {
    "README.md": [
        "Fox_tail.glb",
        "Wolf_tail.glb",
        "Wolf_voxel_walk.glb",
        "tail.json",
        "solve.json",
    ],
    "docs/appendage.md": ["Fox_tail.glb", "tail.json"],
    "docs/bake.md": ["Fox_tail.glb", "Fox_walk.glb", "Wolf_tail.glb"],
    "docs/chain.md": ["Fox_tail.glb"],
    "docs/rig.md": ["Fox_tail.glb", "two_foxes_tail.glb"],
    "docs/solve.md": ["Wolf_voxel_walk.glb", "solve.json"],
}
"""What the examples of each page write."""


def report(page, failures):
    return "\n\n".join(f"{page}:{f['line']}: {f['code']}\n  {f['error']}" for f in failures)


def test_every_page_with_examples_is_run():
    assert "README.md" in PAGES and len(PAGES) >= 8, PAGES
    for page in list(SKIPPED) + list(SKIPPED_ELSEWHERE) + list(WRITTEN):
        assert page in PAGES, page


@pytest.mark.parametrize("page", PAGES)
def test_every_example_runs_and_shows_what_it_says(tmp_path, page):
    text = (ROOT / page).read_text(encoding="utf-8")
    found, failures = run(text, tmp_path, ASSETS)
    assert failures == [], report(page, failures)
    # Nothing is left out but the blocks named above.
    skipped = [b.code.strip() for b in found if b.skip]
    if page in SKIPPED_ELSEWHERE:
        assert len(skipped) == SKIPPED_ELSEWHERE[page], skipped
    else:
        assert set(skipped) == SKIPPED.get(page, set()), skipped
    # What the examples write is there.
    for name in WRITTEN.get(page, []):
        assert (tmp_path / name).stat().st_size > 0, name


def test_the_examples_check_values_not_only_run():
    texts = [(ROOT / page).read_text(encoding="utf-8") for page in PAGES]
    ran = [b for text in texts for b in blocks(text) if not b.skip]
    assert sum(b.lang == "python" for b in ran) >= 12 and sum(b.lang == "sh" for b in ran) >= 6
    # The documented values are checked, not only the calls run.
    assert sum(text.count("# ->") for text in texts) >= 40
    assert README.count("# ->") >= 8


def test_the_demo_of_the_first_command_runs(tmp_path):
    (setup,) = [b for b in blocks(README) if b.code.startswith("python3.11 -m venv")]
    demo = setup.code.strip().split(" && ")[-1].replace(".venv/bin/", "")
    assert demo == "caudal demo --out demo-out"
    snippet = f"```sh\n{demo}  # -> round trip identical\n```\n"
    _, failures = run(snippet, tmp_path)
    assert failures == [], report("README.md", failures)
    assert (tmp_path / "demo-out" / "creature_tail.glb").exists()


BROKEN = [
    ("a name never defined", "```python\nx = undefined_name + 1\n```\n", "NameError"),
    (
        "a wrong documented value",
        "```python\n(1, 2)  # -> (1, 3)\n```\n",
        "shows (1, 3), got [1, 2]",
    ),
    ("a number beyond its written decimals", "```python\n0.9949  # -> 0.994\n```\n", "shows 0.994"),
    ("a syntax error", "```python\nx = (1,\n```\n", "SyntaxError"),
    ("a failing command", "```sh\nfalse\n```\n", "exit 1"),
    (
        "a command whose output differs",
        "```sh\necho hello  # -> goodbye\n```\n",
        "output lacks 'goodbye'",
    ),
    (
        "a missing file",
        "```python\nimport caudal\ncaudal.load('assets/nope.glb')\n```\n",
        "FileNotFoundError",
    ),
]


@pytest.mark.parametrize("name,snippet,error", BROKEN, ids=[b[0] for b in BROKEN])
def test_a_broken_example_fails_with_its_line(tmp_path, name, snippet, error):
    text = "# Title\n\nSome prose.\n\n" + snippet
    _, failures = run(text, tmp_path, ASSETS)
    assert len(failures) == 1, failures
    assert error in failures[0]["error"], failures[0]
    assert failures[0]["line"] >= 6  # points into the snippet, past the prose


def test_working_snippets_pass_and_skips_are_honoured(tmp_path):
    text = textwrap.dedent(
        """
        ```python
        import numpy as np
        a = np.zeros((2, 3), np.float32)
        a.shape  # -> (2, 3)  prose after two spaces is ignored
        ```

        Later blocks see earlier names:

        ```python
        a.sum() + 0.25  # -> 0.25
        {"k": [1.5, "x"]}  # -> {'k': [1.5, 'x']}
        ```

        <!-- readme-test: skip: shown, not run -->
        ```sh
        false
        ```

        ```sh
        echo hello \\
          world  # -> hello world
        ```
        """
    )
    found, failures = run(text, tmp_path)
    assert failures == []
    assert [b.skip for b in found] == [None, None, "shown, not run", None]


def test_numbers_match_to_the_decimals_written():
    assert matches(0.99364, "0.994") and not matches(0.9946, "0.994")
    assert matches((22, 3, 4), "(22, 3, 4)") and not matches((22, 3), "(22, 3, 4)")
    assert matches([0.66667, 0.33333], "[0.6667, 0.3333]")
    assert matches(True, "True") and not matches(1, "True")
    assert matches("b_Hip_01", "'b_Hip_01'")
