"""The repository tests itself: every model the tests read is in assets/,
listed in assets/MANIFEST.json with its source, licence, credit and sha256."""

from __future__ import annotations

import hashlib
import json

from conftest import ASSETS


def test_manifest_lists_every_model_with_its_hash_and_licence() -> None:
    rows = json.loads((ASSETS / "MANIFEST.json").read_text(encoding="utf-8"))
    listed = {r["path"] for r in rows}
    on_disk = {
        p.relative_to(ASSETS).as_posix()
        for p in ASSETS.rglob("*")
        if p.suffix in (".glb", ".gltf", ".json") and p.name != "MANIFEST.json"
    }
    assert on_disk == listed, (
        f"unlisted {sorted(on_disk - listed)}, missing {sorted(listed - on_disk)}"
    )
    for r in rows:
        data = (ASSETS / r["path"]).read_bytes()
        assert hashlib.sha256(data).hexdigest() == r["sha256"], r["path"]
        assert len(data) == r["bytes"], r["path"]
        assert r["licence"] and r["credit"] and r["source"], r["path"]
        folder = (ASSETS / r["path"]).parent
        if folder != ASSETS:
            assert (folder / "LICENSE.md").exists(), f"{folder.name} has no LICENSE.md"
