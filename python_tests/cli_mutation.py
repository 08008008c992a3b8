"""Mutation testing of the command line (issue 14): damaged variants of the
repository's assets run through ``caudal tail`` and ``caudal info`` in a
child process (30 s timeout, 4 GiB address-space limit), each outcome
checked against the rules:

- no panic, no abort or crash, no hang, no Python traceback;
- a failure is exit code 2 with one line on stderr and no file written
  (no partial output, no report, no temporary);
- a success writes exactly the output and its report, the output loads
  again, and neither holds a byte of the secret file placed outside the
  input's folder (a symlink to it and a FIFO sit inside the folder, and the
  mutations aim URIs at them).

Used by ``test_cli_mutation.py`` (a few dozen variants) and by
``benches/mutate_cli.py`` (thousands, the figures in docs/gltf-io.md)."""

from __future__ import annotations

import copy
import json
import os
import random
import resource
import shutil
import signal
import struct
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CANARY = b"CAUDAL-CLI-CANARY-5d2b8e"
TIMEOUT_S = 30.0
ADDRESS_SPACE = 4 << 30

# Seeds: every kind the reader meets (skinned GLB, several characters,
# meshopt and quantized, glTF JSON with data URIs, an external .bin).
SEEDS = [
    "fox/Fox.glb",
    "fox/Fox_notail.glb",
    "koi_fish/Koi.glb",
    "snake/Snake.glb",
    "cesium_man/CesiumMan.glb",
    "robot_expressive/RobotExpressive.glb",
    "zebra/zebra_notail.glb",
    "rat/rat_notail.glb",
    "horse_rigify/horse_rigify_notail.glb",
    "quaternius_alpaca/Alpaca_notail.glb",
    "quaternius_alpaca/Alpaca.gltf",
    "elephant_meshopt/elephant.glb",
    "fox/Fox.glb#external",
]

HOSTILE_URIS = [
    "../../outside/secret.bin",
    "%2e%2e/%2e%2e/outside/secret.bin",
    "..%2F..%2Foutside%2Fsecret.bin",
    "link.bin",
    "fifo.bin",
    "/dev/zero",
    "/proc/self/environ",
    "/etc/passwd",
    "file:///etc/passwd",
    "missing.bin",
    "",
]

INTERESTING = [
    0,
    1,
    -1,
    2,
    3,
    4,
    13,
    255,
    256,
    65535,
    65536,
    2**31 - 1,
    2**31,
    2**32 - 1,
    2**32,
    2**53,
    10**15,
    1e7,
    3.4e38,
    -3.4e38,
    1e300,
    0.5,
    5121,
    5123,
    5126,
]
STRINGS = [
    "wiggle",
    "translation",
    "rotation",
    "scale",
    "SCALAR",
    "VEC3",
    "VEC4",
    "MAT4",
    "STEP",
    "CUBICSPLINE",
    "POSITION",
    "JOINTS_0",
    "KHR_draco_mesh_compression",
    "",
]


def split_glb(raw: bytes) -> tuple[dict[str, Any], bytes] | None:
    if raw[:4] != b"glTF" or len(raw) < 20:
        return None
    jlen = struct.unpack_from("<I", raw, 12)[0]
    try:
        doc = json.loads(raw[20 : 20 + jlen])
    except ValueError:
        return None
    off = 20 + jlen
    blen = struct.unpack_from("<I", raw, off)[0] if off + 8 <= len(raw) else 0
    return doc, raw[off + 8 : off + 8 + blen]


def join_glb(doc: dict[str, Any], bin_: bytes) -> bytes:
    js = json.dumps(doc).encode()
    js += b" " * (-len(js) % 4)
    bin_ = bin_ + b"\0" * (-len(bin_) % 4)
    total = 12 + 8 + len(js) + (8 + len(bin_) if bin_ else 0)
    out = b"glTF" + struct.pack("<II", 2, total) + struct.pack("<I", len(js)) + b"JSON" + js
    if bin_:
        out += struct.pack("<I", len(bin_)) + b"BIN\0" + bin_
    return out


def _paths(v: Any, at: tuple[Any, ...], out: list[tuple[Any, ...]]) -> None:
    if isinstance(v, dict):
        for k, c in v.items():
            out.append(at + (k,))
            _paths(c, at + (k,), out)
    elif isinstance(v, list):
        for i, c in enumerate(v):
            out.append(at + (i,))
            _paths(c, at + (i,), out)


def _get(doc: Any, path: tuple[Any, ...]) -> Any:
    for k in path:
        doc = doc[k]
    return doc


def _set(doc: Any, path: tuple[Any, ...], value: Any) -> None:
    _get(doc, path[:-1])[path[-1]] = value


