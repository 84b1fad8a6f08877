#!/usr/bin/env bash
# Build Warp Explorer's Linux packages from a checkout:
#   OUT/warp-explorer/                             the PyInstaller one-dir bundle
#   OUT/warp-explorer-VERSION-linux-ARCH.tar.gz    the bundle as a tarball
#   OUT/warp-explorer_VERSION_DEBARCH.deb          /opt/warp-explorer + /usr/bin launcher + menu entry
#
# Usage: packaging/build.sh [--out DIR] [--python PY] [--fast] [--no-test]
#   --out DIR     where everything goes (default packaging/dist, ignored by git)
#   --python PY   build with this interpreter, which already has the app's dependencies
#                 (".[gpu]") and PyInstaller; default: a fresh venv in OUT/venv
#   --fast        quick compression (gzip -1, zstd -1): for tests, not for releases
#   --no-test     skip the bundle's --version / --smoke-test run at the end
# Needs: Linux with glibc >= 2.34, python3 (3.11+) with venv, dpkg-deb, tar, gzip, ldd, binutils,
# and Qt's X libraries (PyInstaller copies them into the bundle; see packaging/README.md).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT="$ROOT/packaging/dist"
PY=""
FAST=0
SELFTEST=1
while (($#)); do
    case "$1" in
        --out) OUT=$2; shift 2 ;;
        --out=*) OUT=${1#--out=}; shift ;;
        --python) PY=$2; shift 2 ;;
        --python=*) PY=${1#--python=}; shift ;;
        --fast) FAST=1; shift ;;
        --no-test) SELFTEST=0; shift ;;
        -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "build.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done

die() { echo "build.sh: $*" >&2; exit 1; }
say() { echo "build.sh: $*"; }
START=$SECONDS
declare -A TIMES
stage_start() { STAGE_T=$SECONDS; say "$1"; }
stage_end() { TIMES[$1]=$((SECONDS - STAGE_T)); }

# -- 0. the build machine --------------------------------------------------------------
[ "$(uname -s)" = Linux ] || die "this script builds the Linux packages; Windows and macOS: see packaging/README.md"
for tool in dpkg-deb dpkg tar gzip ldd objdump objcopy python3; do
    command -v "$tool" >/dev/null || die "$tool is missing (apt-get install binutils python3-venv)"
done
glibc=$(getconf GNU_LIBC_VERSION | awk '{print $2}')
[ "$(printf '%s\n' 2.34 "$glibc" | sort -V | head -1)" = 2.34 ] \
    || die "glibc $glibc is older than 2.34, which the PySide6 wheels need; build on Debian 12 / Ubuntu 22.04 or newer"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

# -- 1. the build environment ----------------------------------------------------------
stage_start "build environment"
if [ -z "$PY" ]; then
    rm -rf "$OUT/venv"
    python3 -m venv "$OUT/venv" || die "python3 -m venv failed (apt-get install python3-venv)"
    PY="$OUT/venv/bin/python"
    if ! { "$PY" -m pip install --upgrade pip \
           && "$PY" -m pip install "$ROOT[gpu]" -r "$ROOT/packaging/requirements-build.txt"; } > "$OUT/pip.log" 2>&1; then
        tail -n 20 "$OUT/pip.log" >&2
        die "pip install failed (the whole log: $OUT/pip.log)"
    fi
fi
"$PY" -c "import PyInstaller, PySide6, pyqtgraph, numba, numpy, explorer" 2>/dev/null \
    || die "$PY lacks the app's dependencies or PyInstaller (pip install '.[gpu]' -r packaging/requirements-build.txt)"
"$PY" -c "import cuda.bindings.nvrtc, nvidia" 2>/dev/null \
    || say "warning: cuda-bindings / nvidia-cuda-nvrtc missing: the bundle will have no GPU path"
VERSION=$("$PY" -c "import explorer; print(explorer.__version__)")
ARCH=$(uname -m)
DEBARCH=$(dpkg --print-architecture)
NAME="warp-explorer-$VERSION-linux-$ARCH"
# Qt's xcb plugin must find every library it links here, or PyInstaller leaves it out
# of the bundle with only a warning and the window fails on users' machines.
QXCB=$("$PY" -c "import PySide6, pathlib; print(pathlib.Path(PySide6.__file__).parent / 'Qt/plugins/platforms/libqxcb.so')")
missing=$(ldd "$QXCB" | awk '/not found/ {print $1}' | tr '\n' ' ')
[ -z "$missing" ] || die "Qt's xcb plugin cannot find: $missing- install them first (.ci/run's QT_PACKAGES list, e.g. apt-get install libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxkbcommon-x11-0)"
stage_end env

