#!/usr/bin/env python3
"""Fails when a function in the Rust core is longer than the limit.

A function that reads as its list of stages is one a newcomer can change: each
stage is a named function (or a small file), and the top function calls them in
order. This check keeps that true. It counts the lines of every `fn` body in
src/**/*.rs, from the line of `fn` to the closing brace, and lists each one
longer than LIMIT.

Functions still to split are listed in TO_SPLIT with their length: each may
only shrink, and its row goes when it is split.

Not counted:
- test code: a `#[cfg(test)]` module or function, and `#[test]` functions;
- data tables: the files in DATA_TABLES, whose long functions are tables of
  numbers or names written as code (the demo corpus's characters).

Usage: python scripts/check_function_length.py [--limit N] [--all] [ROOT]
(--all lists every function over the limit, the excluded ones too, and the
longest ten.)
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from pathlib import Path

# Lines of a function, signature and closing brace included. Eighty lines fits
# a screen: a function longer than that has stages a reader should see named.
LIMIT = 80

# Files whose long functions are data tables, relative to the repository root.
DATA_TABLES: frozenset[str] = frozenset()

# Functions over the limit that are still to split, each with the most lines
# it may have: a number may only shrink. Split one along its stages and
# delete its row (the check says when a function fits the limit and its row
# can go); never add a row or raise a number to let a change through.
TO_SPLIT: dict[str, int] = {
    "src/appendage/detect/candidates.rs::peel_region": 100,
    "src/chain/mod.rs::grow_chains": 115,
    "src/demo/corpus/character.rs::build": 91,
    "src/demo/corpus/glb.rs::write": 218,
    "src/demo/corpus/skeleton.rs::body": 153,
    "src/demo/corpus/spec.rs::force": 91,
    "src/demo/corpus/tail.rs::centre_line": 87,
    "src/demo/corpus/tail.rs::tail_meshes": 90,
    "src/demo/corpus/truth.rs::character_truth": 151,
    "src/demo/glb.rs::creature_glb_with": 135,
    "src/gltf_io/accessor.rs::for_each_element": 89,
    "src/gltf_io/meshopt.rs::decompress": 118,
    "src/gltf_io/meshopt.rs::parse_job": 87,
    "src/gltf_io/sample.rs::tracks_of": 91,
    "src/gltf_io/structure.rs::layout": 99,
    "src/gltf_io/write.rs::drop_forbidden_strides": 89,
    "src/gltf_io/write.rs::write_weights": 88,
    "src/measure/ground/crouch.rs::crouch_clip": 108,
    "src/measure/stretch/mesh.rs::mesh_stretch": 101,
    "src/measure/stretch/report.rs::stretch_report": 90,
    "src/python/rig.rs::new": 92,
    "src/rig/roles/regions.rs::regions": 81,
    "src/rig/roles/structure.rs::new": 164,
    "src/rig/roles/trunk.rs::pelvis_of": 84,
    "src/solve/rotation_only.rs::new": 94,
    "src/solve/surface.rs::solve_measured": 112,
    "src/solve/synthetic.rs::creature": 114,
    "src/spring/params.rs::validate": 94,
    "src/spring/solver.rs::substep_along": 138,
}

FN = re.compile(r"\bfn\s+([A-Za-z_][A-Za-z0-9_]*)")


@dataclass(frozen=True)
class Function:
    """One `fn` with a body: where it is and how long."""

    path: str
    name: str
    line: int
    lines: int
    test: bool


def blank_out(text: str) -> str:
    """The text with comments, strings and char literals replaced by spaces.

    Newlines are kept, so line numbers and brace positions stay where they are.
    """
    out = list(text)
    i, n = 0, len(text)

    def blank(a: int, b: int) -> None:
        for k in range(a, b):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            blank(i, j)
            i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            blank(i, j)
            i = j
        elif c == "r" and re.match(r'r#*"', text[i:]) and (i == 0 or not _ident(text[i - 1])):
            hashes = len(re.match(r"r(#*)", text[i:]).group(1))
            start = i + 1 + hashes + 1
            end = text.find('"' + "#" * hashes, start)
            end = n if end < 0 else end + 1 + hashes
            blank(i, end)
            i = end
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            blank(i, j + 1)
            i = j + 1
        elif c == "'":
            # A char literal ('a', '\n', '\u{..}') or a lifetime ('a): only the
            # literal has a closing quote within a few characters.
            m = re.match(r"'(\\u\{[0-9a-fA-F]+\}|\\.|[^\\'])'", text[i:])
            if m:
                blank(i, i + m.end())
                i += m.end()
            else:
                i += 1
        else:
            i += 1
    return "".join(out)


def _ident(c: str) -> bool:
    return c.isalnum() or c == "_"


def functions(path: Path, rel: str) -> list[Function]:
    """Every `fn` with a body in one file, nested ones included."""
    code = blank_out(path.read_text(encoding="utf-8"))
    line_of = _line_index(code)
    # Test regions: the brace span of an item after #[cfg(test)] or #[test].
    test_spans = [_item_span(code, m.end()) for m in re.finditer(r"#\[(cfg\(test\)|test)\]", code)]
    found = []
    for m in FN.finditer(code):
        span = _body_span(code, m.end())
        if span is None:
            continue  # a declaration without a body (trait item, extern)
        open_, close = span
        start, end = line_of(m.start()), line_of(close)
        test = any(a <= m.start() < b for a, b in test_spans if a is not None)
        found.append(Function(rel, m.group(1), start, end - start + 1, test))
    return found


def _line_index(code: str):
    starts = [0] + [i + 1 for i, c in enumerate(code) if c == "\n"]

    def line_of(pos: int) -> int:
        lo, hi = 0, len(starts)
        while lo + 1 < hi:
            mid = (lo + hi) // 2
            if starts[mid] <= pos:
                lo = mid
            else:
                hi = mid
        return lo + 1

    return line_of


def _body_span(code: str, pos: int) -> tuple[int, int] | None:
    """The braces of the body of the fn whose name ends at pos.

    The signature ends at the first `{` or `;` outside its parentheses, angle
    brackets aside (a `{` cannot appear in a signature outside a where-clause
    const block, which the core does not write).
    """
    depth = 0
    i = pos
    while i < len(code):
        c = code[i]
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        elif depth == 0 and c == ";":
            return None
        elif depth == 0 and c == "{":
            return i, _matching(code, i)
        i += 1
    return None


def _item_span(code: str, pos: int) -> tuple[int | None, int]:
    """From an attribute's end to the close of the next item's braces."""
    i = code.find("{", pos)
    semi = code.find(";", pos)
    if i < 0 or (0 <= semi < i):
        return None, 0
    return pos, _matching(code, i)


def _matching(code: str, open_: int) -> int:
    depth = 0
    for i in range(open_, len(code)):
        if code[i] == "{":
            depth += 1
        elif code[i] == "}":
            depth -= 1
            if depth == 0:
                return i
    return len(code) - 1


def scan(root: Path) -> list[Function]:
    """Every function in src/**/*.rs under root."""
    found = []
    for path in sorted((root / "src").rglob("*.rs")):
        found.extend(functions(path, path.relative_to(root).as_posix()))
    return found


def too_long(root: Path, limit: int = LIMIT, to_split: dict[str, int] | None = None) -> list[str]:
    """What breaks the rule: a function over the limit that is not in
    TO_SPLIT, one in TO_SPLIT that grew, and rows of TO_SPLIT that are no
    longer needed (the function is split, renamed or gone)."""
    to_split = TO_SPLIT if to_split is None else to_split
    problems = []
    seen = set()
    counted = [f for f in scan(root) if not f.test and f.path not in DATA_TABLES]
    for f in sorted(counted, key=lambda f: -f.lines):
        key = f"{f.path}::{f.name}"
        cap = to_split.get(key)
        if cap is not None and f.lines > limit:
            seen.add(key)
        if f.lines <= limit:
            continue
        if cap is None:
            problems.append(
                f"{f.path}:{f.line}: fn {f.name} has {f.lines} lines (limit {limit}): "
                "split it along its stages, the top function reading as their list"
            )
        elif f.lines > cap:
            problems.append(
                f"{f.path}:{f.line}: fn {f.name} has {f.lines} lines, more than the "
                f"{cap} it had when listed in TO_SPLIT: split it rather than grow it"
            )
    for key in sorted(set(to_split) - seen):
        problems.append(f"{key}: no longer over {limit} lines: delete its row from TO_SPLIT")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", nargs="?", default=Path(__file__).resolve().parent.parent)
    parser.add_argument("--limit", type=int, default=LIMIT)
    parser.add_argument("--all", action="store_true", help="list excluded ones too")
    args = parser.parse_args(argv)
    root = Path(args.root)
    if args.all:
        every = sorted(scan(root), key=lambda f: -f.lines)
        for f in every:
            if f.lines > args.limit:
                tag = " (test)" if f.test else " (data table)" if f.path in DATA_TABLES else ""
                print(f"{f.lines:5d}  {f.path}:{f.line}  fn {f.name}{tag}")
        return 0
    problems = too_long(root, args.limit)
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
