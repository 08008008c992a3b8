"""Every example in README.md runs as written, on the repository's assets,
and shows what it says it shows (python_tests/readme_blocks.py has the
conventions). The extractor itself is tested on broken snippets: a README
test that cannot fail would prove nothing."""

from __future__ import annotations

import textwrap

import pytest
from conftest import ASSETS, ROOT
from readme_blocks import blocks, matches, run

README = (ROOT / "README.md").read_text(encoding="utf-8")

SKIPPED = {
    "python3.11 -m venv .venv && .venv/bin/pip install . && .venv/bin/caudal demo --out demo-out",
    "bash .ci/run",
    "caudal batch library/ -o repaired --bake --engine ray --address ray://head:10001",
}
"""The blocks README marks as not run here, and why: installing the package
(a release build; its last command is run below from the installed wheel),
the whole CI (which runs this test), and a Ray cluster's address (the Ray
engine is tested on a local Ray in test_batch_ray.py)."""


def report(failures):
    return "\n\n".join(f"README.md:{f['line']}: {f['code']}\n  {f['error']}" for f in failures)


def test_every_readme_example_runs_and_shows_what_it_says(tmp_path):
    found, failures = run(README, tmp_path, ASSETS)
    assert failures == [], report(failures)
    # Nothing is left out but the blocks named above.
    assert {b.code.strip() for b in found if b.skip} == SKIPPED
    ran = [b for b in found if not b.skip]
    assert sum(b.lang == "python" for b in ran) >= 7 and sum(b.lang == "sh" for b in ran) >= 3
    # The documented values are checked, not only the calls run.
    assert README.count("# ->") >= 20
    # What the examples write is there.
    for name in [
        "Fox_tail.glb",
        "Fox_walk.glb",
        "Wolf_voxel_walk.glb",
        "Wolf_tail.glb",
        "tail.json",
        "solve.json",
    ]:
        assert (tmp_path / name).stat().st_size > 0, name


def test_the_demo_of_the_first_command_runs(tmp_path):
    (setup,) = [b for b in blocks(README) if b.code.startswith("python3.11 -m venv")]
    demo = setup.code.strip().split(" && ")[-1].replace(".venv/bin/", "")
    assert demo == "caudal demo --out demo-out"
    snippet = f"```sh\n{demo}  # -> round trip identical\n```\n"
    _, failures = run(snippet, tmp_path)
    assert failures == [], report(failures)
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
