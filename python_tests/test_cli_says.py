"""A command line that says what it did: its version, `python -m caudal`,
options that cannot apply refused before any work, output paths checked,
text in the user's words (no article section numbers, no sentinel figures),
each role with its rule, a progress bar on terminals only, one-line errors
without Rust Debug structs, error fields named as the Python parameters."""

from __future__ import annotations

import ast
import inspect
import os
import pty
import re
import select
import struct
import subprocess
import sys
import typing
from pathlib import Path

import numpy as np
import pytest
from conftest import asset

import caudal

FOX = "fox/Fox_notail.glb"
WOLF = "quaternius_wolf/Wolf_notail.glb"


def cli(*args, module="caudal.cli", env=None):
    return subprocess.run(
        [sys.executable, "-m", module, *map(str, args)], capture_output=True, text=True, env=env
    )


def test_version_and_python_dash_m():
    for module in ("caudal.cli", "caudal"):
        done = cli("--version", module=module)
        assert done.returncode == 0 and done.stdout.strip() == f"caudal {caudal.__version__}"
    done = cli("info", asset(FOX), module="caudal")
    assert done.returncode == 0 and "21 joints, 1728 vertices" in done.stdout


@pytest.mark.parametrize(
    "extra", [["--clips", "Walk"], ["--spring", "carry_deg=40"], ["--loop", "Walk=once"]]
)
def test_bake_options_without_bake_are_refused_before_any_work(tmp_path, extra):
    out = tmp_path / "out.glb"
    done = cli("tail", asset(FOX), "-o", out, *extra)
    assert done.returncode == 2
    assert f"{extra[0]} only applies with --bake" in done.stderr and done.stderr.startswith(
        "usage: caudal tail"
    )
    assert not out.exists()


def test_an_output_that_is_not_gltf_is_refused(tmp_path):
    for command in (
        ["tail", asset(FOX)],
        ["solve", asset("fox/Fox.glb"), "--clip", "Walk", asset(FOX)],
    ):
        for name in ("out.txt", "out", "out.glb.bak"):
            done = cli(*command, "-o", tmp_path / name)
            assert done.returncode == 2, (command, name)
            assert "the output must end in .glb or .gltf" in done.stderr
            assert not (tmp_path / name).exists()
    # Either suffix, any case, is fine; .gltf is JSON with the buffer inside.
    for name in ("Fox.GLB", "fox.gltf"):
        assert cli("tail", asset(FOX), "-o", tmp_path / name).returncode == 0
    assert (tmp_path / "fox.gltf").read_bytes().lstrip().startswith(b"{")
    assert (tmp_path / "Fox.GLB").read_bytes().startswith(b"glTF")


def test_text_output_is_in_the_users_words(tmp_path):
    texts = {
        "tail": cli(
            "tail", asset(FOX), "-o", tmp_path / "t.glb", "--bake", "--clips", "Walk"
        ).stdout,
        "report": cli("report", asset(FOX), "--clip", "Walk").stdout,
        "demo": cli("demo", "--out", tmp_path / "d").stdout,
        "info": cli("info", asset(FOX)).stdout,
    }
    for command in ["tail", "report", "demo", "info", "solve"]:
        texts[f"{command} --help"] = cli(command, "--help").stdout
    texts["--help"] = cli("--help").stdout
    for name, text in texts.items():
        assert text.strip(), name
        assert "SPEC" not in text, name  # the article's section numbers mean nothing to a user
        assert not re.search(r"\b1000\.0+\b", text), name  # the core's cap for "not measurable"
    # The Fox's two hand parts have no measurable cross-section: said so.
    assert re.search(r"elongation n/a, tube n/a", texts["tail"])


def test_info_shows_each_roles_rule():
    fox = cli("info", asset("fox/Fox.glb")).stdout
    roles = fox[fox.index("roles (how each was found):") : fox.index("meshes:")]
    # The Fox's pelvis is where its hind legs meet the trunk; its name agrees.
    assert re.search(r"pelvis\s+b_Hip_01\s+\(by the skeleton's shape", roles)
    assert re.search(r"spine\s+b_Spine01_02, b_Spine02_03\s+\(by the skeleton's shape", roles)
    wolf = cli("info", asset(WOLF)).stdout
    # The thigh is found by the skeleton's shape; its side is read from the name.
    assert re.search(r"thigh\.L\s+BackLeg\.L\s+\(by name: side from the joint names\)", wolf)
    # One line per role found, and every role the rig reports appears.
    for role in {s["role"] for s in caudal.load(asset(WOLF)).rig.roles()["sources"]}:
        assert re.search(rf"^    {re.escape(role)}\s", wolf, re.M), role


