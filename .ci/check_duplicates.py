"""The duplicate-code gate: `duplicates` (the team's tool, on the CI
machine's PATH) over the tree, failing on any pair of six or more lines it
does not mark as boilerplate, apart from the pairs listed in
.ci/duplicates-allowlist.txt, each with its reason: twins (a check written
twice on purpose, in two languages, so one can catch the other), test data
tables, and pyo3 signatures two classes must each declare.

Boilerplate rows (struct field lists, signatures: lines of the same shape
with nothing to share) are counted and printed, not failed. Where the tool is
not installed the step says so and passes: it is a review aid, not a build
dependency.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ROW = re.compile(r"^D\d+ (\S+?):\d+-\d+ ~ (\S+?):\d+-\d+(.*)$")


def allowed_pairs() -> set[frozenset[str]]:
    pairs = set()
    for line in (ROOT / ".ci" / "duplicates-allowlist.txt").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            a, b = line.split()
            pairs.add(frozenset((a, b)))
    return pairs


def main() -> int:
    if shutil.which("duplicates") is None:
        print("duplicates: not installed here, step skipped")
        return 0
    out = subprocess.run(
        ["duplicates", "--most", "200", "--seconds", "300"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    allow = allowed_pairs()
    failing, boilerplate, twins = [], 0, 0
    for line in out.splitlines():
        m = ROW.match(line)
        if not m:
            if line.startswith("incomplete:"):
                failing.append(line)
            continue
        a, b, rest = m.groups()
        if "boilerplate" in rest:
            boilerplate += 1
        elif frozenset((a, b)) in allow:
            twins += 1
        else:
            failing.append(line)
    print(
        f"duplicates: {len(failing)} pairs to remove, {boilerplate} boilerplate rows, "
        f"{twins} allowed (twins, data tables, signatures)"
    )
    for line in failing:
        print("  " + line)
    return 1 if failing else 0


if __name__ == "__main__":
    sys.exit(main())
