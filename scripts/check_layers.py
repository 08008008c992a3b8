"""The layering of the Rust core, measured: fails when a module imports one it must not.

Reads every `crate::X` path in code (comments and doc links are left out: a doc
link is a pointer for the reader, not a dependency) in src/**/*.rs and builds
two graphs:

- between the top modules of src/ (the children lib.rs declares);
- between the submodules inside each top module (`group` -> `tail_spring`),
  through `crate::top::sub`, `super::sub` and the names a module's root file
  re-exports (`use super::TailSpring` is an edge to `tail_spring`).

It fails (exit 1, naming each bad edge and the file:line of one reference) when

(a) `measure` imports `appendage`, `chain`, `spring` or `bake` (measurement
    reads rigs and clips, never the stages that made them);
(b) the top modules form a cycle, or the submodules of one top module do;
(c) a module imports one above it in LAYERS below.

Usage: python scripts/check_layers.py [SRC_DIR]   (default: src beside scripts/)
"""

from __future__ import annotations

import itertools
import re
import sys
from pathlib import Path

# The declared order, lowest first. A module may import only modules on an
# earlier line; modules on one line are beside each other and may not import
# each other. Every top module of src/ must appear.
LAYERS: list[tuple[str, ...]] = [
    # Leaf utilities: the error type and order statistics (nothing of the
    # domain), the panic guard beside the FFI.
    ("error", "stats"),
    # The panic guard beside the FFI; size limits (byte budgets, counts),
    # which the rig's skinning and every reader check against.
    ("guard", "limits"),
    # The rig table, joint roles, clips, skinning: every stage reads it.
    ("rig",),
    # glTF in and out reads into rigs and writes tracks; the stages that bake
    # or grow a file (chain, bake, solve) use its model type, so it sits
    # below them, beside nothing of the pipeline.
    ("gltf_io",),
    # The pipeline stages, each reading only what comes before it.
    ("geometry",),
    ("appendage",),
    ("chain",),
    ("spring",),
    ("bake",),
    # Measurement reads rigs, clips and geometry; solve (clip transfer) is
    # beside it: neither imports the other.
    ("measure", "solve"),
    # The built-in demo writes a creature through gltf_io only, but it is a
    # product (CLI, tests), not a stage: above the stages.
    ("demo",),
    # The whole-pipeline harness: detect, grow, bake, then measure.
    ("pipeline",),
    # The pyo3 binding converts and delegates to everything.
    ("python",),
]

# What measure must never import, whatever the order says (the rule).
MEASURE_MUST_NOT = ("appendage", "chain", "spring", "bake")

LINE_COMMENT = re.compile(r"//.*$")
STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
CRATE_PATH = re.compile(r"\bcrate::([a-z_][a-z0-9_]*)(?:::([A-Za-z_][A-Za-z0-9_]*))?")
CRATE_GROUP = re.compile(r"\bcrate::\{([^}]*)\}")
SUPER_PATH = re.compile(r"\bsuper::([A-Za-z_][A-Za-z0-9_]*)")
SUPER_GROUP = re.compile(r"\bsuper::\{([^}]*)\}")
PUB_USE = re.compile(r"\bpub\s+use\s+([a-z_][a-z0-9_]*)::(\{[^;]*\}|[A-Za-z_][A-Za-z0-9_]*)\s*;")
MOD_DECL = re.compile(r"^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+([a-z_][a-z0-9_]*)\s*;", re.M)


def code_lines(text: str) -> list[str]:
    """Lines with comments and string literals blanked (line numbers kept)."""
    out = []
    in_block = False
    for line in text.splitlines():
        if in_block:
            end = line.find("*/")
            if end < 0:
                out.append("")
                continue
            line = line[end + 2 :]
            in_block = False
        line = STRING.sub('""', line)
        start = line.find("/*")
        if start >= 0 and "*/" not in line[start:]:
            line = line[:start]
            in_block = True
        line = LINE_COMMENT.sub("", line)
        out.append(line)
    return out


def joined(lines: list[str]) -> str:
    return "\n".join(lines)


def group_heads(body: str) -> list[str]:
    """First segment of every path in a `{a::X, b, c::{..}}` use group (depth 1)."""
    heads, depth, cur = [], 0, ""
    for ch in body:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif ch == "," and depth == 0:
            heads.append(cur)
            cur = ""
            continue
        if depth == 0:
            cur += ch
    heads.append(cur)
    return [h.strip().split("::")[0].strip() for h in heads if h.strip()]