def run_on_a_terminal(args, env):
    """Runs the CLI with stderr on a pseudo-terminal: what a user sees there."""
    master, slave = pty.openpty()
    import fcntl
    import termios

    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 160, 0, 0))
    p = subprocess.Popen(
        [sys.executable, "-m", "caudal.cli", *map(str, args)],
        stdout=subprocess.PIPE,
        stderr=slave,
        env=env,
    )
    os.close(slave)
    seen = b""
    while True:
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(master, 4096)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
        elif p.poll() is not None:
            break
    out = p.stdout.read().decode()
    p.wait()
    os.close(master)
    return p.returncode, out, seen.decode(errors="replace")


def test_a_progress_bar_on_a_terminal_and_nothing_elsewhere(tmp_path):
    # The bar waits a second before it draws (DELAY); zero here so the
    # Wolf's twelve clips, baked in well under a second, still show it.
    env = {**os.environ, "CAUDAL_PROGRESS_DELAY": "0"}
    args = ["tail", asset(WOLF), "-o", tmp_path / "w.glb", "--bake"]
    code, out, terminal = run_on_a_terminal(args, env)
    assert code == 0 and "wrote" in out
    assert re.search(r"baking \[[#-]{24}\] \d+/12", terminal), terminal
    assert terminal.endswith("\r")  # the bar is wiped: the results start a clean line
    piped = cli(*args, env=env)
    assert piped.returncode == 0 and piped.stderr == ""


def test_the_bar_counts_and_keeps_order():
    from caudal.cli import progress

    class Tty:
        def __init__(self):
            self.text = ""

        def isatty(self):
            return True

        def write(self, s):
            self.text += s

        def flush(self):
            pass

    p = progress.Progress("baking", total=4, stream=Tty())
    assert re.fullmatch(r"baking \[-{24}\] 0/4 0 s", p.line(p._start))
    p.step("Walk")
    p.step("Run")
    assert re.fullmatch(r"baking \[#{12}-{12}\] 2/4 Run 0 s", p.line(p._start))
    # Units finish in any order; results come back in the order given.
    import time

    assert progress.each("x", [0.05, 0.0, 0.02], lambda s: (time.sleep(s), s)[1]) == [
        0.05,
        0.0,
        0.02,
    ]


def test_per_clip_baking_writes_what_one_bake_call_writes(tmp_path):
    # The CLI bakes clip by clip (for its bar); the file must not change.
    out = tmp_path / "cli.glb"
    assert (
        cli("tail", asset(WOLF), "-o", out, "--bake", "--clips", "Walk,Death,Gallop").returncode
        == 0
    )
    model = caudal.load(asset(WOLF))
    rig, _ = caudal.grow_chains(model.rig)
    caudal.bake(model, rig, ["Walk", "Death", "Gallop"]).write(tmp_path / "api.glb")
    assert out.read_bytes() == (tmp_path / "api.glb").read_bytes()


def test_report_per_clip_gives_the_tables_of_one_call():
    done = cli("report", asset(FOX), "--json")
    assert done.returncode == 0
    entries = __import__("json").loads(done.stdout)["clips"]
    api = caudal.stretch_table(caudal.load(asset(FOX)))
    assert [e["clip"] for e in entries] == [e["clip"] for e in api] == ["Survey", "Walk", "Run"]
    for e, a in zip(entries, api, strict=False):
        assert [r["p99"] for r in e["rows"]] == [r["p99"] for r in a["rows"]]


def bad_glbs(tmp_path):
    good = asset("fox/Fox.glb").read_bytes()
    files = {}
    files["truncated"] = good[:5000]
    files["version 3"] = good[:4] + struct.pack("<I", 3) + good[8:]
    files["unknown chunk"] = good[:16] + b"XXXX" + good[20:]
    files["short chunk"] = good[:12] + struct.pack("<I", 10**6) + good[16:]
    paths = {}
    for name, data in files.items():
        p = tmp_path / (name.replace(" ", "_") + ".glb")
        p.write_bytes(data)
        paths[name] = p
    return paths


