#!/usr/bin/env bash
# Builds the Blender extension zip for linux-x64: a release wheel that loads
# in official Blender builds (manylinux_2_28, linked with zig against glibc
# 2.28), packed and validated by Blender's own blender_ext.py.
#
#   bash scripts/build_extension.sh [OUT_DIR]      (default: dist)
#
# writes OUT_DIR/caudal-<version>-linux-x64.zip and prints its path last.
# Needs a Python (PYTHON, default python3) with maturin, ziglang and bpy
# installed (bpy only provides blender_ext.py):
#   pip install "maturin>=1.9.2,<2" ziglang "bpy==5.0.1"
# .ci/run calls this. For another platform see docs/blender.md.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
OUT=${1:-dist}

missing=()
for module in maturin ziglang bpy; do
  "$PY" -c "import importlib.util, sys; sys.exit(importlib.util.find_spec('$module') is None)" || missing+=("$module")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "build_extension: $PY lacks ${missing[*]} (pip install \"maturin>=1.9.2,<2\" ziglang \"bpy==5.0.1\")" >&2
  exit 1
fi

rm -rf "$OUT/linux-x64"
"$PY" -m maturin build --release --locked --zig --compatibility manylinux_2_28 -o "$OUT/linux-x64"
WHEEL=$(ls "$OUT"/linux-x64/caudal-*-manylinux_2_28_x86_64.whl)
"$PY" addon/build_extension.py --wheel "$WHEEL" --out "$OUT"
