"""One licence, stated the same way everywhere: Cargo.toml and pyproject.toml
give the SPDX expression, the Blender manifest lists its licences one
identifier each, and the texts are in the repository (and in the zip:
test_addon_extension.py)."""

from __future__ import annotations

import re
import tomllib

from conftest import ROOT

EXPRESSION = "MIT OR Apache-2.0"


def identifiers(expression: str) -> set[str]:
    """The licences of an `A OR B` expression (a choice among them)."""
    assert " AND " not in expression and "WITH" not in expression
    return {part.strip() for part in expression.split(" OR ")}


def test_the_three_manifests_state_one_licence():
    cargo = tomllib.loads((ROOT / "Cargo.toml").read_text())["package"]["license"]
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    blender = tomllib.loads((ROOT / "addon" / "blender_manifest.toml").read_text())["license"]
    assert cargo == project["license"] == EXPRESSION
    assert all(entry.startswith("SPDX:") for entry in blender)
    assert (
        {entry.removeprefix("SPDX:") for entry in blender}
        == identifiers(EXPRESSION)
        == {"MIT", "Apache-2.0"}
    )
    assert sorted(project["license-files"]) == ["LICENSE", "LICENSE-APACHE", "LICENSE-MIT"]


def test_the_texts_are_there():
    assert "MIT OR Apache-2.0" in (ROOT / "LICENSE").read_text()
    apache = (ROOT / "LICENSE-APACHE").read_text()
    assert (
        "Apache License" in apache
        and "Version 2.0, January 2004" in apache
        and "END OF TERMS AND CONDITIONS" in apache
    )
    mit = (ROOT / "LICENSE-MIT").read_text()
    assert (
        re.search(r"Copyright \(c\) \d{4} caudal developers", mit)
        and "WITHOUT WARRANTY OF ANY KIND" in mit
    )


def test_the_manifest_claims_the_blender_versions_docs_state():
    m = tomllib.loads((ROOT / "addon" / "blender_manifest.toml").read_text())
    assert (m["blender_version_min"], m["blender_version_max"]) == ("4.2.0", "6.0.0")
    doc = (ROOT / "docs" / "blender.md").read_text()
    assert doc.startswith("# caudal in Blender\n\n## Install\n")
    for step in (
        "Edit > Preferences > Get Extensions",
        "Install from Disk",
        "4.2 LTS to 5.x",
        "linux-x64",
    ):
        assert step in doc, step
