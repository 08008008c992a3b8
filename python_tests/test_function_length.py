"""Functions in the Rust core stay short (scripts/check_function_length.py):
none over the limit except the listed ones still to split, and those only
shrink. The checker is also run on small trees with known answers, so a
parser that stopped seeing functions would fail here too."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from conftest import ROOT

SCRIPT = ROOT / "scripts" / "check_function_length.py"


def checker():
    spec = importlib.util.spec_from_file_location("check_function_length", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def write_tree(root: Path, code: str) -> None:
    (root / "src").mkdir()
    (root / "src" / "lib.rs").write_text(code)


def body(lines: int) -> str:
    return "\n".join(f"    let _x{i} = {i};" for i in range(lines))


def test_the_core_meets_the_limit():
    problems = checker().too_long(ROOT)
    assert problems == [], "\n".join(problems)


def test_every_listed_function_is_still_over_the_limit_and_in_the_tree():
    c = checker()
    found: dict[str, int] = {}
    for f in c.scan(ROOT):
        if not f.test:
            key = f"{f.path}::{f.name}"
            found[key] = max(found.get(key, 0), f.lines)
    for key, cap in c.TO_SPLIT.items():
        assert key in found, f"{key} is listed but not in the tree"
        assert c.LIMIT < found[key] <= cap, (key, found[key], cap)


def test_a_long_function_is_found_and_measured(tmp_path):
    c = checker()
    code = (
        "/// Short.\n"
        "pub fn short() {\n" + body(3) + "\n}\n\n"
        "fn long(a: [u8; 2]) -> u8 {\n" + body(90) + '\n    let s = "}}}{";\n'
        "    let c = '}';\n    // }\n    /* { */\n    a[0]\n}\n"
    )
    write_tree(tmp_path, code)
    found = {f.name: f.lines for f in c.scan(tmp_path)}
    assert found == {"short": 5, "long": 90 + 7}
    problems = c.too_long(tmp_path, to_split={})
    assert len(problems) == 1 and "fn long has 97 lines" in problems[0]


def test_test_code_and_declarations_are_not_counted(tmp_path):
    c = checker()
    code = (
        "pub trait T {\n    fn declared(&self);\n}\n\n"
        "#[cfg(test)]\nmod tests {\n    #[test]\n    fn long_test() {\n"
        + body(100)
        + "\n    }\n}\n\n"
        "#[test]\nfn another() {\n" + body(100) + "\n}\n"
    )
    write_tree(tmp_path, code)
    functions = c.scan(tmp_path)
    assert {f.name for f in functions} == {"long_test", "another"}
    assert all(f.test for f in functions)
    assert c.too_long(tmp_path, to_split={}) == []


def test_a_listed_function_may_not_grow(tmp_path):
    c = checker()
    write_tree(tmp_path, "fn stages() {\n" + body(95) + "\n}\n")
    assert c.too_long(tmp_path, to_split={"src/lib.rs::stages": 97}) == []
    grew = c.too_long(tmp_path, to_split={"src/lib.rs::stages": 90})
    assert len(grew) == 1 and "more than the 90" in grew[0]
    split = tmp_path / "split"
    split.mkdir()
    write_tree(split, "fn stages() {\n" + body(5) + "\n}\n")
    stale = c.too_long(split, to_split={"src/lib.rs::stages": 97})
    assert len(stale) == 1 and "delete its row" in stale[0]
