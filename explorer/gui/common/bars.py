"""Small painted bars: a stacked warp-state bar (Nsight style) and a labelled meter.

Both carry their numbers in text too (inside the bar where it fits, and in the
tooltip), so colour is never the only carrier. :class:`PaintedBar` and
:class:`SegmentBar` are what every painted bar of the window shares (the GEMM
view's stacked bar and the Memory view's request bar too).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QRect, QSize, Qt
from PySide6.QtGui import QColor, QFontMetrics, QPainter, QPen
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from explorer.gui.common.layout_check import PaintedText
from explorer.texts.numbers import num, pct
from explorer.gui.common.state_colors import display_names, meanings, state_color
from explorer.gui.common.theme import LIGHT, Theme


class PaintedBar(QWidget):
    """A custom-painted bar: as wide as its column, ``height`` pixels high, in the theme's colours."""

    HINT_WIDTH = 200

    def __init__(self, parent: QWidget | None = None, height: int = 18):
        super().__init__(parent)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setFixedHeight(height)
        self.theme: Theme = LIGHT

    def sizeHint(self) -> QSize:  # noqa: D401 - Qt API
        return QSize(self.HINT_WIDTH, self.height())

    def apply_theme(self, theme: Theme) -> None:
        self.theme = theme
        self.update()

    def draw_frame(self, p: QPainter) -> None:
        """The theme's one-pixel outline around the whole bar."""
        p.setPen(QPen(QColor(self.theme.mid), 1))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawRect(self.rect().adjusted(0, 0, -1, -1))


class SegmentBar(PaintedBar):
    """Segments side by side; hovering one shows :meth:`tooltip_at` for it."""

    def tooltip_at(self, x: int) -> str:
        """The tooltip of the segment under ``x`` ("" between or beside the segments)."""
        return ""

    def spans(self, values: list[float]) -> list[tuple[float, float]]:
        """(left, width) in pixels of each value's segment: widths proportional to the values, inside the frame."""
        total = sum(values)
        if total <= 0:
            return []
        w = self.width() - 2
        out, x = [], 1.0
        for v in values:
            width = w * v / total
            out.append((x, width))
            x += width
        return out

    def event(self, event) -> bool:  # noqa: D401 - Qt API
        if event.type() == QEvent.Type.ToolTip:
            tip = self.tooltip_at(event.pos().x())
            if tip:
                QToolTip.showText(event.globalPos(), tip, self)
            else:
                QToolTip.hideText()
            return True
        return super().event(event)


class StateBar(SegmentBar):
    """Segments (state code, amount) side by side, widths proportional to the amounts."""

    HINT_WIDTH = 240

    def __init__(self, parent: QWidget | None = None, height: int = 22):
        super().__init__(parent, height)
        self.segments: list[tuple[int, float]] = []
        self.total = 0.0
        self.unit = ""  # e.g. "warps", "warp-cycles"

    def set_segments(self, segments: list[tuple[int, float]], unit: str) -> None:
        self.segments = [(c, float(v)) for c, v in segments if v > 0]
        self.total = sum(v for _, v in self.segments)
        self.unit = unit
        self.update()

    def _rects(self) -> list[tuple[int, float, QRect]]:
        spans = self.spans([v for _code, v in self.segments])
        return [(code, v, QRect(round(x), 1, max(1, round(x + width) - round(x)), self.height() - 2))
                for (code, v), (x, width) in zip(self.segments, spans)]

    def _shares(self) -> list[tuple[int, QRect, str]]:
        """(state, segment, "42%") of the segments wide enough to show their share."""
        fm = QFontMetrics(self.font())
        out = []
        for code, v, r in self._rects():
            share = pct(v / self.total, 0)
            out.append((code, r, share if fm.horizontalAdvance(share) + 6 <= r.width() else ""))
        return out

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt API
        p = QPainter(self)
        p.fillRect(self.rect(), QColor(self.theme.base))
        for code, r, share in self._shares():
            color = QColor(state_color(code, self.theme.dark))
            p.fillRect(r, color)
            if share:
                light = color.lightness() > 140 and code not in (5,)
                p.setPen(QColor("#000000") if light else QColor("#FFFFFF"))
                p.drawText(r, Qt.AlignmentFlag.AlignCenter, share)
        self.draw_frame(p)
        p.end()

    def painted_texts(self) -> list[PaintedText]:
        return [PaintedText(share, r, self.font(), int(Qt.AlignmentFlag.AlignCenter))
                for _code, r, share in self._shares() if share]

    def tooltip_at(self, x: int) -> str:
        for code, v, r in self._rects():
            if r.left() <= x <= r.right():
                return "<b>{}</b>: {} {} ({})<br>{}".format(
                    display_names()[code], num(v), self.unit, pct(v / self.total), meanings()[code])
        return ""


class Meter(PaintedBar):
    """A fraction as a filled bar with its text ("5.5%") drawn beside the fill."""

    def __init__(self, color: str, parent: QWidget | None = None, height: int = 18):
        super().__init__(parent, height)
        self.color = color
        self.fraction = 0.0
        self.text = ""

    def set_value(self, fraction: float, text: str) -> None:
        before = self.minimumSizeHint()
        self.fraction = max(0.0, min(1.0, float(fraction)))
        self.text = text
        if self.minimumSizeHint() != before:
            self.updateGeometry()
        self.update()

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt API
        """Narrow as can be with the text whole: inside the fill (width ≥ text / fraction) or beside it
        (width ≥ text / (1 − fraction)), whichever needs less."""
        tw = QFontMetrics(self.font()).horizontalAdvance(self.text)
        inside = (tw + 9) / self.fraction if self.fraction > 0 else float("inf")
        beside = (tw + 6) / (1 - self.fraction) if self.fraction < 1 else float("inf")
        return QSize(int(min(inside, beside, 4 * (tw + 9))) + 1, self.height())

    def _text_place(self) -> tuple[QRect, QRect, bool]:
        """(the fill, where the text goes, whether it goes inside the fill)."""
        r = self.rect().adjusted(0, 0, -1, -1)
        fill = QRect(r.x(), r.y(), round(r.width() * self.fraction), r.height())
        tw = QFontMetrics(self.font()).horizontalAdvance(self.text) + 8
        if fill.width() >= tw:
            return fill, fill.adjusted(0, 0, -4, 0), True
        return fill, r.adjusted(fill.width() + 4, 0, 0, 0), False

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt API
        p = QPainter(self)
        r = self.rect().adjusted(0, 0, -1, -1)
        p.fillRect(r, QColor(self.theme.base))
        fill, place, inside = self._text_place()
        p.fillRect(fill, QColor(self.color))
        self.draw_frame(p)
        if inside:
            p.setPen(QColor("#FFFFFF") if QColor(self.color).lightness() < 150 else QColor("#000000"))
            p.drawText(place, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, self.text)
        else:
            p.setPen(QColor(self.theme.text))
            p.drawText(place, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, self.text)
        p.end()

    def painted_texts(self) -> list[PaintedText]:
        _fill, place, inside = self._text_place()
        align = Qt.AlignmentFlag.AlignRight if inside else Qt.AlignmentFlag.AlignLeft
        return [PaintedText(self.text, place, self.font(), int(align | Qt.AlignmentFlag.AlignVCenter))]
