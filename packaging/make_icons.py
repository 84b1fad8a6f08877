"""Render the app icon (resources/icons/warp-explorer.svg) to PNG, .ico and .icns with Qt.

    python packaging/make_icons.py OUT_DIR [--png-sizes 16,32,48,64,128,256,512]

Writes warp-explorer-<N>.png for each size, warp-explorer.ico (Windows installer and
executable) and, where Qt's icns plugin can write it, warp-explorer.icns (the macOS
.app). resources/icons/warp-explorer-256.png in the repository was made by this script.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SVG = ROOT / "resources" / "icons" / "warp-explorer.svg"


def render(size: int):
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    renderer = QSvgRenderer(str(SVG))
    if not renderer.isValid():
        raise SystemExit(f"make_icons: {SVG} is not a valid SVG")
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter)
    painter.end()
    return image


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--png-sizes", default="16,32,48,64,128,256,512")
    args = parser.parse_args(argv)
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QGuiApplication

    _app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    args.out.mkdir(parents=True, exist_ok=True)
    for size in (int(s) for s in args.png_sizes.split(",")):
        path = args.out / f"warp-explorer-{size}.png"
        if not render(size).save(str(path), "PNG"):
            raise SystemExit(f"make_icons: cannot write {path}")
    if not render(256).save(str(args.out / "warp-explorer.ico"), "ICO"):
        print("make_icons: Qt cannot write .ico here (imageformats/libqico missing)", file=sys.stderr)
    if not render(512).save(str(args.out / "warp-explorer.icns"), "ICNS"):
        print("make_icons: Qt cannot write .icns here; on macOS use iconutil", file=sys.stderr)
    print(f"make_icons: wrote icons to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