def mutate_json(doc: dict[str, Any], rng: random.Random) -> None:
    """One structure-aware edit (the twin of examples/fuzz_readers/mutate.rs)."""
    paths: list[tuple[Any, ...]] = []
    _paths(doc, (), paths)
    if not paths:
        return
    kind = rng.randrange(12)
    if kind <= 3:
        nums = [
            p
            for p in paths
            if isinstance(_get(doc, p), (int, float)) and not isinstance(_get(doc, p), bool)
        ]
        if nums:
            p = rng.choice(nums)
            old = _get(doc, p)
            _set(doc, p, rng.choice([old + 1, old - 1, old * 2 + 1, rng.choice(INTERESTING)]))
    elif kind == 4:
        strs = [p for p in paths if isinstance(_get(doc, p), str)]
        if strs:
            _set(doc, rng.choice(strs), rng.choice(HOSTILE_URIS if rng.random() < 0.3 else STRINGS))
    elif kind == 5:
        p = rng.choice(paths)
        parent = _get(doc, p[:-1])
        if isinstance(parent, dict):
            parent.pop(p[-1], None)
        elif isinstance(parent, list) and p[-1] < len(parent):
            parent.pop(p[-1])
    elif kind == 6:
        a, b = rng.choice(paths), rng.choice(paths)
        if b[: len(a)] != a:
            _set(doc, a, copy.deepcopy(_get(doc, b)))
    elif kind == 7:
        arrays = [p for p in paths if isinstance(_get(doc, p), list) and _get(doc, p)]
        if arrays:
            arr = _get(doc, rng.choice(arrays))
            arr.append(copy.deepcopy(rng.choice(arr)))
    elif kind == 8 and doc.get("nodes"):
        n = len(doc["nodes"])
        node = doc["nodes"][rng.randrange(n)]
        children = node.setdefault("children", []) if isinstance(node, dict) else None
        if isinstance(children, list):
            children.append(rng.randrange(n))
    elif kind == 9 and doc.get("buffers"):
        b = doc["buffers"][rng.randrange(len(doc["buffers"]))]
        if isinstance(b, dict):
            b["uri"] = rng.choice(HOSTILE_URIS)
    elif kind == 10:
        coll, keys = rng.choice(
            [
                ("bufferViews", ["byteStride", "byteOffset", "byteLength", "buffer"]),
                ("accessors", ["count", "byteOffset", "componentType", "bufferView"]),
            ]
        )
        items = doc.get(coll)
        if isinstance(items, list) and items and isinstance(items[0], dict):
            rng.choice(items)[rng.choice(keys)] = int(rng.choice(INTERESTING))
    elif doc.get("animations"):
        a = rng.choice(doc["animations"])
        chans = a.get("channels") if isinstance(a, dict) else None
        if isinstance(chans, list) and chans and isinstance(chans[0], dict):
            ch = rng.choice(chans)
            what = rng.randrange(3)
            if what == 0:
                ch.setdefault("target", {})["node"] = rng.randrange(4096)
            elif what == 1:
                ch.setdefault("target", {})["path"] = rng.choice(STRINGS)
            else:
                ch["sampler"] = rng.randrange(64)


def mutate_bytes(b: bytearray, rng: random.Random) -> None:
    if not b:
        b.append(rng.randrange(256))
        return
    kind = rng.randrange(5)
    if kind == 0:
        for _ in range(1 + rng.randrange(8)):
            b[rng.randrange(len(b))] ^= 1 << rng.randrange(8)
    elif kind == 1:
        i = rng.randrange(max(1, len(b) - 3))
        b[i : i + 4] = struct.pack(
            "<I",
            rng.choice(
                [0, 1, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0x7F800000, 0xFFC00000, 0x4B189680]
            ),
        )
    elif kind == 2:
        del b[rng.randrange(len(b)) :]
    elif kind == 3:
        i = rng.randrange(len(b))
        b[i:i] = bytes(rng.randrange(256) for _ in range(1 + rng.randrange(64)))
    else:
        a = rng.randrange(len(b))
        chunk = b[a : a + 1 + rng.randrange(4096)]
        i = rng.randrange(len(b))
        b[i:i] = chunk


@dataclass
class Variant:
    index: int
    seed: str
    files: dict[str, bytes]  # name in the input folder -> bytes
    input_name: str
    command: list[str]
    mutations: list[str] = field(default_factory=list)