# -- 2. the PyInstaller bundle -----------------------------------------------------------
stage_start "PyInstaller one-dir bundle"
rm -rf "$OUT/warp-explorer" "$OUT/work"
LOG="$OUT/pyinstaller.log"
if ! "$PY" -m PyInstaller --noconfirm --clean --log-level WARN --distpath "$OUT" --workpath "$OUT/work" \
        "$ROOT/packaging/warp-explorer.spec" > "$LOG" 2>&1; then
    tail -n 30 "$LOG" >&2
    die "PyInstaller failed (the whole log: $LOG)"
fi
# its warnings, less the expected ones (GTK for the trimmed gtk3 theme plugin, pyqtgraph's optional OpenGL)
grep -E "WARNING|^warp-explorer.spec" "$LOG" | grep -v -E "lib(gtk|gdk)-3|pyqtgraph.opengl" || true
BUNDLE="$OUT/warp-explorer"
[ -x "$BUNDLE/warp-explorer" ] || die "PyInstaller did not produce $BUNDLE/warp-explorer"
rm -rf "$OUT/work"
mkdir -p "$BUNDLE/share"
cp "$ROOT/packaging/linux/warp-explorer.desktop" "$ROOT/resources/icons/warp-explorer.svg" "$BUNDLE/share/"
cp "$ROOT/packaging/linux/install-desktop-entry.sh" "$BUNDLE/"
missing=$(LD_LIBRARY_PATH="$BUNDLE/_internal" ldd "$BUNDLE/_internal/PySide6/Qt/plugins/platforms/libqxcb.so" \
          | awk '/not found/ {print $1}' | tr '\n' ' ')
[ -z "$missing" ] || die "the bundled xcb plugin cannot find: $missing"
stage_end bundle

# -- 3. the tarball --------------------------------------------------------------------
stage_start "tarball"
EPOCH=$(git -C "$ROOT" log -1 --format=%ct 2>/dev/null || date +%s)
TARBALL="$OUT/$NAME.tar.gz"
GZ_LEVEL=6; ((FAST)) && GZ_LEVEL=1
GZIP_CMD=(gzip -n "-$GZ_LEVEL"); command -v pigz >/dev/null && GZIP_CMD=(pigz -n "-$GZ_LEVEL")
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$EPOCH" \
    --transform="s,^warp-explorer,$NAME,S" -C "$OUT" -cf - warp-explorer \
    | "${GZIP_CMD[@]}" > "$TARBALL.tmp"
mv "$TARBALL.tmp" "$TARBALL"
stage_end tarball

# -- 4. the .deb -------------------------------------------------------------------------
stage_start ".deb"
DEBROOT="$OUT/deb-root"
rm -rf "$DEBROOT"
mkdir -p "$DEBROOT/opt" "$DEBROOT/usr/bin" "$DEBROOT/usr/share/applications" \
         "$DEBROOT/usr/share/icons/hicolor/scalable/apps" "$DEBROOT/usr/share/icons/hicolor/256x256/apps" \
         "$DEBROOT/usr/share/doc/warp-explorer" "$DEBROOT/DEBIAN"
cp -al "$BUNDLE" "$DEBROOT/opt/warp-explorer" 2>/dev/null || cp -a "$BUNDLE" "$DEBROOT/opt/warp-explorer"
rm -rf "$DEBROOT/opt/warp-explorer/share" "$DEBROOT/opt/warp-explorer/install-desktop-entry.sh"
install -m 755 "$ROOT/packaging/linux/warp-explorer.sh" "$DEBROOT/usr/bin/warp-explorer"
install -m 644 "$ROOT/packaging/linux/warp-explorer.desktop" "$DEBROOT/usr/share/applications/"
install -m 644 "$ROOT/resources/icons/warp-explorer.svg" "$DEBROOT/usr/share/icons/hicolor/scalable/apps/"
install -m 644 "$ROOT/resources/icons/warp-explorer-256.png" \
    "$DEBROOT/usr/share/icons/hicolor/256x256/apps/warp-explorer.png"
