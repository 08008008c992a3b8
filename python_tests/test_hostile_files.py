"""A file is untrusted (issue 14): the reader reads nothing outside the
file's own folder, never blocks on a device or FIFO, checks declared sizes
and a total allocation budget before allocating, and validates every index,
stride and range before use. Each refusal is a GltfError naming the field
and the rule."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest
from hostile import fox, run_isolated, write_glb, write_gltf

import caudal

CANARY = b"CAUDAL-CANARY-" + bytes(range(32, 127)) * 4


def secret_beside(tmp_path, size: int) -> os.PathLike[str]:
    """A file outside the model's folder, as large as the Fox's buffer,
    full of canary bytes: reading it would load a 'model'."""
    d = tmp_path / "secret"
    d.mkdir()
    p = d / "secret.bin"
    p.write_bytes((CANARY * (size // len(CANARY) + 1))[:size])
    return p


# ---- the sandbox: buffer URIs ---------------------------------------------


def test_external_buffer_inside_the_folder_loads(tmp_path):
    doc, bin_ = fox()
    p = write_gltf(tmp_path / "m", doc, bin_, "data/my%20fox.bin", bin_name="data/my fox.bin")
    assert caudal.load(p).rig.vertex_count == 1728


ESCAPES = [
    ("absolute path", lambda tmp: str(tmp / "secret" / "secret.bin")),
    ("dot-dot", lambda tmp: "../secret/secret.bin"),
    ("percent-encoded dot-dot", lambda tmp: "%2e%2e/secret/secret.bin"),
    ("percent-encoded slash", lambda tmp: "..%2Fsecret%2Fsecret.bin"),
    ("file URL", lambda tmp: "file://" + str(tmp / "secret" / "secret.bin")),
    ("proc", lambda tmp: "/proc/self/environ"),
    ("backslash dot-dot", lambda tmp: "..\\secret\\secret.bin"),
]


@pytest.mark.parametrize("name,uri", ESCAPES, ids=[e[0] for e in ESCAPES])
def test_buffer_uri_outside_the_folder_is_refused(tmp_path, name, uri):
    doc, bin_ = fox()
    secret_beside(tmp_path, len(bin_))
    p = write_gltf(tmp_path / "m", doc, bin_, uri(tmp_path), bin_name=None)
    with pytest.raises(caudal.GltfError, match=r"buffers\[0\]\.uri"):
        caudal.load(p)


def test_symlink_out_of_the_folder_is_refused(tmp_path):
    doc, bin_ = fox()
    secret = secret_beside(tmp_path, len(bin_))
    p = write_gltf(tmp_path / "m", doc, bin_, "fox.bin", bin_name=None)
    os.symlink(secret, tmp_path / "m" / "fox.bin")
    with pytest.raises(caudal.GltfError, match=r"buffers\[0\]\.uri.*outside"):
        caudal.load(p)
    # A symlink that stays inside the folder is an ordinary file.
    (tmp_path / "m" / "real.bin").write_bytes(bin_)
    os.remove(tmp_path / "m" / "fox.bin")
    os.symlink("real.bin", tmp_path / "m" / "fox.bin")
    assert caudal.load(p).rig.vertex_count == 1728


def test_devices_and_fifos_are_refused_without_blocking(tmp_path):
    """/dev/zero grew to 2 GB and a FIFO blocked for ever: both are refused
    before a byte is read (a child process, so a hang fails the test)."""
    doc, bin_ = fox()
    m = tmp_path / "m"
    write_gltf(m, doc, bin_, "fifo.bin", bin_name=None, name="fifo.gltf")
    os.mkfifo(m / "fifo.bin")
    os.symlink("/dev/zero", m / "zero.bin")
    write_gltf(m, doc, bin_, "zero.bin", bin_name=None, name="zero.gltf")
    code = textwrap.dedent(
        f"""
        import caudal
        for name in ["fifo.gltf", "zero.gltf"]:
            try:
                caudal.load({str(m)!r} + "/" + name)
                print(name, "LOADED")
            except caudal.GltfError as e:
                print(name, "refused:", e)
        """
    )
    out = run_isolated(code, timeout=30)
    assert out.returncode == 0, out.stderr
    assert "fifo.gltf refused:" in out.stdout and "regular file" in out.stdout
    assert "zero.gltf refused:" in out.stdout


def test_unused_buffer_is_not_read_nor_copied(tmp_path):
    """A buffer no bufferView uses is never opened: not the secret outside
    the folder, not a FIFO; the written file holds none of its bytes."""
    doc, bin_ = fox()
    secret = secret_beside(tmp_path, len(bin_))
    m = tmp_path / "m"
    m.mkdir()
    os.mkfifo(m / "fifo.bin")
    doc["buffers"] = [
        {"byteLength": len(bin_)},
        {"uri": str(secret), "byteLength": len(bin_)},
        {"uri": "fifo.bin", "byteLength": 64},
    ]
    p = write_glb(m / "fox.glb", doc, bin_, describe_chunk=False)
    code = textwrap.dedent(
        f"""
        import caudal
        m = caudal.load({str(p)!r})
        m.write({str(tmp_path / "out.glb")!r})
        print("ok", m.rig.vertex_count)
        """
    )
    out = run_isolated(code, timeout=30)
    assert out.returncode == 0 and "ok 1728" in out.stdout, out.stderr
    assert CANARY[:20] not in (tmp_path / "out.glb").read_bytes()


def test_image_uri_outside_the_folder_is_refused(tmp_path):
    doc, bin_ = fox()
    doc["images"] = [{"uri": "../../etc/passwd"}]
    p = write_glb(tmp_path / "fox.glb", doc, bin_)
    with pytest.raises(caudal.GltfError, match=r"images\[0\]\.uri"):
        caudal.load(p)
    doc["images"] = [{"uri": "textures/fur.png"}]  # inside, even if missing: not read
    assert caudal.load(write_glb(tmp_path / "ok.glb", doc, bin_)).rig.vertex_count == 1728


# ---- declared sizes and the allocation budget -----------------------------


def test_declared_size_is_checked_against_the_file_before_reading(tmp_path):
    doc, bin_ = fox()
    p = write_gltf(tmp_path / "m", doc, bin_, "fox.bin")
    d = __import__("json").loads(p.read_text())
    d["buffers"][0]["byteLength"] = 10**15
    p.write_text(__import__("json").dumps(d))
    with pytest.raises(caudal.GltfError, match=r"buffers\[0\]\.byteLength"):
        caudal.load(p)


def test_total_allocation_is_capped_and_the_cap_can_be_raised(tmp_path):
    """Five thousand nodes instancing the Fox's skinned mesh read its
    accessors five thousand times: a file of 170 kB asking for about 400 MB.
    The budget (max_bytes) refuses it by name; raising it loads the file."""
    doc, bin_ = fox()
    extra = [{"mesh": 0, "skin": 0} for _ in range(5000)]
    first = len(doc["nodes"])
    doc["nodes"] += extra
    doc["scenes"][0]["nodes"] += list(range(first, first + len(extra)))
    p = write_glb(tmp_path / "many.glb", doc, bin_)
    with pytest.raises(caudal.GltfError, match=r"max_bytes"):
        caudal.load(p, max_bytes=50_000_000)
    with pytest.raises(caudal.GltfError, match=r"max_bytes"):
        caudal.load_bytes(p.read_bytes(), max_bytes=50_000_000)
    assert (
        caudal.load(write_glb(tmp_path / "one.glb", *fox()), max_bytes=50_000_000).rig.vertex_count
        == 1728
    )
    with pytest.raises(caudal.ParameterError, match="max_bytes"):
        caudal.load(p, max_bytes=0)


# ---- validation before use --------------------------------------------------


def edit(change):
    doc, bin_ = fox()
    change(doc)
    return doc, bin_


def set_path(doc, path, value):
    o = doc
    for k in path[:-1]:
        o = o[k]
    o[path[-1]] = value


VALIDATION_CASES = [
    (
        "indices on a float accessor",
        lambda d: set_path(d, ["meshes", 0, "primitives", 0, "indices"], 5),
        r"indices",
    ),
    (
        "channel target node out of range",
        lambda d: set_path(d, ["animations", 0, "channels", 0, "target", "node"], 999),
        r"animations\[0\]\.channels\[0\]",
    ),
    (
        "unknown channel path",
        lambda d: set_path(d, ["animations", 0, "channels", 0, "target", "path"], "wiggle"),
        r"animations\[0\]\.channels\[0\]",
    ),
    (
        "attribute accessor out of range",
        lambda d: set_path(d, ["meshes", 0, "primitives", 0, "attributes", "POSITION"], 999),
        r"POSITION|attributes",
    ),
    (
        "odd byteStride",
        lambda d: set_path(d, ["bufferViews", 0, "byteStride"], 13),
        r"bufferViews\[0\]\.byteStride",
    ),
    (
        "byteStride below the element",
        lambda d: set_path(d, ["bufferViews", 0, "byteStride"], 4),
        r"byteStride",
    ),
    (
        "buffer 0 declares 0 bytes",
        lambda d: set_path(d, ["buffers", 0, "byteLength"], 0),
        r"buffers\[0\]\.byteLength",
    ),
    (
        "view past its buffer's declared length",
        lambda d: set_path(d, ["buffers", 0, "byteLength"], 100),
        r"bufferViews\[\d+\].*buffers\[0\]\.byteLength",
    ),
    (
        "accessor offset past its view",
        lambda d: set_path(d, ["accessors", 0, "byteOffset"], 1 << 40),
        r"accessors\[0\]",
    ),
    (
        "accessor count past its view",
        lambda d: set_path(d, ["accessors", 0, "count"], 10**12),
        r"accessors\[0\]",
    ),
    (
        "misaligned accessor offset",
        lambda d: set_path(d, ["accessors", 0, "byteOffset"], 2),
        r"accessors\[0\]\.byteOffset",
    ),
    (
        "skin joint out of range",
        lambda d: set_path(d, ["skins", 0, "joints", 0], 10**6),
        r"skins\[0\]\.joints",
    ),
    (
        "sampler index out of range",
        lambda d: set_path(d, ["animations", 0, "channels", 0, "sampler"], 77),
        r"animations\[0\]\.channels\[0\]",
    ),
    (
        "JOINTS_0 of floats",
        lambda d: set_path(d, ["meshes", 0, "primitives", 0, "attributes", "JOINTS_0"], 3),
        r"JOINTS_0",
    ),
    (
        "node children out of range",
        lambda d: set_path(d, ["nodes", 0, "children"], [4000]),
        r"nodes\[0\]\.children",
    ),
    # Found by fuzz_readers: the gltf crate reads 2^32 as index 0.
    (
        "sampler index past 32 bits",
        lambda d: set_path(d, ["animations", 0, "channels", 0, "sampler"], 2**32),
        r"animations\[0\]\.channels\[0\]\.sampler: index 4294967296",
    ),
    (
        "node index past 32 bits",
        lambda d: set_path(d, ["skins", 0, "joints", 1], 2**32 + 1),
        r"skins\[0\]\.joints\[1\]: index",
    ),
]


@pytest.mark.parametrize(
    "name,change,pattern", VALIDATION_CASES, ids=[c[0] for c in VALIDATION_CASES]
)
def test_invalid_file_is_a_gltf_error_naming_the_field(tmp_path, name, change, pattern):
    doc, bin_ = edit(change)
    p = write_glb(tmp_path / "bad.glb", doc, bin_, describe_chunk="byteLength" not in pattern)
    code = textwrap.dedent(
        f"""
        import caudal
        try:
            m = caudal.load({str(p)!r})
            for name in m.clip_names:
                m.clip(name)
            m.write({str(tmp_path / "out.glb")!r})
            print("LOADED")
        except caudal.GltfError as e:
            print("GltfError:", e)
        """
    )
    out = run_isolated(code)
    assert out.returncode == 0 and out.stdout.startswith("GltfError:"), out.stdout + out.stderr
    import re

    assert re.search(pattern, out.stdout), out.stdout
    assert not (tmp_path / "out.glb").exists()


def test_an_empty_first_skin_beside_a_real_one(tmp_path):
    """A first skin with no joints, no mesh using it: the Fox loads from
    its second skin, and writes back a file that reads. A mesh bound to the
    empty skin is a GltfError naming it."""
    doc, bin_ = fox()
    doc["skins"].insert(0, {"joints": [], "name": "empty"})
    for n in doc["nodes"]:
        if "skin" in n:
            n["skin"] += 1
    p = write_glb(tmp_path / "two_skins.glb", doc, bin_)
    m = caudal.load(p)
    assert len(m.characters) == 1 and m.rig.vertex_count == 1728
    m.write(tmp_path / "out.glb")
    assert caudal.load(tmp_path / "out.glb").rig.joint_count == m.rig.joint_count
    for n in doc["nodes"]:
        if "skin" in n:
            n["skin"] = 0
    with pytest.raises(caudal.GltfError, match=r"skin 0.*no joints"):
        caudal.load(write_glb(tmp_path / "bound_to_empty.glb", doc, bin_))


def test_cli_refusal_is_one_line_exit_2(tmp_path):
    doc, bin_ = edit(lambda d: set_path(d, ["meshes", 0, "primitives", 0, "indices"], 5))
    p = write_glb(tmp_path / "bad.glb", doc, bin_)
    out = subprocess.run(
        [sys.executable, "-m", "caudal.cli", "tail", str(p), "-o", str(tmp_path / "o.glb")],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 2
    assert (
        out.stderr.count("\n") == 1
        and "Traceback" not in out.stderr
        and "panicked" not in out.stderr
    ), out.stderr
    assert not (tmp_path / "o.glb").exists()


def test_an_input_that_is_a_fifo_or_a_device_is_refused(tmp_path):
    os.mkfifo(tmp_path / "in.glb")
    code = textwrap.dedent(
        f"""
        import caudal
        for p in [{str(tmp_path / "in.glb")!r}, "/dev/zero", {str(tmp_path)!r}]:
            try:
                caudal.load(p)
                print(p, "LOADED")
            except caudal.GltfError as e:
                print(p, "refused:", e)
        """
    )
    out = run_isolated(code, timeout=30)
    assert out.returncode == 0, out.stderr
    assert out.stdout.count("refused:") == 3 and "regular file" in out.stdout, out.stdout
