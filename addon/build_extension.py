"""Builds the caudal Blender extension zip with the caudal wheel bundled.

    python addon/build_extension.py --wheel dist/caudal-0.1.0-cp311-abi3-manylinux_2_28_x86_64.whl --out dist

writes dist/caudal-0.1.0-linux-x64.zip (one platform: its name in the file
name; several wheels for several platforms: dist/caudal-0.1.0.zip).
``scripts/build_extension.sh`` builds the linux-x64 wheel and calls this;
docs/blender.md says how to build for another platform. The wheel must be
built first. For official Blender builds (glibc 2.28) use a manylinux_2_28
wheel:

    pip install ziglang
    maturin build --release --zig --compatibility manylinux_2_28 -o dist

The zip is packed by Blender's own ``blender_ext.py build`` (shipped inside
Blender and inside the ``bpy`` module at
``bpy/<ver>/scripts/addons_core/bl_pkg/cli/``), which validates the manifest.
numpy is not bundled: Blender ships it.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
LICENCES = ["LICENSE", "LICENSE-MIT", "LICENSE-APACHE"]
"""The package's licence texts (repository root), shipped inside the zip."""

# Wheel platform tag -> Blender extension platform.
PLATFORMS = {
    "manylinux": "linux-x64",
    "linux_x86_64": "linux-x64",
    "macosx": None,  # arm64 or x64, read from the tag below
    "win_amd64": "windows-x64",
    "win_arm64": "windows-arm64",
}


def blender_platform(wheel: Path) -> str:
    tag = wheel.name[:-4].split("-")[-1]
    if tag.startswith("macosx"):
        return "macos-arm64" if tag.endswith("arm64") else "macos-x64"
    if "aarch64" in tag:
        return "linux-arm64"
    for key, plat in PLATFORMS.items():
        if key in tag and plat:
            return plat
    raise SystemExit(f"unknown wheel platform tag {tag!r}")


def find_blender_ext() -> Path:
    """blender_ext.py from the bpy module of this Python, or a Blender install."""
    import importlib.util

    roots = []
    spec = importlib.util.find_spec("bpy")
    if spec is not None:
        roots += [Path(p) for p in (spec.submodule_search_locations or [])]
        if spec.origin:
            roots.append(Path(spec.origin).parent)
    for root in roots:
        hits = sorted(root.glob("*/scripts/addons_core/bl_pkg/cli/blender_ext.py"))
        if hits:
            return hits[-1]
    raise SystemExit("blender_ext.py not found: pip install bpy, or pass --blender-ext PATH")


def stage(wheels: list[Path], dest: Path) -> Path:
    src = dest / "caudal"
    shutil.copytree(
        HERE, src, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "build_extension.py")
    )
    for name in LICENCES:
        shutil.copy2(HERE.parent / name, src / name)
    (src / "wheels").mkdir()
    for w in wheels:
        shutil.copy2(w, src / "wheels" / w.name)
    manifest = (src / "blender_manifest.toml").read_text()
    plats = sorted({blender_platform(w) for w in wheels})
    manifest = re.sub(
        r"(?m)^wheels = \[\]$",
        "wheels = [" + ", ".join(f'"./wheels/{w.name}"' for w in wheels) + "]",
        manifest,
    )
    manifest = re.sub(
        r"(?m)^platforms = \[.*\]$",
        "platforms = [" + ", ".join(f'"{p}"' for p in plats) + "]",
        manifest,
    )
    (src / "blender_manifest.toml").write_text(manifest)
    return src


def build(wheels: list[Path], out: Path, blender_ext: Path | None = None) -> Path:
    blender_ext = blender_ext or find_blender_ext()
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        src = stage(wheels, Path(tmp))
        version = re.search(
            r'(?m)^version = "([^"]+)"', (src / "blender_manifest.toml").read_text()
        ).group(1)
        plats = sorted({blender_platform(w) for w in wheels})
        target = out / (
            f"caudal-{version}-{plats[0]}.zip" if len(plats) == 1 else f"caudal-{version}.zip"
        )
        if target.exists():
            target.unlink()
        subprocess.run(
            [
                sys.executable,
                str(blender_ext),
                "build",
                "--source-dir",
                str(src),
                "--output-filepath",
                str(target),
            ],
            check=True,
        )
        subprocess.run([sys.executable, str(blender_ext), "validate", str(target)], check=True)
    return target


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument(
        "--wheel", action="append", required=True, type=Path, help="caudal wheel(s) to bundle"
    )
    ap.add_argument("--out", type=Path, default=Path("dist"))
    ap.add_argument("--blender-ext", type=Path, default=None, help="path to blender_ext.py")
    a = ap.parse_args(argv)
    for w in a.wheel:
        if not w.is_file():
            raise SystemExit(f"no wheel at {w}")
    print(build([w.resolve() for w in a.wheel], a.out, a.blender_ext))
    return 0


if __name__ == "__main__":
    sys.exit(main())
