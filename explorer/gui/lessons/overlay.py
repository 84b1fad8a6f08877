"""A see-through layer over the main window: lesson spotlights and the laser pointer.

Spotlight: the panels a lesson step points at get a thick outline with a light
and a dark halo (visible on any background and to any eye: shape and width, not
colour alone), and the rest of the window is dimmed a little, as a projector
audience needs. The outline never covers a text (a legend row under the plot, a
group's title on its edge): it is left out where the layout check
(:mod:`explorer.gui.common.layout_check`) finds text. Laser pointer: a click anywhere in the window leaves a red dot
with a white ring that fades in about a second. On a view (the SM grid, a plot,
a picture) the click is only a pointer: it does not move the playback cursor or
select an SM. On a control (a button, a field, a tab, a scroll bar) it works as
usual, so "Next ▶" can still be clicked. The layer itself never takes mouse
events: an application event filter sees the press first.

The layer is one child widget of the window, kept on top and as large as the
window. It is hidden while it has nothing to draw, so it costs nothing then.
"""

from __future__ import annotations

import math
import time

from PySide6.QtCore import QEvent, QObject, QPoint, QPointF, QRect, QRectF, Qt, QTimer
from PySide6.QtGui import QColor, QPainter, QPen, QRegion
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractSlider,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QHeaderView,
    QLineEdit,
    QMenu,
    QMenuBar,
    QSplitterHandle,
    QTabBar,
    QWidget,
)

from explorer.gui.common import palette as oi

LASER_SECONDS = 1.1
LASER_RADIUS = 16  # px at scale 1
OUTLINE_WIDTH = 4  # px at scale 1
DIM_ALPHA = 64  # of 255: the rest of the window, dimmed
TICK_MS = 33
# a laser click on these (or inside one) still does what it does; anywhere else it only points
CONTROLS = (QAbstractButton, QAbstractSlider, QAbstractSpinBox, QComboBox, QLineEdit, QTabBar, QMenu, QMenuBar,
            QSplitterHandle, QHeaderView)
_POINTER_EVENTS = (QEvent.Type.MouseButtonPress, QEvent.Type.MouseButtonRelease, QEvent.Type.MouseButtonDblClick,
                   QEvent.Type.MouseMove)


def is_control(widget: QWidget | None, window: QWidget) -> bool:
    """Whether ``widget`` is (or sits inside) something a click operates: a button, field, tab, scroll bar."""
    while widget is not None and widget is not window:
        if isinstance(widget, CONTROLS):
            return True
        widget = widget.parentWidget()
    return False


def overlay_for(window) -> LectureOverlay:
    """The window's overlay (feature "overlay"), created on first use: lessons, presentation mode and export share it."""
    overlay = window.feature("overlay")
    if overlay is None:
        overlay = window.add_feature("overlay", LectureOverlay(window))
    return overlay


