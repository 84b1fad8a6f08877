#!/usr/bin/env bash
# macOS build: "Warp Explorer.app" (PyInstaller) and a drag-to-Applications .dmg.
#   bash packaging/macos/build-dmg.sh [OUT]        (default OUT: dist)
# Needs Python 3.11+ from python.org or Homebrew, and Xcode's command-line tools (hdiutil,
# codesign). NOT TESTED here (no Mac); .github/workflows/packages.yml runs it on GitHub's
# macos-latest runner. The app is ad-hoc signed only: not notarized, so the first start
# needs right-click > Open (or: xattr -dr com.apple.quarantine "/Applications/Warp Explorer.app").
# No GPU path: NVIDIA's CUDA wheels do not exist for macOS, so compile/measure answer as a
# Python install without the [gpu] extra does (exit 3, one line).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
OUT=${1:-$ROOT/dist}
mkdir -p "$OUT"; OUT=$(cd "$OUT" && pwd)
START=$SECONDS
cd "$ROOT"

python3 -m venv "$OUT/venv"
PY="$OUT/venv/bin/python"
"$PY" -m pip install -q --upgrade pip
"$PY" -m pip install -q . -r packaging/requirements-build.txt
VERSION=$("$PY" -c "import explorer; print(explorer.__version__)")
ARCH=$(uname -m)

"$PY" packaging/make_icons.py "$OUT/icons"
if [ ! -s "$OUT/icons/warp-explorer.icns" ]; then  # Qt could not write .icns: Apple's iconutil can
    set_dir="$OUT/icons/warp-explorer.iconset"; mkdir -p "$set_dir"
    for s in 16 32 128 256 512; do
        cp "$OUT/icons/warp-explorer-$s.png" "$set_dir/icon_${s}x${s}.png"
        [ -f "$OUT/icons/warp-explorer-$((s * 2)).png" ] && cp "$OUT/icons/warp-explorer-$((s * 2)).png" "$set_dir/icon_${s}x${s}@2x.png"
    done
    iconutil -c icns -o "$OUT/icons/warp-explorer.icns" "$set_dir"
fi
export WARP_EXPLORER_ICON_DIR="$OUT/icons" WARP_EXPLORER_BUNDLE_GPU=0
"$PY" -m PyInstaller --noconfirm --clean --log-level WARN --distpath "$OUT" --workpath "$OUT/work" packaging/warp-explorer.spec
APP="$OUT/Warp Explorer.app"
[ -d "$APP" ] || { echo "build-dmg.sh: PyInstaller made no $APP" >&2; exit 1; }

# does it start? the command-line executable inside the .app, offscreen
"$APP/Contents/MacOS/warp-explorer" --version
QT_QPA_PLATFORM=offscreen "$APP/Contents/MacOS/warp-explorer" --smoke-test

codesign --force --deep --sign - "$APP"  # ad-hoc: Apple Silicon refuses unsigned code
STAGE="$OUT/dmg-stage"; rm -rf "$STAGE"; mkdir -p "$STAGE"
cp -R "$APP" "$STAGE/"
ln -s /Applications "$STAGE/Applications"
DMG="$OUT/warp-explorer-$VERSION-macos-$ARCH.dmg"
rm -f "$DMG"
hdiutil create -volname "Warp Explorer" -srcfolder "$STAGE" -fs HFS+ -format UDZO -ov "$DMG"
rm -rf "$STAGE"
echo "build-dmg.sh: $DMG ($(du -sh "$DMG" | cut -f1); app $(du -sh "$APP" | cut -f1)) in $((SECONDS - START)) s"
