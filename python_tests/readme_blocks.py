"""Runs a Markdown file's ```python and ```sh blocks as a reader would, and
checks every value the text shows after ``# ->``.

Conventions (README.md follows them):
- Python blocks run in one interpreter, top to bottom, in one namespace (a
  later block may use a name an earlier one defined). An expression line
  ending in ``# -> VALUE`` must evaluate to VALUE, a Python literal; numbers
  match to the decimals written (``0.994`` accepts 0.9935..0.9945), numpy
  arrays and tuples compare as lists, and text after two spaces is prose.
- Shell lines run one by one with bash; each must exit 0, and a line ending
  in ``# -> TEXT`` must print TEXT. `caudal` is the current interpreter's.
- ``<!-- readme-test: skip: REASON -->`` on the line before a fence leaves
  that block out, with its reason.
- Everything runs in a scratch folder whose ``assets`` is the repository's.

Run as a script (``python readme_blocks.py BLOCKS.json``) it is the Python
side of that: it executes the blocks and prints one JSON line per failure.
"""

from __future__ import annotations

import ast
import io
import json
import os
import re
import subprocess
import sys
import tokenize
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```[ \t]*$", re.M | re.S)
SKIP = re.compile(r"<!--\s*readme-test:\s*skip:\s*(.+?)\s*-->")
SHOWN = re.compile(r"#\s*->\s*(.+?)\s*$")


@dataclass
class Block:
    lang: str
    code: str
    line: int  # line of the block's first code line in the file (1-based)
    skip: str | None = None


def blocks(text: str) -> list[Block]:
    """The fenced python and sh blocks of `text`, in order."""
    out = []
    for m in FENCE.finditer(text):
        lang = m.group(1)
        if lang not in ("python", "sh"):
            continue
        start = text.count("\n", 0, m.start()) + 1  # the fence's line
        before = text[: m.start()].rstrip("\n").rsplit("\n", 1)[-1]
        skip = SKIP.search(before)
        out.append(Block(lang, m.group(2), start + 1, skip.group(1) if skip else None))
    return out


def shown(comment: str) -> str | None:
    """The value after `# ->`, without the prose that follows two spaces."""
    m = SHOWN.search(comment)
    if not m:
        return None
    return re.split(r"\s{2,}", m.group(1).strip())[0]


# --- comparing a value with what the text shows ---------------------------


def plain(x: Any) -> Any:
    """numpy arrays and scalars as Python lists and numbers."""
    if hasattr(x, "tolist"):
        return x.tolist()
    if isinstance(x, tuple):
        return [plain(v) for v in x]
    if isinstance(x, list):
        return [plain(v) for v in x]
    if isinstance(x, dict):
        return {k: plain(v) for k, v in x.items()}
    return x


def agree(actual: Any, node: ast.expr, text: str) -> bool:
    """`actual` against the literal `node` (parsed from `text`), numbers to
    the decimals written."""
    if isinstance(node, (ast.Tuple, ast.List)):
        return (
            isinstance(actual, list)
            and len(actual) == len(node.elts)
            and all(agree(a, n, text) for a, n in zip(actual, node.elts, strict=False))
        )
    if isinstance(node, ast.Dict):
        if not isinstance(actual, dict) or len(actual) != len(node.keys):
            return False
        for k, v in zip(node.keys, node.values, strict=False):
            key = ast.literal_eval(k) if k is not None else None
            if key not in actual or not agree(actual[key], v, text):
                return False
        return True
    value = ast.literal_eval(node)
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return actual is value if not isinstance(value, str) else actual == value
    if (
        isinstance(value, (int, float))
        and isinstance(actual, (int, float))
        and not isinstance(actual, bool)
    ):
        token = ast.get_source_segment(text, node) or repr(value)
        decimals = len(token.split(".")[1]) if "." in token and "e" not in token.lower() else 0
        if isinstance(value, int) and isinstance(actual, int):
            return actual == value
        return abs(actual - value) <= 0.5 * 10.0**-decimals * (1 + 1e-9)
    return bool(actual == value)


def matches(actual: Any, expected: str) -> bool:
    node = ast.parse(expected, mode="eval").body
    return agree(plain(actual), node, expected)


# --- running -----------------------------------------------------------------