class Tree:
    """The files of src/, their top module and submodule."""

    def __init__(self, src: Path):
        self.src = src
        lib = (src / "lib.rs").read_text()
        self.tops = set(MOD_DECL.findall(joined(code_lines(lib))))
        self.files = sorted(p for p in src.rglob("*.rs"))
        # Per top module: its submodules and what its root re-exports from each.
        self.subs: dict[str, set[str]] = {}
        self.reexports: dict[str, dict[str, str]] = {}
        for top in self.tops:
            root = self.root_file(top)
            if root is None:
                continue
            text = joined(code_lines(root.read_text()))
            self.subs[top] = set(MOD_DECL.findall(text))
            names: dict[str, str] = {}
            for sub, items in PUB_USE.findall(text):
                if sub not in self.subs[top]:
                    continue
                for item in group_heads(items.strip("{}")) if items.startswith("{") else [items]:
                    names[item] = sub
            self.reexports[top] = names

    def root_file(self, top: str) -> Path | None:
        for p in (self.src / f"{top}.rs", self.src / top / "mod.rs"):
            if p.exists():
                return p
        return None

    def place(self, path: Path) -> tuple[str | None, str | None, int]:
        """(top module, submodule or None for the root file, depth of the file's module)."""
        parts = path.relative_to(self.src).with_suffix("").parts
        if parts == ("lib",):
            return None, None, 0
        top = parts[0]
        rest = [p for p in parts[1:] if p != "mod"]
        sub = rest[0] if rest else None
        return top, sub, 1 + len(rest)

    def sub_of(self, top: str, name: str) -> str | None:
        """The submodule a name after `top::` means: a submodule, or a re-exported item's home."""
        if name in self.subs.get(top, ()):
            return name
        return self.reexports.get(top, {}).get(name)


def edges(tree: Tree):
    """Yield (kind, from, to, file, line) for every cross-module reference."""
    for path in tree.files:
        top, sub, depth = tree.place(path)
        if top is None or top not in tree.tops:
            continue
        rel = path.relative_to(tree.src.parent)
        for n, line in enumerate(code_lines(path.read_text()), 1):
            refs: list[tuple[str, str | None]] = []
            for m in CRATE_PATH.finditer(line):
                refs.append((m.group(1), m.group(2)))
            for m in CRATE_GROUP.finditer(line):
                refs.extend((h, None) for h in group_heads(m.group(1)))
            for target, second in refs:
                if target not in tree.tops:
                    continue
                if target != top:
                    yield "top", top, target, rel, n
                elif second and sub:
                    other = tree.sub_of(top, second)
                    if other and other != sub:
                        yield "sub", f"{top}::{sub}", f"{top}::{other}", rel, n
            # `super::` from a file directly under the top module names a sibling.
            if depth == 2 and sub:
                names = [m.group(1) for m in SUPER_PATH.finditer(line)]
                for m in SUPER_GROUP.finditer(line):
                    names.extend(group_heads(m.group(1)))
                for name in names:
                    other = tree.sub_of(top, name)
                    if other and other != sub:
                        yield "sub", f"{top}::{sub}", f"{top}::{other}", rel, n


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of the graph as a node list (first == last), or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(u: str) -> list[str] | None:
        state[u] = 1
        stack.append(u)
        for v in sorted(graph.get(u, ())):
            if state.get(v) == 1:
                return stack[stack.index(v) :] + [v]
            if v not in state:
                found = visit(v)
                if found:
                    return found
        stack.pop()
        state[u] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def check(src: Path) -> list[str]:
    tree = Tree(src)
    level = {m: i for i, row in enumerate(LAYERS) for m in row}
    problems = []
    for m in sorted(tree.tops - set(level)):
        problems.append(f"top module {m!r} is not in LAYERS of scripts/check_layers.py")
    where: dict[tuple[str, str], str] = {}
    top_graph: dict[str, set[str]] = {}
    sub_graph: dict[str, set[str]] = {}
    for kind, a, b, rel, n in edges(tree):
        where.setdefault((a, b), f"{rel}:{n}")
        (top_graph if kind == "top" else sub_graph).setdefault(a, set()).add(b)
    for a, targets in sorted(top_graph.items()):
        for b in sorted(targets):
            at = where[(a, b)]
            if a == "measure" and b in MEASURE_MUST_NOT:
                problems.append(f"measure imports {b} ({at}): measure must not import the stages")
            if a in level and b in level and level[b] >= level[a]:
                problems.append(
                    f"{a} imports {b} ({at}): {b} is not below {a} in the declared order"
                )
    for graph in (top_graph, sub_graph):
        for _ in range(100):
            cycle = find_cycle(graph)
            if not cycle:
                break
            steps = ", ".join(f"{a} -> {b} ({where[(a, b)]})" for a, b in itertools.pairwise(cycle))
            problems.append(f"module cycle: {steps}")
            graph[cycle[0]].discard(cycle[1])
    return problems


def main(argv: list[str]) -> int:
    src = Path(argv[1]) if len(argv) > 1 else Path(__file__).resolve().parent.parent / "src"
    problems = check(src)
    for p in problems:
        print(p)
    if problems:
        print(f"layering: {len(problems)} problem(s)")
        return 1
    print("layering: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
