"""Pixel counting for the GEMM and Memory tab tests: how much of a widget is drawn in one colour."""

from __future__ import annotations

import numpy as np
from PySide6.QtGui import QColor, QImage


def count_color(widget, hex_color: str, tol: int = 4) -> int:
    """Pixels of the widget's image within ``tol`` of the colour."""
    img = widget.grab().toImage().convertToFormat(QImage.Format.Format_RGB32)
    arr = np.frombuffer(img.constBits(), np.uint8).reshape(img.height(), img.bytesPerLine() // 4, 4)[:, : img.width()]
    e = QColor(hex_color)
    bgr = np.array([e.blue(), e.green(), e.red()], np.int16)
    return int((np.abs(arr[..., :3].astype(np.int16) - bgr) <= tol).all(axis=-1).sum())