def run_python(blocks_: list[Block], cwd: Path) -> list[dict[str, Any]]:
    """Runs the Python blocks in a fresh interpreter in `cwd`; the failures."""
    spec = cwd / ".readme_blocks.json"
    spec.write_text(json.dumps([asdict(b) for b in blocks_]))
    done = subprocess.run(
        [sys.executable, __file__, str(spec)], cwd=cwd, capture_output=True, text=True, timeout=900
    )
    failures = [json.loads(row) for row in done.stdout.splitlines() if row.startswith("{")]
    if done.returncode != 0 and not failures:
        failures.append({"line": 0, "code": "", "error": done.stderr[-3000:]})
    return failures


def run_shell(block: Block, cwd: Path) -> list[dict[str, Any]]:
    """Runs a shell block line by line in `cwd`; the failures."""
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
    }
    failures = []
    lines = block.code.split("\n")
    i = 0
    while i < len(lines):
        first = i
        command = lines[i]
        while command.rstrip().endswith("\\") and i + 1 < len(lines):
            i += 1
            command = command.rstrip()[:-1] + " " + lines[i]
        i += 1
        if not command.strip() or command.lstrip().startswith("#"):
            continue
        want = shown("#" + command.split("#", 1)[1]) if "#" in command else None
        done = subprocess.run(
            ["bash", "-c", command], cwd=cwd, capture_output=True, text=True, env=env, timeout=900
        )
        where = {"line": block.line + first, "code": command.strip()}
        if done.returncode != 0:
            failures.append(
                {**where, "error": f"exit {done.returncode}: {done.stderr.strip()[-2000:]}"}
            )
        elif want is not None and want not in done.stdout:
            failures.append({**where, "error": f"output lacks {want!r}:\n{done.stdout[-2000:]}"})
    return failures


def run(
    text: str, cwd: Path, assets: Path | None = None
) -> tuple[list[Block], list[dict[str, Any]]]:
    """Every block of `text` not marked skip, in `cwd` (with `assets` linked
    in): the blocks and the failures (each with its line in the file)."""
    if assets is not None and not (cwd / "assets").exists():
        (cwd / "assets").symlink_to(assets, target_is_directory=True)
    found = blocks(text)
    todo = [b for b in found if b.skip is None]
    failures = run_python([b for b in todo if b.lang == "python"], cwd)
    for b in todo:
        if b.lang == "sh":
            failures += run_shell(b, cwd)
    return found, failures


# --- the Python side, in its own interpreter ----------------------------------


def statements(block: Block) -> list[tuple[int, str, ast.stmt]]:
    """(first line in the file, source, node) of each top-level statement."""
    tree = ast.parse(block.code)
    lines = block.code.split("\n")
    return [
        (block.line + s.lineno - 1, "\n".join(lines[s.lineno - 1 : s.end_lineno]), s)
        for s in tree.body
    ]


def comments_by_line(code: str) -> dict[int, str]:
    out = {}
    for tok in tokenize.generate_tokens(io.StringIO(code).readline):
        if tok.type == tokenize.COMMENT:
            out[tok.start[0]] = tok.string
    return out


def execute(all_blocks: list[Block]) -> int:
    namespace: dict[str, Any] = {"__name__": "__readme__"}
    failed = 0
    for block in all_blocks:
        try:
            stmts = statements(block)
        except SyntaxError as e:
            print(
                json.dumps(
                    {
                        "line": block.line + (e.lineno or 1) - 1,
                        "code": e.text or "",
                        "error": f"SyntaxError: {e.msg}",
                    }
                ),
                flush=True,
            )
            failed += 1
            continue
        comments = comments_by_line(block.code)
        for line, source, node in stmts:
            want = shown(comments.get(node.end_lineno or node.lineno, ""))
            try:
                if want is not None and isinstance(node, ast.Expr):
                    value = eval(
                        compile(ast.Expression(node.value), f"README.md:{line}", "eval"), namespace
                    )
                    if not matches(value, want):
                        raise AssertionError(f"shows {want}, got {plain(value)!r}")
                else:
                    if want is not None:
                        raise AssertionError("`# ->` follows a statement, not an expression")
                    exec(compile(ast.Module([node], []), f"README.md:{line}", "exec"), namespace)
            except Exception as e:  # noqa: BLE001 - every failure is reported with its line
                print(
                    json.dumps({"line": line, "code": source, "error": f"{type(e).__name__}: {e}"}),
                    flush=True,
                )
                failed += 1
                break  # later lines of this block depend on this one
    return 1 if failed else 0


if __name__ == "__main__":
    spec = json.loads(Path(sys.argv[1]).read_text())
    sys.exit(execute([Block(**b) for b in spec]))