def make_variant(index: int, rng: random.Random) -> Variant:
    seed = SEEDS[index % len(SEEDS)]
    rel, _, flavour = seed.partition("#")
    raw = (ROOT / "assets" / rel).read_bytes()
    files: dict[str, bytes] = {}
    name = "model" + Path(rel).suffix
    done: list[str] = []
    parts = split_glb(raw)
    if flavour == "external" and parts is not None:
        doc, bin_ = parts
        doc["buffers"] = [{"uri": "model.bin", "byteLength": len(bin_)}]
        files["model.bin"] = bin_
        raw, name, parts = json.dumps(doc).encode(), "model.gltf", None
    kind = rng.randrange(100)
    if kind < 12:
        b = bytearray(raw)
        for _ in range(1 + rng.randrange(3)):
            mutate_bytes(b, rng)
        done.append("bytes")
        files[name] = bytes(b)
    elif parts is not None:
        doc, bin_ = parts
        bb = bytearray(bin_)
        if kind < 55 or kind >= 85:
            for _ in range(1 + rng.randrange(3)):
                mutate_json(doc, rng)
            done.append("json")
        if 55 <= kind < 85 or kind >= 95:
            for _ in range(1 + rng.randrange(3)):
                mutate_bytes(bb, rng)
            done.append("bin")
        try:
            files[name] = join_glb(doc, bytes(bb))
        except (TypeError, ValueError):
            files[name] = raw
    else:
        try:
            doc = json.loads(raw)
            for _ in range(1 + rng.randrange(3)):
                mutate_json(doc, rng)
            done.append("json")
            if "model.bin" in files and rng.random() < 0.5:
                bb = bytearray(files["model.bin"])
                mutate_bytes(bb, rng)
                files["model.bin"] = bytes(bb)
                done.append("bin")
            files[name] = json.dumps(doc).encode()
        except (TypeError, ValueError, RecursionError):
            files[name] = raw
    roll = rng.random()
    if roll < 0.2:
        command = ["info", "{in}"]
    elif roll < 0.3:
        command = ["tail", "{in}", "-o", "{out}/out.glb", "--report", "{out}/report.json", "--bake"]
    elif roll < 0.4:
        command = ["tail", "{in}", "-o", "{out}/out.gltf", "--report", "{out}/report.json"]
    else:
        command = ["tail", "{in}", "-o", "{out}/out.glb", "--report", "{out}/report.json"]
    return Variant(index, seed, files, name, command, done)


def prepare_work(work: Path) -> None:
    """The secret outside every case folder (its path climbs two levels)."""
    (work / "outside").mkdir(parents=True, exist_ok=True)
    (work / "outside" / "secret.bin").write_bytes(CANARY * ((4 << 20) // len(CANARY)))


def _limits() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))


@dataclass
class Outcome:
    variant: Variant
    verdict: str  # ok-written, ok-info, refused, or a rule broken
    detail: str = ""
    seconds: float = 0.0


BROKEN = (
    "panic",
    "abort",
    "crash",
    "hang",
    "traceback",
    "partial",
    "no-reload",
    "leak",
    "bad-exit",
    "noisy-error",
)


def run_variant(v: Variant, work: Path, keep: bool = False) -> Outcome:
    import time

    import caudal

    case = work / f"case-{v.index}"
    shutil.rmtree(case, ignore_errors=True)
    inp, out = case / "in", case / "out"
    inp.mkdir(parents=True)
    out.mkdir()
    for n, data in v.files.items():
        (inp / n).write_bytes(data)
    os.symlink("../../outside/secret.bin", inp / "link.bin")
    os.mkfifo(inp / "fifo.bin")
    cmd = [a.replace("{in}", str(inp / v.input_name)).replace("{out}", str(out)) for a in v.command]
    env = {**os.environ, "RAYON_NUM_THREADS": "1", "RUST_BACKTRACE": "0"}
    env.pop("CAUDAL_TRACEBACK", None)
    t0 = time.perf_counter()
    try:
        r = subprocess.run(
            [sys.executable, "-m", "caudal.cli", *cmd],
            capture_output=True,
            text=True,
            timeout=TIMEOUT_S,
            preexec_fn=_limits,
            env=env,
            cwd=case,
        )
    except subprocess.TimeoutExpired:
        return Outcome(v, "hang", f"past {TIMEOUT_S:.0f} s", time.perf_counter() - t0)
    dt = time.perf_counter() - t0

    def result(verdict: str, detail: str = "") -> Outcome:
        if not keep and verdict not in BROKEN:
            shutil.rmtree(case, ignore_errors=True)
        return Outcome(v, verdict, detail, dt)

    err = r.stderr
    if "panicked" in err or "PanicException" in err:
        return result("panic", err[-500:])
    if r.returncode < 0:
        sig = -r.returncode
        return result("abort" if sig == signal.SIGABRT else "crash", f"signal {sig}: {err[-300:]}")
    if "Traceback" in err:
        return result("traceback", err[-800:])
    written = sorted(os.listdir(out))
    if r.returncode == 2:
        if err.count("\n") != 1:
            return result("noisy-error", err[-500:])
        if written:
            return result("partial", f"after a refusal: {written}")
        return result("refused", err.strip())
    if r.returncode != 0:
        return result("bad-exit", f"exit {r.returncode}: {err[-300:]}")
    if v.command[0] == "info":
        return result("ok-info")
    want = sorted(Path(a).name for a in cmd if a.startswith(str(out)))
    if written != want:
        return result("partial", f"wrote {written}, expected {want}")
    for n in written:
        if CANARY in (out / n).read_bytes():
            return result("leak", f"{n} holds bytes of outside/secret.bin")
    target = out / want[0] if want[0].startswith("out") else out / want[1]
    try:
        caudal.load(target)
    except Exception as e:  # noqa: BLE001 - any failure to reload breaks the rule
        return result("no-reload", f"{type(e).__name__}: {e}")
    return result("ok-written")
