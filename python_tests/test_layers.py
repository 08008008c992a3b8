"""The layering of the Rust core is measured: scripts/check_layers.py passes on
the tree and fails, naming the edge and where it is, on a copy with an import
that runs upwards, on a measure module importing a stage, and on a cycle."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

SCRIPT = ROOT / "scripts" / "check_layers.py"


def run(src: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), str(src)], capture_output=True, text=True, check=False
    )


def seeded(tmp_path: Path, rel: str, line: str) -> Path:
    """A copy of src/ with `line` added at the top of `rel`."""
    src = tmp_path / "src"
    shutil.copytree(ROOT / "src", src, ignore=shutil.ignore_patterns("*.py", "*.so", "*.pyi"))
    target = src / rel
    target.write_text(line + "\n" + target.read_text())
    return src


def test_the_tree_is_layered():
    r = run(ROOT / "src")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "layering: ok" in r.stdout


@pytest.mark.parametrize(
    ("rel", "line", "says"),
    [
        # measure must not import a stage.
        (
            "measure/stretch/stats.rs",
            "use crate::bake::BakeParams;",
            "measure imports bake (src/measure/stretch/stats.rs:1)",
        ),
        # A lower layer must not import a higher one.
        (
            "geometry/weld.rs",
            "use crate::spring::TailChain;",
            "geometry imports spring (src/geometry/weld.rs:1)",
        ),
        # `solver` is stepped by `group`; the reverse edge closes a cycle.
        (
            "spring/solver.rs",
            "use super::group::MOST_LANES;",
            "module cycle: spring::group -> spring::solver (src/spring/group.rs:",
        ),
    ],
)
def test_a_seeded_bad_import_fails_naming_the_edge(tmp_path, rel, line, says):
    r = run(seeded(tmp_path, rel, line))
    assert r.returncode == 1
    assert says in r.stdout, r.stdout


def test_comments_and_doc_links_are_not_imports(tmp_path):
    src = seeded(tmp_path, "geometry/weld.rs", "/// See [`crate::bake::BakeParams`].")
    assert run(src).returncode == 0