install -m 644 "$ROOT/packaging/linux/copyright" "$DEBROOT/usr/share/doc/warp-explorer/"
DEPENDS=$("$PY" "$ROOT/packaging/debdeps.py" "$BUNDLE")
GLIBC_FLOOR=$("$PY" "$ROOT/packaging/debdeps.py" "$BUNDLE" --glibc)
INSTALLED_KB=$(du -sk --exclude=DEBIAN "$DEBROOT" | cut -f1)
cat > "$DEBROOT/DEBIAN/control" <<CONTROL
Package: warp-explorer
Version: $VERSION
Architecture: $DEBARCH
Maintainer: ${DEB_MAINTAINER:-Warp Explorer maintainers <warp-explorer@localhost>}
Installed-Size: $INSTALLED_KB
Depends: $DEPENDS
Recommends: fonts-dejavu-core | fonts-liberation2
Section: science
Priority: optional
Description: see how a GPU runs a kernel: launched vs resident vs ready warps
 Warp Explorer computes theoretical occupancy as NVIDIA's calculator does,
 simulates every warp of every SM cycle by cycle, and shows the warps a kernel
 launches, the warps resident on the SMs and the warps ready to issue, next to
 "occupancy", NVML's "GPU utilization" and issue-slot use. With an NVIDIA
 driver it also compiles (NVRTC, bundled) and measures kernels on the real GPU.
 .
 Self-contained: Python, Qt, numpy and numba are bundled in /opt/warp-explorer.
CONTROL
chmod -R u+rwX,go+rX,go-w "$DEBROOT"
DEB="$OUT/warp-explorer_${VERSION}_${DEBARCH}.deb"
# zstd -9 (dpkg >= 1.21.18: Debian 12, Ubuntu 22.04): ~20 s here; xz or zstd -19 save ~15% and take minutes;
# every system with glibc >= 2.34 reads zstd. Older dpkg-deb: gzip. DEB_COMPRESSION="-Zxz" overrides.
if [[ $(dpkg-deb --help 2>&1) == *zstd* ]]; then COMP=(-Zzstd "-z$( ((FAST)) && echo 1 || echo 9)"); else COMP=(-Zgzip -z9); fi
[ -n "${DEB_COMPRESSION:-}" ] && COMP=($DEB_COMPRESSION)
dpkg-deb --root-owner-group "${COMP[@]}" --build "$DEBROOT" "$DEB.tmp" >/dev/null
mv "$DEB.tmp" "$DEB"
rm -rf "$DEBROOT"
stage_end deb

# -- 5. does it start? -------------------------------------------------------------------
if ((SELFTEST)); then
    stage_start "self-test (--version, --smoke-test offscreen)"
    scratch=$(mktemp -d)
    trap 'rm -rf "$scratch"' EXIT
    "$BUNDLE/warp-explorer" --version
    env -u DISPLAY -u WAYLAND_DISPLAY HOME="$scratch" XDG_CACHE_HOME="$scratch/cache" QT_QPA_PLATFORM=offscreen \
        WARP_EXPLORER_SMOKE_PNG="$scratch/smoke.png" "$BUNDLE/warp-explorer" --smoke-test
    stage_end selftest
fi

# -- summary ----------------------------------------------------------------------------
mib() { awk -v b="$1" 'BEGIN {printf "%.0f MiB", b / 1048576}'; }
BUNDLE_BYTES=$(du -sb "$BUNDLE" | cut -f1)
{
    echo "warp-explorer $VERSION, built $(date -u +%Y-%m-%dT%H:%MZ) on $(. /etc/os-release 2>/dev/null; echo "${PRETTY_NAME:-Linux}"), glibc $glibc, $(nproc) CPUs"
    echo "bundle   $BUNDLE  $(mib "$BUNDLE_BYTES")"
    echo "tarball  $TARBALL  $(mib "$(stat -c %s "$TARBALL")") (gzip -$GZ_LEVEL)"
    echo "deb      $DEB  $(mib "$(stat -c %s "$DEB")") (${COMP[*]}), installed $(mib $((INSTALLED_KB * 1024)))"
    echo "runs on glibc >= $GLIBC_FLOOR (the newest glibc symbol the bundled libraries use)"
    echo "Depends: $DEPENDS"
    printf "time     total %ss:" $((SECONDS - START))
    for k in env bundle tarball deb selftest; do [ -n "${TIMES[$k]:-}" ] && printf " %s %ss" "$k" "${TIMES[$k]}"; done
    echo
} | tee "$OUT/build-info.txt"
