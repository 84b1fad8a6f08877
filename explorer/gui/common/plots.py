"""What the window's pyqtgraph plots share: theme colours, no pyqtgraph menus, a movable cursor.

:class:`ThemedPlot` is every plot's base (the explorer's timeline and counts, the
calculator's sweeps, the GEMM roofline): pyqtgraph's context menus and buttons
off, its parentless menus parented, axes in the theme's colours.

:class:`CursorPlot` adds the playback position: dragging the cursor (or clicking
in the plot) asks for a cycle through ``cycle_requested``; playback moves it with
``set_cycle``, which touches nothing but the line, so a frame never re-uploads an
image or a curve.
"""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QApplication, QMenu, QWidget

from explorer.gui.common.theme import LIGHT, Theme


class ThemedPlot(pg.PlotWidget):
    """A PlotWidget without pyqtgraph's menus and buttons, zoomed by the mouse along x at most."""

    def __init__(self, parent: QWidget | None = None, mouse_x: bool = False):
        existing = set(QApplication.topLevelWidgets())
        super().__init__(parent=parent)
        self._adopt_menus(existing)
        self.setMenuEnabled(False)  # pan/zoom/export menus add nothing to these plots
        self.hideButtons()
        self.setMouseEnabled(x=mouse_x, y=False)
        self.theme: Theme = LIGHT

    def _adopt_menus(self, existing: set) -> None:
        """Parent the context menus pyqtgraph creates without one.

        Parentless, they are top-level windows that outlive the plot for as long
        as any Python reference to it does; as children they go with the plot.
        """
        for widget in QApplication.topLevelWidgets():
            if isinstance(widget, QMenu) and widget not in existing:
                widget.setParent(self, widget.windowFlags())

    def apply_theme(self, theme: Theme) -> None:
        """Background and the left and bottom axes in the theme's plot colours."""
        self.theme = theme
        fg = theme.plot_foreground
        self.setBackground(theme.plot_background)
        item = self.getPlotItem()
        for side in ("left", "bottom"):
            axis = item.getAxis(side)
            axis.setPen(pg.mkPen(fg))
            axis.setTextPen(pg.mkPen(fg))


class CursorPlot(ThemedPlot):
    """A themed plot with a playback cursor and x-only zoom."""

    cycle_requested = Signal(int)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent, mouse_x=True)
        item = self.getPlotItem()
        item.getViewBox().setLimits(xMin=0)
        self.cursor = pg.InfiniteLine(angle=90, movable=True)
        self.cursor.setZValue(20)
        self.cursor.setHoverPen(pg.mkPen(LIGHT.marker, width=4))
        self.cursor.sigDragged.connect(self._cursor_dragged)
        self.addItem(self.cursor, ignoreBounds=True)
        self.scene().sigMouseClicked.connect(self._clicked)
        self._x_max = 1.0
        self.paint_count = 0

    def set_cycle(self, cycle: int) -> None:
        self.cursor.setValue(cycle + 0.5)

    def set_x_max(self, x_max: float) -> None:
        self._x_max = max(1.0, float(x_max))
        vb = self.getPlotItem().getViewBox()
        vb.setLimits(xMin=0, xMax=self._x_max, minXRange=min(20.0, self._x_max))

    def show_all(self) -> None:
        self.getPlotItem().setXRange(0, self._x_max, padding=0)

    def _cursor_dragged(self) -> None:
        self.cycle_requested.emit(int(self.cursor.value()))

    def _clicked(self, event) -> None:
        if event.button() != Qt.MouseButton.LeftButton or event.isAccepted():
            return
        vb = self.getPlotItem().getViewBox()
        if not vb.sceneBoundingRect().contains(event.scenePos()):
            return
        x = vb.mapSceneToView(event.scenePos()).x()
        if 0 <= x <= self._x_max:
            self.cycle_requested.emit(int(x))
            event.accept()

    def apply_theme(self, theme: Theme) -> None:
        super().apply_theme(theme)
        self.cursor.setPen(pg.mkPen(theme.marker, width=2))
        self.cursor.setHoverPen(pg.mkPen(theme.marker, width=4))

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt API
        self.paint_count += 1
        super().paintEvent(event)
