"""The README stays a front door and the docs hold together: README is at
most 200 lines and says where to add a collider and a measurement; every
"SPEC <id>" the code cites has its section in docs/design.md; every relative
link in README and docs/ reaches a file (and the heading or anchor it names);
every figure table moved out of README keeps the command that reproduces it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import ROOT

README = ROOT / "README.md"
DESIGN = ROOT / "docs" / "design.md"
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]

CITED_IN = ["src", "addon", "python_tests", "rust_tests", "benches", "examples", "scripts"]
SOURCE_SUFFIXES = {".rs", ".py", ".pyi", ".sh", ".toml"}

# "SPEC T8", "SPEC T4a", "SPEC T1-T10", "SPEC S1-S8", "SPEC X": a part
# letter, an optional number and letter, an optional range.
SPEC = re.compile(r"\bSPEC\s+([A-Z])(\d+)?([a-z])?(?:\s*[-\u2013]\s*([A-Z])?(\d+)([a-z])?)?\b")
ANCHOR = re.compile(r"""<a\s+id=["']([^"']+)["']""")
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.M | re.S)


def cited_ids(text: str) -> set[str]:
    """The section ids `text` cites, ranges expanded (T1-T3: T1, T2, T3)."""
    out = set()
    for part, first, letter, _, last, last_letter in SPEC.findall(text):
        if not first:
            out.add(part)
        elif last:
            out.update(f"{part}{n}" for n in range(int(first), int(last) + 1))
            if last_letter:
                out.add(f"{part}{last}{last_letter}")
            if letter:
                out.add(f"{part}{first}{letter}")
        else:
            out.add(f"{part}{first}{letter}")
    return out


def sources():
    yield from PAGES
    for top in CITED_IN:
        for path in sorted((ROOT / top).rglob("*")):
            if path.suffix in SOURCE_SUFFIXES and path.is_file() and "target" not in path.parts:
                yield path


def slug(heading: str) -> str:
    """GitHub's anchor for a Markdown heading."""
    text = re.sub(r"[`*_]|<[^>]+>", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    found = set(ANCHOR.findall(text))
    seen: dict[str, int] = {}
    for line in text.splitlines():
        m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if m:
            base = slug(m.group(1))
            n = seen.get(base, 0)
            found.add(base if n == 0 else f"{base}-{n}")
            seen[base] = n + 1
    return found


def test_readme_is_a_front_door():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 200, f"README.md has {len(lines)} lines (at most 200)"
    text = "\n".join(lines)
    # A newcomer finds from README alone where a collider and a measurement go.
    where = text[text.index("### Where things live") :]
    collider = next(row for row in where.splitlines() if "collider" in row)
    assert "src/spring/" in collider and "BodyPose" in collider, collider
    measurement = next(row for row in where.splitlines() if "measurement" in row)
    assert "src/measure/" in measurement, measurement
    for heading in ["## Two commands", "## Python quick start", "## Command line quick start"]:
        assert heading in text, heading
    for heading in ["## Blender", "## Layout", "## Credits"]:
        assert heading in text, heading


def test_every_cited_spec_section_has_its_anchor_in_design_md():
    have = set(ANCHOR.findall(DESIGN.read_text(encoding="utf-8")))
    missing = {}
    count = 0
    for path in sources():
        ids = cited_ids(path.read_text(encoding="utf-8", errors="replace"))
        count += len(ids)
        for i in sorted(ids - have):
            missing.setdefault(i, str(path.relative_to(ROOT)))
    assert count > 50, "the code cites the design: the pattern must find it"
    assert missing == {}, f"cited but not in docs/design.md: {missing}"


def test_the_spec_pattern_reads_every_form():
    text = "SPEC T8, SPEC T4a, (SPEC T1-T3), SPEC X; SPEC S1-S2 and SPEC T4a-T4b"
    assert cited_ids(text) == {"T8", "T4a", "T1", "T2", "T3", "X", "S1", "S2", "T4", "T4b"}
    assert cited_ids("INSPECT T8, SPECIAL T9, PROTRUSION_ASPECT") == set()


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(page):
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    broken = []
    for target in LINK.findall(text):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto:
            continue
        path, _, fragment = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        if not dest.exists():
            broken.append(target)
        elif fragment and dest.suffix == ".md" and fragment not in anchors(dest):
            broken.append(target)
    assert broken == [], f"{page.name}: links that do not resolve: {broken}"


def test_the_anchor_reader_knows_headings():
    assert slug("Where caudal departs from the design") == "where-caudal-departs-from-the-design"
    assert slug("I/O") == "io"
    assert slug("`caudal batch`") == "caudal-batch"
    assert slug("The collar: where tail meets body") == "the-collar-where-tail-meets-body"


def tables(text: str) -> list[tuple[int, list[str]]]:
    """(line after the table, rows) of every Markdown table outside code."""
    out, rows = [], []
    lines = FENCE.sub(lambda m: "\n" * m.group(0).count("\n"), text).splitlines()
    for i, line in enumerate(lines + [""]):
        if line.startswith("|"):
            rows.append(line)
        elif rows:
            out.append((i, rows))
            rows = []
    return out


FIGURE = re.compile(r"\d[\d,.]*\s*(%|ms|M/s|s\b|M\b|x\b)|\b\d+\.\d+\b")
COMMAND = re.compile(r"`(cargo |python |caudal |bash )[^`]*`")


NOT_REPRODUCED_HERE = {
    "design.md": "the articles' published figures, measured outside this repository",
    "bake-and-measure.md": "a record of issue 5's measurements, kept as they were",
}
"""Pages whose tables are not caudal's current figures, and why."""

NOT_FIGURES = {"| | |", "| piece | file | what it gives |"}
"""Tables of facts or names whose cells happen to hold numbers."""


@pytest.mark.parametrize(
    "name",
    sorted(p.name for p in (ROOT / "docs").glob("*.md") if p.name not in NOT_REPRODUCED_HERE),
)
def test_figure_tables_say_how_to_reproduce(name):
    """Each table of measured figures has the command that prints it next to
    it: in the paragraph right under it (the pages moved out of README), or
    right above it (the pages written that way)."""
    text = (ROOT / "docs" / name).read_text(encoding="utf-8")
    lines = text.splitlines()
    missing = []
    for after, rows in tables(text):
        body = rows[2:]
        if (
            rows[0] in NOT_FIGURES
            or "default" in rows[0]
            or not any(FIGURE.search(r) for r in body)
        ):
            continue  # parameters, columns, names: not measured figures
        following = "\n".join(lines[after : after + 8])
        preceding = "\n".join(lines[max(0, after - len(rows) - 6) : after - len(rows)])
        if not (COMMAND.search(following) or COMMAND.search(preceding)):
            missing.append(rows[0])
    assert missing == [], f"{name}: figure tables without their command: {missing}"
