"""No panic crosses the FFI (issue 14): a panic in the core, should one be
left, comes back as a CaudalError carrying its message (never pyo3's
PanicException, a BaseException that `except Exception` lets through),
prints nothing of its own, and the command line exits 2 with one line."""

from __future__ import annotations

from conftest import asset

import caudal
import caudal._core
from caudal import cli


def test_a_panic_is_a_caudal_error_with_its_message(capfd):
    try:
        caudal._core._selftest_panic("boom at the boundary")
    except Exception as e:  # noqa: BLE001 - the point: an ordinary Exception
        assert isinstance(e, caudal.CaudalError) and isinstance(e, ValueError)
        assert "boom at the boundary" in str(e) and "internal error" in str(e)
    else:
        raise AssertionError("no exception")
    err = capfd.readouterr().err
    assert "panicked" not in err and "backtrace" not in err, err


def test_the_guard_leaves_the_library_working():
    for _ in range(3):
        try:
            caudal._core._selftest_panic("again")
        except caudal.CaudalError:
            pass
    assert caudal.load(asset("fox/Fox.glb")).rig.joint_count == 24


def test_cli_exits_2_with_one_line_on_a_panic(monkeypatch, capsys):
    def panicking_load(*args, **kwargs):
        caudal._core._selftest_panic("boom in the reader")

    monkeypatch.setattr(caudal, "load", panicking_load)
    code = cli.main(["info", str(asset("fox/Fox.glb"))])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and "boom in the reader" in err and "Traceback" not in err, err


def test_cli_exits_2_with_one_line_on_any_unexpected_error(monkeypatch, capsys):
    """A bug in the command line's own Python is one line too (set
    CAUDAL_TRACEBACK=1 for the traceback)."""

    def broken_load(*args, **kwargs):
        raise KeyError("joints")

    monkeypatch.setattr(caudal, "load", broken_load)
    monkeypatch.delenv("CAUDAL_TRACEBACK", raising=False)
    code = cli.main(["info", str(asset("fox/Fox.glb"))])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "internal error" in err and "KeyError" in err, err
