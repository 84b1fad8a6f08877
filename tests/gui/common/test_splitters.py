"""A collapsible splitter pane is folded away or at least its minimum, never a squeezed part of itself
(the Explorer's unit-use strip: its title alone, or cells without names, at 1280x720)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from explorer.gui.common.page import usable_sizes
from explorer.gui.common.widgets import splitter


def panes(qtbot, heights=(100, 80, 100)):
    box = QWidget()
    qtbot.addWidget(box)
    widgets = []
    for h in heights:
        w = QWidget()
        w.setMinimumHeight(h)
        widgets.append(w)
    s = splitter(Qt.Orientation.Vertical, box, "test_splitter", widgets, fit_panes=True)
    s.setCollapsible(1, True)
    layout = QVBoxLayout(box)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.addWidget(s)
    box.show()
    qtbot.waitExposed(box)
    return box, s


def test_the_foldable_pane_is_left_out_of_the_minimum(qtbot):
    _box, s = panes(qtbot)
    handles = 2 * s.handleWidth()
    assert s.minimumSizeHint().height() == 100 + 100 + handles  # the 80 px pane can fold
    assert not s.widget(0).property("foldable") and s.widget(1).property("foldable")


def test_too_short_it_folds_and_opens_again_with_the_room(qtbot):
    box, s = panes(qtbot)
    box.resize(200, 400)
    qtbot.waitUntil(lambda: s.height() >= 390)
    s.setSizes([150, 100, 150])
    box.resize(200, 250)  # 200 px for the two plots' minimums, not 280
    qtbot.waitUntil(lambda: s.height() <= 255)
    sizes = s.sizes()
    assert sizes[1] == 0 and sizes[0] >= 100 and sizes[2] >= 100
    box.resize(200, 400)
    qtbot.waitUntil(lambda: s.sizes()[1] > 0)
    sizes = s.sizes()
    assert sizes[1] >= 80 and sizes[0] >= 100 and sizes[2] >= 100


def test_a_pane_folded_by_hand_stays_folded(qtbot):
    box, s = panes(qtbot)
    box.resize(200, 250)
    qtbot.waitUntil(lambda: s.sizes()[1] == 0)
    s.splitterMoved.emit(10, 1)  # the user moved a handle: what is folded is theirs
    box.resize(200, 500)
    qtbot.wait(20)
    assert s.sizes()[1] == 0


def test_a_folded_foldable_pane_is_a_usable_saved_size(qtbot):
    _box, s = panes(qtbot)
    assert usable_sizes(s, [100, 0, 100])
    assert not usable_sizes(s, [0, 80, 100])  # a pane that may not fold
    assert not usable_sizes(s, [100, 40, 100])  # squeezed below its minimum


def test_a_wrapped_caption_is_part_of_its_panes_minimum(qtbot):
    box = QWidget()
    qtbot.addWidget(box)
    plot, pane = QWidget(), QWidget()
    plot.setMinimumHeight(100)
    caption = QLabel("a caption long enough to wrap onto more lines in a narrow pane " * 3)
    caption.setWordWrap(True)
    lay = QVBoxLayout(pane)
    lay.addWidget(QWidget())
    lay.addWidget(caption)
    s = splitter(Qt.Orientation.Vertical, box, "test_splitter", (plot, pane), fit_panes=True)
    s.setFixedWidth(160)
    box.show()
    qtbot.waitExposed(box)
    qtbot.waitUntil(lambda: pane.minimumHeight() >= caption.heightForWidth(pane.width()))