def test_errors_are_one_line_without_debug_structs(tmp_path):
    for name, path in bad_glbs(tmp_path).items():
        done = cli("info", path)
        assert done.returncode == 2, name
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("caudal info: glTF "), (name, done.stderr)
        # Rust's Debug form: `Length { length: .. }`, `Version(3)`, byte arrays.
        assert not re.search(r"\w+ \{ \w+:|\w+\(\d+\)|\[\d+, \d+", lines[0]), (name, lines[0])
        with pytest.raises(caudal.GltfError) as e:
            caudal.load(path)
        assert "{" not in str(e.value), str(e.value)
    assert (
        "declares 162840 bytes but the file has 4988"
        in cli("info", tmp_path / "truncated.glb").stderr
    )


def tiny_rig_args():
    v = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], np.float32)
    return (v, [[0, 1, 2]], [[0], [0], [1]], [[1.0], [1.0], [1.0]], ["a", "b"], [-1, 0])


def test_each_bind_form_alone_gives_the_same_rig():
    # Both together are accepted when they agree and refused when they do
    # not (test_api_types.py).
    bind = np.stack([np.eye(4), np.eye(4)])
    a = caudal.Rig(*tiny_rig_args(), bind_matrices=bind)
    b = caudal.Rig(*tiny_rig_args(), inverse_bind_matrices=bind)
    np.testing.assert_array_equal(a.inverse_bind_matrices, b.inverse_bind_matrices)


def parameter_names(fn, spring_keywords):
    params = inspect.signature(fn).parameters
    names = set(params)
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
        names |= spring_keywords  # TailSpring(rig, **params): the spring's keywords
        names |= stub_keywords(fn)  # grow_chains(rig, **params): the keywords the stub declares
    return names


def stub_keywords(fn):
    """The keyword names ``_core.pyi`` declares for the function ``fn``: its
    named parameters and the keys of a ``**params: Unpack[SomeDict]``."""
    stub = ast.parse((Path(caudal.__file__).parent / "_core.pyi").read_text(encoding="utf-8"))
    defs = [n for n in ast.walk(stub) if isinstance(n, ast.FunctionDef) and n.name == fn.__name__]
    names = {a.arg for d in defs for a in d.args.args + d.args.kwonlyargs}
    for d in defs:
        kw = d.args.kwarg
        if kw is not None and isinstance(kw.annotation, ast.Subscript):
            typed = getattr(caudal.dicts, ast.unparse(kw.annotation.slice))
            names |= set(typing.get_type_hints(typed))
    return names


def keywords_the_core_lists(call):
    """The names an unknown keyword's error lists as the valid ones."""
    with pytest.raises(caudal.ParameterError) as e:
        call(no_such_keyword=1)
    return set(re.findall(r"`(\w+)`", str(e.value))) - {"no_such_keyword"}


def test_stub_keywords_are_the_ones_the_core_takes():
    model = caudal.load(asset(FOX))
    repaired, _ = caudal.grow_chains(model.rig)
    walk = model.clip("Walk", rig=repaired)
    positional = {
        "rig",
        "model",
        "clips",
        "chains",
        "clip",
        "chain",
        "loop",
        "source_rig",
        "target_rig",
    }
    calls = {
        caudal.find_appendages: lambda **k: caudal.find_appendages(model.rig, **k),
        caudal.grow_chains: lambda **k: caudal.grow_chains(model.rig, **k),
        caudal.bake: lambda **k: caudal.bake(model, **k),
    }
    rig = model.rig
    calls[caudal.transfer_clip] = lambda **k: caudal.transfer_clip(rig, walk, rig, **k)
    for fn, call in calls.items():
        assert stub_keywords(fn) - positional == keywords_the_core_lists(call), fn.__name__
    # A surface solve takes the transfer's keywords but the alignment's.
    aligning = {"alignment", "max_median_gap"}
    listed = keywords_the_core_lists(lambda **k: caudal.solve_surface(rig, [], **k))
    assert (
        stub_keywords(caudal.solve_surface) - {"target_rig", "surfaces", "name", "rate", "times"}
        == listed - aligning
    )
    with pytest.raises(caudal.ParameterError, match="^alignment: a surface solve"):
        caudal.solve_surface(rig, np.zeros((1, rig.vertex_count, 3)), alignment="none")
    # bake_clip takes bake's keywords but the file-wide ones (it keys one clip).
    file_wide = {"rate", "loops", "default_loop"}
    listed = keywords_the_core_lists(lambda **k: caudal.bake_clip(repaired, walk, **k))
    assert stub_keywords(caudal.bake_clip) - positional == listed - file_wide
    for name in file_wide:
        with pytest.raises(caudal.ParameterError, match=f"^{name}: bake_clip keys"):
            caudal.bake_clip(repaired, walk, **{name: None})


