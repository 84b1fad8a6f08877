"""ReflowGrid (the Memory tab's tables on a projector): the widest arrangement that fits, both ways, with the
widths measured independently from the labels' font metrics."""

from __future__ import annotations

from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from explorer.gui.common.reflow_grid import Arrangement, Cell, ReflowGrid

WORDS = ("capacity", "latency", "bandwidth")


def make(qapp):
    host = QWidget()
    labels = [QLabel(w, host) for w in WORDS]
    extra = QLabel("only side by side", host)
    def side():
        return Arrangement([Cell(lb, 0, i) for i, lb in enumerate(labels)] + [Cell(extra, 1, 0, col_span=3)])

    def stacked():
        return Arrangement([Cell(lb, i, 0) for i, lb in enumerate(labels)])

    grid = ReflowGrid((side, stacked), host, h_spacing=10, v_spacing=2)
    QVBoxLayout(host).addWidget(grid)
    host.layout().setContentsMargins(0, 0, 0, 0)
    return host, grid, labels, extra


def text_width(label: QLabel) -> int:
    return QFontMetrics(label.font()).horizontalAdvance(label.text())


def test_the_first_arrangement_that_fits_its_width_and_back(qapp):
    host, grid, labels, extra = make(qapp)
    side_need = max(sum(text_width(lb) for lb in labels) + 2 * 10, text_width(extra))
    stacked_need = max(text_width(lb) for lb in labels)
    assert abs(grid.min_width(grid.arrangements[0]()) - side_need) <= 6  # a QLabel's margin of a pixel or two
    assert abs(grid.minimumSizeHint().width() - stacked_need) <= 6  # never wider than the narrowest
    host.resize(side_need + 40, 200)
    host.show()
    qapp.processEvents()
    assert grid.current == 0 and extra.isVisible()
    assert len({lb.geometry().top() for lb in labels}) == 1  # side by side
    host.resize(stacked_need + 20, 200)
    qapp.processEvents()
    assert grid.current == 1 and not extra.isVisible()  # left out: hidden
    tops = [lb.geometry().top() for lb in labels]
    assert tops == sorted(tops) and len(set(tops)) == 3  # one under the other
    assert all(lb.geometry().right() < grid.width() for lb in labels)
    host.resize(side_need + 40, 200)
    qapp.processEvents()
    assert grid.current == 0 and extra.isVisible()
    host.close()


def test_a_longer_text_at_the_same_width_re_arranges(qapp):
    host, grid, labels, extra = make(qapp)
    host.resize(grid.min_width(grid.arrangements[0]()) + 30, 200)
    host.show()
    qapp.processEvents()
    assert grid.current == 0
    labels[1].setText("a much longer latency heading than before")
    for _ in range(4):
        qapp.processEvents()
    assert grid.current == 1
    host.close()
