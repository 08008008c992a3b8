"""``caudal batch`` and ``caudal.batch`` on the local engine: a small library
(repository assets and generated creatures), broken inputs, manifests,
resume after a SIGKILL, a worker that dies, the progress display."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import multiprocessing
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from batch_inputs import comparable, glbs, skinless_gltf, write_creatures, write_library
from conftest import validate_gltf

import caudal
from caudal.cli.batch_progress import BatchProgress


def cli(*args: str, check: bool = False) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "caudal.cli", "batch", *args],
        capture_output=True,
        text=True,
        check=check,
    )


def read_summary(out: Path) -> list[dict]:
    rows = [json.loads(line) for line in (out / "summary.jsonl").read_text().splitlines()]
    with open(out / "summary.csv", newline="") as f:
        assert len(list(csv.DictReader(f))) == len(rows)
    return rows


def bake_library(library: Path, out: Path, workers: int) -> subprocess.CompletedProcess[str]:
    """``caudal batch --bake`` over the library's two folders into ``out``."""
    return cli(
        str(library / "assets"),
        str(library / "creatures"),
        "-o",
        str(out),
        "--bake",
        "--workers",
        str(workers),
    )


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_library(tmp_path_factory.mktemp("library"))


@pytest.fixture(scope="module")
def one_worker(library: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("one") / "out"
    run = bake_library(library, out, workers=1)
    assert run.returncode == 0, run.stderr
    return out


def test_one_and_two_workers_give_the_same_summary_and_the_same_bytes(
    library, one_worker, tmp_path
):
    out = tmp_path / "two"
    run = bake_library(library, out, workers=2)
    assert run.returncode == 0, run.stderr
    assert comparable(read_summary(out)) == comparable(read_summary(one_worker))
    first, second = glbs(one_worker), glbs(out)
    assert len(first) == 15 and first.keys() == second.keys()
    assert all(first[k] == second[k] for k in first), [k for k in first if first[k] != second[k]]


def test_the_summary_has_a_row_per_character_with_real_figures(library, one_worker):
    summary = read_summary(one_worker)
    rows = {(Path(r["file"]).name, r["character"]): r for r in summary}
    assert (
        len(rows)
        == len(summary)
        == sum(len(caudal.load(f).characters) for f in {r["file"] for r in summary})
    )
    assert all(r["status"] == "done" and r["error"] == "" for r in rows.values())
    fox = rows[("Fox_notail.glb", 0)]
    # One tail, a chain of at least 3 bones, baked into the three looping clips
    # and closed within the bound, measured untorn by the stretch report.
    assert (
        fox["tails"] == 1 and fox["tail_bones"] >= 3 and fox["bones_added"] == fox["tail_bones"] + 1
    )
    assert (
        fox["loop_source"] == "bake"
        and fox["clips"] == fox["loops"] == 3
        and fox["loop_closure_deg"] < 0.5
    )
    assert (
        fox["stretch_clips"] == 3
        and fox["chain_torn_share"] == 0.0
        and fox["original_torn_share"] > 0.05
    )
    assert fox["rigid_p99"] == pytest.approx(1.0, abs=1e-3)
    assert (
        rows[("Fox.glb", 0)]["tails"] == 0 and rows[("Fox.glb", 0)]["bones_added"] == 0
    )  # the artist's tail has bones
    assert rows[("two_characters.glb", 0)]["name"] != rows[("two_characters.glb", 1)]["name"]
    assert sum(r["tails"] for r in rows.values()) >= 10
    assert (
        one_worker / "quaternius_shiba_inu" / "ShibaInu.glb"
    ).exists()  # .gltf in, GLB out; paths below the folder kept


def test_each_output_is_the_report_s_glb_and_loads_with_its_chains(one_worker):
    for report_path in sorted(one_worker.rglob("*.report.json")):
        report = json.loads(report_path.read_text())
        glb = one_worker / report["output"]
        assert hashlib.sha256(glb.read_bytes()).hexdigest() == report["output_sha256"]
        assert (
            report["input_sha256"] == hashlib.sha256(Path(report["input"]).read_bytes()).hexdigest()
        )
        model = caudal.load(glb)
        for entry in report["characters"]:
            chains = [p for p in entry["parts"] if p["decision"] == "chain"]
            rig = model.characters[entry["character"]].rig
            grown = rig.joint_names[entry["joints_before"] :]
            assert len(grown) == sum(
                p["bone_count"] + 1 for p in chains
            )  # each chain's bones and its end
            assert (
                all(b in grown for p in chains for b in p["bones"])
                and rig.joint_count == entry["joints_after"]
            )


def test_written_files_pass_the_validator(one_worker):
    for rel in ["fox/Fox_notail.glb", "two_characters.glb", "quaternius_shiba_inu/ShibaInu.glb"]:
        assert validate_gltf(one_worker / rel)["errors"] == 0, rel


def test_bad_files_are_error_rows_and_the_batch_goes_on(library, tmp_path):
    garbage = tmp_path / "garbage.glb"
    garbage.write_bytes(b"this is not a glTF file at all")
    truncated = tmp_path / "truncated.glb"
    whole = (library / "creatures" / "creature_000.glb").read_bytes()
    truncated.write_bytes(whole[: len(whole) // 2])
    missing = tmp_path / "nowhere" / "missing.glb"
    skinless = skinless_gltf(tmp_path / "static_prop.gltf")
    out = tmp_path / "out"
    run = cli(
        str(library / "creatures"),
        str(garbage),
        str(truncated),
        str(missing),
        str(skinless),
        "-o",
        str(out),
        "--workers",
        "2",
    )
    assert run.returncode == 1, run.stderr
    rows = read_summary(out)
    failed = {Path(r["file"]).name: r for r in rows if r["status"] == "failed"}
    assert sorted(failed) == ["garbage.glb", "missing.glb", "static_prop.gltf", "truncated.glb"]
    assert failed["missing.glb"]["error_type"] == "FileNotFoundError"
    assert (
        failed["static_prop.gltf"]["error_type"] == "GltfError"
        and "no skin" in failed["static_prop.gltf"]["error"]
    )
    assert (
        "truncated" in failed["truncated.glb"]["error"]
        and str(truncated) in failed["truncated.glb"]["error"]
    )
    assert failed["garbage.glb"]["error_type"] == "GltfError"
    done = [r for r in rows if r["status"] == "done"]
    assert len({r["file"] for r in done}) == 12 and all(r["error"] == "" for r in done)
    assert (
        not (out / "garbage.glb").exists()
        and json.loads((out / "garbage.report.json").read_text())["error"]["type"] == "GltfError"
    )
    assert "12 done (0 resumed), 4 failed" in run.stdout and "failed " + str(missing) in run.stdout


def test_resume_after_sigkill_does_only_the_missing_files(tmp_path):
    inputs = tmp_path / "in"
    write_creatures(inputs, list(range(40)))
    out = tmp_path / "out"
    args = [
        sys.executable,
        "-m",
        "caudal.cli",
        "batch",
        str(inputs),
        "-o",
        str(out),
        "--bake",
        "--workers",
        "1",
    ]
    proc = subprocess.Popen(
        args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    deadline = time.monotonic() + 120
    while (
        len(list(out.glob("*.report.json"))) < 15
        and time.monotonic() < deadline
        and proc.poll() is None
    ):
        time.sleep(0.005)
    os.killpg(proc.pid, signal.SIGKILL)  # the driver and its worker
    proc.wait()
    reports = sorted(out.glob("*.report.json"))
    assert 15 <= len(reports) < 40, "the batch was not killed halfway"
    assert not (out / "summary.csv").exists()
    # No partial file: every visible output is whole (a killed write leaves
    # at most a hidden temporary, which the resume removes).
    for glb in out.glob("*.glb"):
        caudal.load(glb)
    for report in reports:
        data = json.loads(report.read_text())
        assert (
            hashlib.sha256((out / data["output"]).read_bytes()).hexdigest() == data["output_sha256"]
        )
    before = {p.name: p.stat().st_mtime_ns for p in reports}
    run = cli(str(inputs), "-o", str(out), "--bake", "--workers", "1", "--resume")
    assert run.returncode == 0, run.stderr
    rows = read_summary(out)
    assert len({r["file"] for r in rows}) == 40
    resumed = {Path(r["output"]).name for r in rows if r["resumed"]}
    assert resumed == {n.replace(".report.json", ".glb") for n in before}
    assert all((out / n).stat().st_mtime_ns == t for n, t in before.items())  # untouched
    assert sorted(p.name for p in out.iterdir() if p.name.startswith(".")) == []
    assert len(list(out.glob("*.glb"))) == 40


def test_resume_redoes_a_file_whose_bytes_settings_or_output_changed(tmp_path):
    inputs = tmp_path / "in"
    a, b, c = write_creatures(inputs, [1, 2, 3])
    out = tmp_path / "out"
    assert cli(str(inputs), "-o", str(out), "--workers", "1").returncode == 0

    def resumed(*extra: str) -> set[str]:
        run = cli(str(inputs), "-o", str(out), "--workers", "1", "--resume", *extra)
        assert run.returncode == 0, run.stderr
        return {Path(r["file"]).name for r in read_summary(out) if r["resumed"]}

    assert resumed() == {a.name, b.name, c.name}
    a.write_bytes(caudal.generated_creature(4)[0])  # new bytes
    (out / c.name).write_bytes((out / c.name).read_bytes()[:100])  # a damaged output
    assert resumed() == {b.name}
    assert resumed() == {a.name, b.name, c.name}
    assert resumed("--max-bones", "4") == set()  # other settings: every file again


def test_a_manifest_gives_per_file_settings(tmp_path):
    inputs = tmp_path / "in"
    a, b = write_creatures(inputs, [6, 8])
    manifest = tmp_path / "batch.csv"
    manifest.write_text(
        f"path,min_bones,max_bones,bake,spring\nin/{a.name},2,2,,\nin/{b.name},,,false,carry_deg=10;ground=off\n"
    )
    out = tmp_path / "out"
    run = cli(str(manifest), "-o", str(out), "--bake", "--workers", "1")
    assert run.returncode == 0, run.stderr
    rows = {Path(r["file"]).name: r for r in read_summary(out)}
    assert (
        rows[a.name]["tail_bones"] == 2 * rows[a.name]["tails"] > 0
        and rows[a.name]["loop_source"] == "bake"
    )
    assert (
        rows[b.name]["loop_source"] == "report"
    )  # not baked: loop figures from the report's own bake
    settings = json.loads((out / b.name.replace(".glb", ".report.json")).read_text())["settings"]
    assert settings["bake"] is False and settings["spring"] == {"carry_deg": 10.0, "ground": False}
    # The report measures the chain the batch wrote (two bones), not the default one.
    report = json.loads((out / a.name.replace(".glb", ".report.json")).read_text())
    written = report["characters"][0]["stretch"][0]
    model = caudal.load(a)
    two = caudal.stretch_table(model, [written["clip"]], grow={"min_bones": 2, "max_bones": 2})
    default = caudal.stretch_table(model, [written["clip"]])
    p99 = [
        next(r["p99"] for r in t["rows"] if r["rig"] == "chain") for t in (written, *two, *default)
    ]
    assert p99[0] == pytest.approx(p99[1], rel=1e-6) and p99[0] != pytest.approx(p99[2], rel=1e-6)
    lines = tmp_path / "batch.jsonl"
    lines.write_text(
        json.dumps({"path": f"in/{a.name}", "clips": ["Walk"], "spring": {"carry_deg": 30}}) + "\n"
    )
    out2 = tmp_path / "out2"
    assert cli(str(lines), "-o", str(out2), "--bake", "--workers", "1").returncode == 0
    (row,) = read_summary(out2)
    assert row["clips"] == 1 and row["stretch_clips"] == 1


def test_a_bad_manifest_stops_before_any_work(tmp_path):
    manifest = tmp_path / "batch.csv"
    manifest.write_text("path,max_bonez\na.glb,2\n")
    run = cli(str(manifest), "-o", str(tmp_path / "out"))
    assert run.returncode == 2 and "batch.csv:2: unknown column 'max_bonez'" in run.stderr
    assert not (tmp_path / "out").exists()


def test_names_that_collide_stay_apart(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    glb = caudal.generated_creature(9)[0]
    (tmp_path / "a" / "dog.glb").write_bytes(glb)
    (tmp_path / "b" / "dog.glb").write_bytes(glb)
    batch = caudal.batch(
        [tmp_path / "a" / "dog.glb", tmp_path / "b" / "dog.glb"], tmp_path / "out", workers=1
    )
    outputs = sorted(r.output.name for r in batch if r.output is not None)
    assert (
        len(outputs) == 2
        and outputs[0] != outputs[1]
        and all(o.startswith("dog-") for o in outputs)
    )


def test_python_api_streams_dataclasses_and_a_summary(tmp_path):
    inputs = tmp_path / "in"
    write_creatures(inputs, [10, 11, 12])
    settings = caudal.RepairSettings(bake=True, clips=("Walk",), spring={"carry_deg": 35.0})
    batch = caudal.batch(inputs, tmp_path / "out", settings, workers=2)
    assert len(batch) == 3
    results = [next(batch)] + list(batch)  # an iterator, as each file finishes
    assert sorted(r.index for r in results) == [0, 1, 2]
    assert all(
        r.ok and r.error is None and r.output is not None and r.output.exists() for r in results
    )
    assert all(r.report["settings"] == settings.to_json() for r in results)
    summary = batch.summary()
    assert list(dict.fromkeys(r["file"] for r in summary.rows)) == sorted(
        str(p) for p in inputs.glob("*.glb")
    )
    assert summary.failed == [] and summary.files == 3 and "chain_p99" in summary.columns
    pandas = pytest.importorskip("pandas")
    frame = summary.to_pandas()
    assert (
        isinstance(frame, pandas.DataFrame)
        and list(frame.columns) == summary.columns
        and len(frame) == len(summary.rows)
    )


def test_settings_refuse_what_the_cli_would():
    with pytest.raises(caudal.ParameterError, match="broad"):
        caudal.RepairSettings(broad="sideways")
    with pytest.raises(caudal.ParameterError, match="samples"):
        caudal.RepairSettings(samples=-1)
    with pytest.raises(caudal.ParameterError, match="x.csv:3: spring"):
        caudal.RepairSettings().with_overrides({"spring": "carry_deg"}, "x.csv:3")
    # A manifest's pelvis column names one file's pelvis joint.
    assert caudal.RepairSettings().with_overrides({"pelvis": "Body"}, "x.csv:2").pelvis == "Body"
    assert (
        caudal.RepairSettings(spring={"a": 1.0}).digest()
        != caudal.RepairSettings(spring={"a": 2.0}).digest()
    )


def test_a_worker_killed_mid_file_costs_only_a_retry(tmp_path):
    inputs = tmp_path / "in"
    write_creatures(inputs, list(range(20, 30)))
    batch = caudal.batch(inputs, tmp_path / "out", workers=2)
    results = []
    for r in batch:
        results.append(r)
        if len(results) == 1:
            for child in multiprocessing.active_children():
                os.kill(child.pid, signal.SIGKILL)
    assert len(results) == 10 and all(r.ok for r in results), [r.error for r in results if not r.ok]
    serial = caudal.batch(inputs, tmp_path / "serial", workers=1)
    assert comparable(serial.summary().rows) == comparable(batch.summary().rows)


def holders_of(path: Path) -> list[int]:
    """The child processes with ``path`` open (Linux's /proc)."""
    pids = []
    for child in multiprocessing.active_children():
        try:
            fds = os.listdir(f"/proc/{child.pid}/fd")
            if any(os.readlink(f"/proc/{child.pid}/fd/{fd}") == str(path) for fd in fds):
                pids.append(child.pid)
        except OSError:
            continue
    return pids


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs Linux's /proc")
def test_a_file_that_kills_its_worker_twice_is_an_error_row_and_the_rest_go_on(tmp_path):
    from caudal.pipeline.inputs import Job
    from caudal.pipeline.local import CRASH_LIMIT, CRASHED, run_local

    # A FIFO that never gets data: the worker that reads it waits until
    # killed, every time, which is what a file that crashes its worker looks
    # like. The test holds it open for writing, so a reader's open() returns
    # (and shows in /proc) and its read() is what waits.
    fifo = tmp_path / "never.glb"
    os.mkfifo(fifo)
    writer = os.open(fifo, os.O_RDWR)
    write_creatures(tmp_path / "in", [21, 22])
    good = sorted((tmp_path / "in").glob("*.glb"))
    settings = caudal.RepairSettings()
    paths = [good[0], fifo, good[1]]
    jobs = [Job(i, str(p), f"{i}.glb", settings, "argument") for i, p in enumerate(paths)]
    kills = []
    done = threading.Event()

    def killer() -> None:
        while not done.wait(0.05):
            for pid in holders_of(fifo):
                os.kill(pid, signal.SIGKILL)
                kills.append(pid)

    thread = threading.Thread(target=killer, daemon=True)
    thread.start()
    try:
        outcomes = list(run_local(jobs, 2))
    finally:
        done.set()
        thread.join()
        os.close(writer)
    by_index = {o.job.index: o for o in outcomes}
    assert sorted(by_index) == [0, 1, 2]
    assert by_index[0].report["error"] is None and by_index[2].report["error"] is None
    assert by_index[1].report["error"] == {"type": "WorkerDied", "message": CRASHED}
    assert len(set(kills)) == CRASH_LIMIT


def test_progress_is_plain_lines_off_a_terminal_and_a_bar_with_eta_on_one(tmp_path):
    inputs = tmp_path / "in"
    write_creatures(inputs, [13, 14])
    run = cli(str(inputs), "-o", str(tmp_path / "out"), "--workers", "1")
    lines = [row for row in run.stderr.splitlines() if row.startswith("[")]
    assert len(lines) == 2 and lines[-1].startswith("[2/2] done ") and "creature_01" in lines[-1]
    stream = io.StringIO()
    results = list(caudal.batch(inputs, tmp_path / "out", workers=1, resume=True))
    with BatchProgress(4, stream=stream, bar=True) as progress:
        for r in results:
            progress.update(r)
        assert "ETA" in progress.line(time.monotonic() + 1) and "2/4 files" in progress.line(
            time.monotonic()
        )
    assert "\r[############------------] 2/4 files" in stream.getvalue()


def test_the_ray_engine_without_ray_is_a_one_line_error(tmp_path):
    import importlib.util

    if importlib.util.find_spec("ray") is not None:
        pytest.skip("ray is installed here (the Ray engine is tested in test_batch_ray.py)")
    run = cli(str(tmp_path), "-o", str(tmp_path / "out"), "--engine", "ray")
    assert (
        run.returncode == 2
        and run.stderr.strip()
        == "caudal batch: engine: 'ray' needs Ray installed: pip install 'caudal[ray]'"
    )