def test_error_fields_are_the_python_parameter_names():
    model = caudal.load(asset(FOX))
    rig = model.rig
    repaired, _ = caudal.grow_chains(rig)
    walk = model.clip("Walk")
    args = tiny_rig_args()
    eye2 = np.stack([np.eye(4), np.eye(4)])
    cases = [
        (caudal.Rig, lambda: caudal.Rig(*args, bind_matrices=np.zeros((2, 4, 4)))),
        (caudal.Rig, lambda: caudal.Rig(*args, inverse_bind_matrices=np.zeros((2, 4, 4)))),
        (caudal.Rig, lambda: caudal.Rig(*args)),
        (caudal.Rig, lambda: caudal.Rig(*args[:2], [[0], [0], [5]], *args[3:], bind_matrices=eye2)),
        (
            caudal.Rig,
            lambda: caudal.Rig(*args[:3], [[1.0], [0.5], [1.0]], *args[4:], bind_matrices=eye2),
        ),
        (caudal.Rig, lambda: caudal.Rig(*args[:5], [-1, 7], bind_matrices=eye2)),
        (
            caudal.Clip,
            lambda: caudal.Clip("c", 0.0, np.zeros((2, 2, 3)), np.tile([0, 0, 0, 1.0], (2, 2, 1))),
        ),
        (caudal.Clip, lambda: caudal.Clip("c", 30.0, np.zeros((2, 0, 3)), np.zeros((2, 0, 4)))),
        (model.clip, lambda: model.clip("Nope")),
        (model.clip, lambda: model.clip("Walk", rate=0.0)),
        (model.clip, lambda: model.clip("Walk", rig=caudal.load(asset(WOLF)).rig)),
        (model.clip_together, lambda: model.clip_together(["Walk", "Nope"])),
        (caudal.skin, lambda: caudal.skin(rig, walk, frames=[10_000])),
        (caudal.simulate, lambda: caudal.simulate(repaired, walk)),
        (caudal.bake, lambda: caudal.bake(model, clips=["Nope"])),
        (caudal.bake, lambda: caudal.bake(model, spring={"carry_deg": 1e9})),
        (caudal.bake, lambda: caudal.bake(model, loops={"Walk": "sometimes"})),
        (
            caudal.bake_clip,
            lambda: caudal.bake_clip(repaired, walk.for_rig(repaired), loop="sometimes"),
        ),
        (caudal.stretch_table, lambda: caudal.stretch_table(model, ["Nope"])),
        (caudal.grow_chains, lambda: caudal.grow_chains(rig, max_bones=0)),
        (caudal.find_appendages, lambda: caudal.find_appendages(rig, broad="sometimes")),
        (caudal.edge_stretch, lambda: caudal.edge_stretch(rig, walk, [10**6])),
        (caudal.crouch_clip, lambda: caudal.crouch_clip(repaired, -1.0)),
        (caudal.transfer_clip, lambda: caudal.transfer_clip(rig, walk, rig, mode="sometimes")),
        (caudal.clip_tracks, lambda: caudal.clip_tracks(model, walk.for_rig(repaired))),
        (caudal.TailSpring, lambda: caudal.TailSpring(repaired, carry_deg=1e9)),
    ]
    wrong = []
    for fn, call in cases:
        with pytest.raises(caudal.CaudalError) as e:
            call()
        field = re.split(r"[.\[:]", str(e.value), maxsplit=1)[0]
        if field not in parameter_names(fn, set(caudal.TailSpring(repaired).params())):
            wrong.append((getattr(fn, "__qualname__", fn), str(e.value)))
    assert wrong == [], "\n".join(map(str, wrong))
