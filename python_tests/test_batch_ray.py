"""The Ray engine on a local Ray with 2 CPUs: the same summary and the same
bytes as the process pool, error rows included, also when the characters
of a file run as tasks of their own. Needs ``pip install 'caudal[ray]'``
(skipped without it, a failure with CAUDAL_REQUIRE_RAY=1, as in CI)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from batch_inputs import comparable, glbs, skinless_gltf, write_library
from conftest import import_or_skip

import caudal

pytestmark = pytest.mark.ray


def import_ray():
    return import_or_skip(
        "ray", "CAUDAL_REQUIRE_RAY", "ray is not installed (pip install 'caudal[ray]')"
    )


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[str], Path]:
    root = write_library(tmp_path_factory.mktemp("ray_library"))
    broken = root / "broken.glb"
    broken.write_bytes(b"glTF\x02\x00\x00\x00 and then nothing")
    inputs = [
        str(root / "assets"),
        str(root / "creatures"),
        str(broken),
        str(root / "missing.glb"),
        str(skinless_gltf(root / "prop.gltf")),
    ]
    return inputs, root


@pytest.fixture(scope="module")
def local_run(library, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict]]:
    inputs, _ = library
    out = tmp_path_factory.mktemp("local") / "out"
    batch = caudal.batch(inputs, out, caudal.RepairSettings(bake=True), workers=2)
    return out, list(batch.summary().records())


def test_the_cli_on_a_local_ray_matches_the_process_pool(library, local_run, tmp_path):
    import_ray()
    inputs, _ = library
    out = tmp_path / "ray"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "caudal.cli",
            "batch",
            *inputs,
            "-o",
            str(out),
            "--bake",
            "--engine",
            "ray",
            "--workers",
            "2",
            "--json",
        ],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 1, run.stderr  # the three bad inputs
    result = json.loads(run.stdout)
    assert result["failed"] == 3 and result["files"] == 18
    local_out, local_rows = local_run
    assert comparable(result["rows"]) == comparable(local_rows)
    first, second = glbs(local_out), glbs(out)
    assert len(first) == 15 and first.keys() == second.keys()
    assert [k for k in first if first[k] != second[k]] == []


def test_characters_as_tasks_of_their_own_give_the_same_file(library, local_run, tmp_path):
    ray = import_ray()
    _, root = library
    two = root / "creatures" / "two_characters.glb"
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        batch = caudal.batch(
            [two],
            tmp_path / "ray",
            caudal.RepairSettings(bake=True),
            engine="ray",
            character_tasks_above=0,
        )
        (result,) = list(batch)
        assert ray.is_initialized()  # a Ray the caller started is left running
    finally:
        ray.shutdown()
    local_out, local_rows = local_run
    assert result.ok and result.output is not None
    assert result.output.read_bytes() == (local_out / "two_characters.glb").read_bytes()
    assert comparable(list(batch.summary().records())) == comparable(
        [r for r in local_rows if r["file"] == str(two)]
    )
    assert len(batch.summary().rows) == 2