class LectureOverlay(QWidget):
    """Draws spotlights around target widgets and fading laser dots; never takes input."""

    def __init__(self, window: QWidget):
        super().__init__(window)
        self.setObjectName("lecture_overlay")
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setAttribute(Qt.WidgetAttribute.WA_NoSystemBackground)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self._window = window
        self.targets: list[QWidget] = []
        self.keep_bright: list[QWidget] = []  # never dimmed (the narration)
        self.scale = 1.0
        self.dark = False
        self.laser_enabled = False
        self.show_laser = True  # False while exporting
        self._dots: list[tuple[QPointF, float]] = []  # (window position, start time)
        self._rects: list[QRect] = []
        self._bright: list[QRect] = []
        self._texts = QRegion()  # where texts are: the outline leaves them alone
        self._pulse_start = 0.0
        self._timer = QTimer(self)
        self._timer.setInterval(TICK_MS)
        self._timer.timeout.connect(self._tick)
        self._last_press = None
        self._pointing = False  # a laser press on a view is under way: its moves and release are eaten too
        window.installEventFilter(self)
        self.setGeometry(window.rect())
        self.hide()

    # -- what to draw -----------------------------------------------------------------
    def set_targets(self, widgets: list[QWidget], keep_bright: list[QWidget] | None = None) -> None:
        self.targets = [w for w in widgets if w is not None]
        self.keep_bright = [w for w in (keep_bright or []) if w is not None]
        self._pulse_start = time.monotonic() if self.targets else 0.0
        self._refresh()

    def clear_targets(self) -> None:
        self.set_targets([])

    def freeze(self) -> None:
        """Draw the spotlights as they stand, without the pulse a new step gets (a still picture)."""
        self._pulse_start = 0.0
        self._refresh()
        self.update()

    def set_scale(self, scale: float) -> None:
        self.scale = float(scale)
        self.update()

    def set_dark(self, dark: bool) -> None:
        self.dark = bool(dark)
        self.update()

    def set_laser_enabled(self, on: bool) -> None:
        if on == self.laser_enabled:
            return
        self.laser_enabled = on
        app = QApplication.instance()
        if on:
            app.installEventFilter(self)
        else:
            app.removeEventFilter(self)
            self._dots.clear()
            self._pointing = False
        self._refresh()

    def visible_target_rects(self) -> list[QRect]:
        """Where the spotlights are, in window coordinates (targets on screen only)."""
        return [r for r in (self._rect_of(w) for w in self.targets) if r is not None]

    def laser_dots(self) -> list[QPointF]:
        return [p for p, _t in self._dots]

    # -- geometry -----------------------------------------------------------------------
    def _rect_of(self, widget: QWidget) -> QRect | None:
        """The part of ``widget`` on screen, in window coordinates (scroll areas clip it)."""
        try:
            if not widget.isVisible() or widget.window() is not self._window:
                return None
            rect = QRect(widget.mapTo(self._window, QPoint(0, 0)), widget.size())
            parent = widget.parentWidget()
            while parent is not None and parent is not self._window:
                rect = rect.intersected(QRect(parent.mapTo(self._window, QPoint(0, 0)), parent.size()))
                parent = parent.parentWidget()
        except RuntimeError:  # deleted underneath us
            return None
        rect = rect.intersected(self._window.rect())
        return None if rect.isEmpty() else rect

    def _refresh(self) -> None:
        rects = self.visible_target_rects()
        bright = [r for r in (self._rect_of(w) for w in self.keep_bright) if r is not None]
        active = bool(rects) or bool(self._dots) or self.laser_enabled
        if rects != self._rects or bright != self._bright:
            self._rects, self._bright = rects, bright
            self._texts = self._text_region() if rects else QRegion()
            self.update()
        if active:
            if self.geometry() != self._window.rect():
                self.setGeometry(self._window.rect())
            if not self.isVisible():
                self.show()
            siblings = [c for c in self._window.children() if isinstance(c, QWidget)]
            if siblings and siblings[-1] is not self:
                self.raise_()
            animating = bool(self._dots) or (self._pulse_start and time.monotonic() - self._pulse_start < 1.6)
            interval = TICK_MS if animating else 150  # geometry checks only: a slow tick is enough
            if self._timer.interval() != interval:
                self._timer.setInterval(interval)
            if not self._timer.isActive():
                self._timer.start()
        else:
            self._timer.stop()
            if self.isVisible():
                self.hide()

    def _text_region(self) -> QRegion:
        from explorer.gui.common.layout_check import LayoutChecker

        checker = LayoutChecker(self._window)
        checker.run()
        region = QRegion()
        for text in checker.texts:
            region = region.united(QRegion(text.drawn.adjusted(-1, -1, 1, 1)))
        return region

    def _tick(self) -> None:
        now = time.monotonic()
        if self._dots:
            self._dots = [(p, t) for p, t in self._dots if now - t < LASER_SECONDS]
            self.update()
        if self._pulse_start and now - self._pulse_start < 1.6:
            self.update()
        self._refresh()

    # -- events -------------------------------------------------------------------------
    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        kind = event.type()
        if obj is self._window:
            if kind in (QEvent.Type.Resize, QEvent.Type.Show, QEvent.Type.LayoutRequest):
                self.setGeometry(self._window.rect())
                self._refresh()
            return False
        if kind not in _POINTER_EVENTS or not self.laser_enabled or not isinstance(obj, QWidget):
            return False
        try:
            inside = obj.window() is self._window
        except RuntimeError:
            inside = False
        if not inside:
            return False
        if kind == QEvent.Type.MouseButtonPress:
            gp = event.globalPosition()
            key = (event.timestamp(), round(gp.x()), round(gp.y()))
            if key != self._last_press:  # the same press reaches every parent on its way up
                self._last_press = key
                self.add_dot(QPointF(self._window.mapFromGlobal(gp.toPoint())))
                self._pointing = not is_control(obj, self._window)
            return self._pointing
        if kind == QEvent.Type.MouseButtonDblClick:
            self._pointing = not is_control(obj, self._window)
            return self._pointing
        if kind == QEvent.Type.MouseButtonRelease and self._pointing:
            self._pointing = False
            return True
        return kind == QEvent.Type.MouseMove and self._pointing  # no drag of the cursor line either

    def add_dot(self, pos: QPointF) -> None:
        """Start a fading laser dot at ``pos`` (window coordinates)."""
        self._dots.append((QPointF(pos), time.monotonic()))
        self._refresh()
        self.update()

    # -- painting -----------------------------------------------------------------------
    def paintEvent(self, event) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        s = self.scale
        if self._rects:
            self._paint_spotlight(p, s)
        if self.show_laser and self._dots:
            now = time.monotonic()
            for pos, t in self._dots:
                self._paint_dot(p, pos, max(0.0, 1.0 - (now - t) / LASER_SECONDS), s)
        p.end()

    def _paint_spotlight(self, p: QPainter, s: float) -> None:
        width = OUTLINE_WIDTH * s
        holes = QRegion()
        for r in self._rects + self._bright:
            holes = holes.united(QRegion(r))
        p.save()
        p.setClipRegion(QRegion(self.rect()).subtracted(holes))
        p.fillRect(self.rect(), QColor(0, 0, 0, DIM_ALPHA + (30 if self.dark else 0)))
        p.restore()
        colour = QColor(oi.ORANGE if self.dark else oi.VERMILLION)
        pulse = 0.0
        if self._pulse_start:
            age = time.monotonic() - self._pulse_start
            if age < 1.6:  # two gentle pulses when the step appears
                pulse = 0.5 * (1 - math.cos(age / 0.8 * 2 * math.pi)) * (1 - age / 1.6)
        p.save()
        p.setClipRegion(QRegion(self.rect()).subtracted(self._texts))  # the outline stays off every text
        bounds = QRectF(self.rect())
        edge = width / 2 + 2 * s
        inner = bounds.adjusted(edge, edge, -edge, -edge)
        for r in merge_touching(self._rects, round(3 * width)):
            # the outline sits on the panel's edge; the glow only outside it, so the panel's
            # own content (a legend row, an axis label) stays readable
            rect = QRectF(r).intersected(inner)
            radius = 6 * s
            glow = QColor(colour)
            p.save()
            p.setClipRegion(QRegion(self.rect()).subtracted(QRegion(rect.toAlignedRect())),
                            Qt.ClipOperation.IntersectClip)
            for k, alpha in ((3.6, 45), (2.4, 80)):
                glow.setAlpha(min(255, int(alpha + 70 * pulse)))
                p.setPen(QPen(glow, width * k, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap,
                              Qt.PenJoinStyle.RoundJoin))
                p.drawRoundedRect(rect, radius, radius)
            p.restore()
            p.setPen(QPen(QColor("#000000"), width + 3 * s))
            p.drawRoundedRect(rect, radius, radius)
            p.setPen(QPen(QColor("#FFFFFF"), width + 1.5 * s))
            p.drawRoundedRect(rect, radius, radius)
            p.setPen(QPen(colour, width))
            p.drawRoundedRect(rect, radius, radius)
            # corner brackets: the shape says "look here" even in grey
            arm = min(28 * s, rect.width() / 3, rect.height() / 3)
            p.setPen(QPen(QColor("#FFFFFF") if self.dark else QColor("#000000"), width * 0.8,
                          Qt.PenStyle.SolidLine, Qt.PenCapStyle.SquareCap))
            rect = rect.adjusted(-1.6 * width, -1.6 * width, 1.6 * width, 1.6 * width).intersected(
                bounds.adjusted(width / 2, width / 2, -width / 2, -width / 2))
            for cx, cy, dx, dy in ((rect.left(), rect.top(), 1, 1), (rect.right(), rect.top(), -1, 1),
                                   (rect.left(), rect.bottom(), 1, -1), (rect.right(), rect.bottom(), -1, -1)):
                p.drawLine(QPointF(cx, cy), QPointF(cx + dx * arm, cy))
                p.drawLine(QPointF(cx, cy), QPointF(cx, cy + dy * arm))
        p.restore()

    def _paint_dot(self, p: QPainter, pos: QPointF, life: float, s: float) -> None:
        radius = LASER_RADIUS * s * (1.0 + 0.35 * (1 - life))
        halo = QColor(oi.VERMILLION)
        halo.setAlpha(int(70 * life))
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(halo)
        p.drawEllipse(pos, radius * 1.9, radius * 1.9)
        core = QColor("#FF1A00")
        core.setAlpha(int(230 * life))
        p.setBrush(core)
        p.setPen(QPen(QColor(255, 255, 255, int(255 * life)), 3 * s))
        p.drawEllipse(pos, radius, radius)
        p.setBrush(Qt.BrushStyle.NoBrush)


def merge_touching(rects: list[QRect], gap: int) -> list[QRect]:
    """Neighbours closer than ``gap`` that line up (the legend above the timeline) become
    their union: one outline, so no outline covers the other panel's edge. Panels that
    do not line up keep their own outlines (the union would take in others)."""
    out = [QRect(r) for r in rects]
    merged = True
    while merged:
        merged = False
        for i in range(len(out)):
            for j in range(i + 1, len(out)):
                union = out[i].united(out[j])
                tight = _area(union) <= 1.15 * (_area(out[i]) + _area(out[j]))  # stacked or side by side
                if tight and out[i].adjusted(-gap, -gap, gap, gap).intersects(out[j]):
                    out[i] = union
                    del out[j]
                    merged = True
                    break
            if merged:
                break
    return out


def _area(r: QRect) -> int:
    return max(0, r.width()) * max(0, r.height())
