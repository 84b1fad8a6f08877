#!/bin/sh
# /usr/bin/warp-explorer, installed by the warp-explorer .deb: starts the bundle in /opt/warp-explorer.
#
# The bundle is looked for next to this script first (../../opt/warp-explorer), so an
# unpacked package (dpkg -x warp-explorer_*.deb ROOT; ROOT/usr/bin/warp-explorer) runs
# its own copy; WARP_EXPLORER_ROOT=DIR runs the bundle in DIR instead.
if [ -n "${WARP_EXPLORER_ROOT:-}" ]; then
    app="$WARP_EXPLORER_ROOT/warp-explorer"
else
    self=$(readlink -f "$0" 2>/dev/null) || self=$0
    app="$(dirname "$self")/../../opt/warp-explorer/warp-explorer"
    [ -x "$app" ] || app=/opt/warp-explorer/warp-explorer
fi
if [ ! -x "$app" ]; then
    echo "warp-explorer: $app is missing; reinstall the warp-explorer package" >&2
    exit 1
fi
exec "$app" "$@"
