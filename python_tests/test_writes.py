"""Nothing is half-written (issue 14): the report and the GLB are committed
together or neither; temporaries have short names and are cleaned up after
a killed run; a symlinked output path is refused; outputs are byte-identical
on any thread count."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import textwrap
import time

import pytest
from conftest import asset

import caudal


def cli(*args, env=None):
    return subprocess.run(
        [sys.executable, "-m", "caudal.cli", *args], capture_output=True, text=True, env=env
    )


def temporaries(folder):
    return sorted(n for n in os.listdir(folder) if n.endswith(".tmp"))


FOX = str(asset("fox/Fox_notail.glb"))


def test_a_report_that_cannot_be_written_leaves_no_glb(tmp_path):
    out = cli(
        "tail",
        FOX,
        "-o",
        str(tmp_path / "out.glb"),
        "--report",
        str(tmp_path / "no_such_dir" / "r.json"),
    )
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "Traceback" not in out.stderr, (
        out.stderr
    )
    assert os.listdir(tmp_path) == []
    (tmp_path / "taken.json").mkdir()
    out = cli(
        "tail", FOX, "-o", str(tmp_path / "out.glb"), "--report", str(tmp_path / "taken.json")
    )
    assert out.returncode == 2 and "Traceback" not in out.stderr, out.stderr
    assert sorted(os.listdir(tmp_path)) == ["taken.json"]


def test_report_and_glb_are_written_together(tmp_path):
    out = cli("tail", FOX, "-o", str(tmp_path / "out.glb"), "--report", str(tmp_path / "r.json"))
    assert out.returncode == 0, out.stderr
    assert sorted(os.listdir(tmp_path)) == ["out.glb", "r.json"]
    assert caudal.load(tmp_path / "out.glb").rig.joint_count > 24
    assert '"parts"' in (tmp_path / "r.json").read_text()


def test_a_failing_glb_leaves_no_report(tmp_path):
    (tmp_path / "out.glb").mkdir()
    out = cli("tail", FOX, "-o", str(tmp_path / "out.glb"), "--report", str(tmp_path / "r.json"))
    assert out.returncode == 2 and "Traceback" not in out.stderr, out.stderr
    assert sorted(os.listdir(tmp_path)) == ["out.glb"] and (tmp_path / "out.glb").is_dir()


def test_the_longest_file_name_can_be_written(tmp_path):
    """Names of 236-255 bytes failed: the temporary's name was longer."""
    model = caudal.load(asset("fox/Fox.glb"))
    name = "f" * 251 + ".glb"
    model.write(tmp_path / name)
    assert caudal.load(tmp_path / name).rig.joint_count == 24
    assert os.listdir(tmp_path) == [name]


def dead_pid() -> int:
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    return p.pid


def test_stale_temporaries_are_cleaned_on_the_next_write(tmp_path):
    pid = dead_pid()
    stale = [f".caudal-{pid}-0.tmp", f".out.glb.caudal-{pid}.tmp"]  # today's name and the old one
    for n in stale:
        (tmp_path / n).write_bytes(b"partial")
    # A live process's temporary is left alone.
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        live = f".caudal-{sleeper.pid}-0.tmp"
        (tmp_path / live).write_bytes(b"in progress")
        (tmp_path / "other.tmp").write_bytes(b"not caudal's")
        caudal.load(asset("fox/Fox.glb")).write(tmp_path / "out.glb")
        assert temporaries(tmp_path) == sorted([live, "other.tmp"])
    finally:
        sleeper.kill()
        sleeper.wait()


def test_a_symlinked_output_is_refused(tmp_path):
    target = tmp_path / "precious.txt"
    target.write_text("keep me")
    link = tmp_path / "out.glb"
    link.symlink_to(target)
    with pytest.raises(caudal.ParameterError, match="symlink"):
        caudal.load(asset("fox/Fox.glb")).write(link)
    assert target.read_text() == "keep me" and link.is_symlink()
    # Through the CLI: one line, exit 2, nothing written.
    out = cli("tail", FOX, "-o", str(link))
    assert out.returncode == 2 and "symlink" in out.stderr and target.read_text() == "keep me", (
        out.stderr
    )
    # A dangling link is refused the same way.
    dangling = tmp_path / "dangling.glb"
    dangling.symlink_to(tmp_path / "nowhere" / "x.glb")
    with pytest.raises(caudal.ParameterError, match="symlink"):
        caudal.load(asset("fox/Fox.glb")).write(dangling)


def test_killed_writes_leave_no_partial_file(tmp_path):
    """A writer killed at random moments: the output is always absent or a
    whole file, and the next write removes what the killed runs left."""
    code = textwrap.dedent(
        f"""
        import caudal
        m = caudal.load({str(asset("fieldmouse_rigify/mouse.glb"))!r})
        print("ready", flush=True)
        while True:
            m.write({str(tmp_path / "out.glb")!r})
        """
    )
    rng = random.Random(14)
    left = 0
    for _ in range(8):
        p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
        assert p.stdout is not None and p.stdout.readline().strip() == "ready"
        time.sleep(rng.uniform(0.0, 0.4))
        p.send_signal(signal.SIGKILL)
        p.wait()
        left += len(temporaries(tmp_path))
        if (tmp_path / "out.glb").exists():
            assert caudal.load(tmp_path / "out.glb").rig.joint_count > 300
    caudal.load(asset("fox/Fox.glb")).write(tmp_path / "out.glb")
    assert temporaries(tmp_path) == []
    print(f"{left} temporaries left by 8 kills, all removed by the next write")


def test_cli_output_is_identical_on_any_thread_count(tmp_path):
    outputs = []
    for threads in [1, 2, 4]:
        out = tmp_path / f"out_{threads}.glb"
        r = cli(
            "tail",
            FOX,
            "-o",
            str(out),
            "--bake",
            "--clips",
            "Walk",
            env={**os.environ, "RAYON_NUM_THREADS": str(threads)},
        )
        assert r.returncode == 0, r.stderr
        outputs.append(out.read_bytes())
    assert outputs[0] == outputs[1] == outputs[2]
