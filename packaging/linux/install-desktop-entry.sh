#!/bin/sh
# Adds Warp Explorer from this unpacked tarball to your desktop's application menu
# (~/.local/share/applications) and puts a warp-explorer command in ~/.local/bin.
# Run it again after moving the folder; remove with: sh install-desktop-entry.sh --remove
set -e
here=$(cd "$(dirname "$0")" && pwd)
apps="${XDG_DATA_HOME:-$HOME/.local/share}/applications"
icons="${XDG_DATA_HOME:-$HOME/.local/share}/icons/hicolor/scalable/apps"
bin="$HOME/.local/bin"
if [ "${1:-}" = "--remove" ]; then
    rm -f "$apps/warp-explorer.desktop" "$icons/warp-explorer.svg" "$bin/warp-explorer"
    echo "Warp Explorer removed from the menu and ~/.local/bin (this folder is left as it is)."
    exit 0
fi
mkdir -p "$apps" "$icons" "$bin"
cp "$here/share/warp-explorer.svg" "$icons/warp-explorer.svg"
sed "s|^Exec=warp-explorer|Exec=\"$here/warp-explorer\"|" "$here/share/warp-explorer.desktop" > "$apps/warp-explorer.desktop"
ln -sf "$here/warp-explorer" "$bin/warp-explorer"
command -v update-desktop-database >/dev/null 2>&1 && update-desktop-database "$apps" >/dev/null 2>&1 || true
echo "Warp Explorer is in your application menu; the command is $bin/warp-explorer."
