"""The layout check (explorer.gui.common.layout_check) finds a planted clipped text or overlap, and only those.

Each case builds a small real window whose geometry is known (fixed sizes, text
measured with the widget's own font metrics), so the expected verdict follows
from the numbers, not from the checker's own code.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtGui import QFont, QFontMetrics, QPainter
from PySide6.QtWidgets import (
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from explorer.gui.common.layout_check import LayoutChecker, PaintedText, Problem, check_layout, report
from explorer.gui.common.plots import ThemedPlot

TEXT = "memory wait"


@pytest.fixture
def top(qtbot):
    w = QWidget()
    w.setObjectName("test_window")
    w.resize(600, 400)
    qtbot.addWidget(w)
    return w


def shown(qtbot, w: QWidget) -> QWidget:
    w.show()
    qtbot.waitExposed(w)
    return w


def label_at(parent: QWidget, text: str, x: int, y: int, width: int | None = None, name: str = "") -> QLabel:
    label = QLabel(text, parent)
    label.setObjectName(name)
    fm = label.fontMetrics()
    label.setGeometry(x, y, width if width is not None else fm.horizontalAdvance(text) + 4, fm.height() + 4)
    return label


def test_a_label_that_fits_passes_and_one_too_narrow_is_clipped(qtbot, top):
    label_at(top, TEXT, 10, 10, name="whole")
    short = label_at(top, TEXT, 10, 60, name="cut")
    short.setFixedWidth(short.fontMetrics().horizontalAdvance(TEXT) // 2)
    shown(qtbot, top)
    problems = check_layout(top)
    assert [(p.kind, p.where, p.text) for p in problems] == [("clipped", "cut", TEXT)]
    assert "needs" in problems[0].detail


def test_two_labels_on_top_of_each_other_overlap(qtbot, top):
    a = label_at(top, TEXT, 10, 10, name="first")
    label_at(top, "LSU queue full", 10 + a.width() // 3, 12, name="second")
    shown(qtbot, top)
    problems = check_layout(top)
    assert [p.kind for p in problems] == ["overlap"]
    assert {problems[0].text, problems[0].other} == {TEXT, "LSU queue full"}


def test_neighbours_that_only_touch_do_not_overlap(qtbot, top):
    a = label_at(top, TEXT, 10, 10)
    label_at(top, TEXT, 10 + a.width(), 10)
    label_at(top, TEXT, 10, 10 + a.height())
    shown(qtbot, top)
    assert check_layout(top) == []


def test_a_wrapped_label_shorter_than_its_lines_is_clipped(qtbot, top):
    label = QLabel("Every unfinished warp is resident. At most 8,448 fit at once (8 blocks per SM).", top)
    label.setWordWrap(True)
    label.setGeometry(10, 10, 160, label.fontMetrics().height() + 2)  # one line for several
    shown(qtbot, top)
    (problem,) = check_layout(top)
    assert problem.kind == "clipped" and problem.text.startswith("Every unfinished")
    label.setFixedHeight(QLabel.heightForWidth(label, 160) + 2)
    assert check_layout(top) == []


def test_a_label_cut_by_its_parent(qtbot, top):
    box = QWidget(top)
    box.setGeometry(0, 0, 80, 40)
    label_at(box, TEXT, 50, 5)  # sticks out of the box's right edge
    shown(qtbot, top)
    (problem,) = check_layout(top)
    assert "right" in problem.detail


def test_a_scroll_bar_lets_the_user_reach_what_is_cut_off(qtbot, top):
    inner = QWidget()
    lay = QVBoxLayout(inner)
    for i in range(40):
        lay.addWidget(QLabel(f"row {i}: {TEXT}", inner))
    area = QScrollArea(top)
    area.setWidget(inner)
    area.setWidgetResizable(True)
    area.setGeometry(0, 0, 300, 200)
    shown(qtbot, top)
    assert area.verticalScrollBar().isVisible()
    assert check_layout(top) == []
    area.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)  # presentation mode: no scroll bar
    qtbot.wait(10)
    problems = check_layout(top)
    assert problems and all(p.kind == "clipped" for p in problems)


def test_button_line_edit_and_placeholder(qtbot, top):
    button = QPushButton("Simulate in the Explorer", top)
    button.setGeometry(0, 0, 60, 30)
    edit = QLineEdit("4096", top)
    edit.setGeometry(0, 50, edit.fontMetrics().horizontalAdvance("40") + 8, 26)
    empty = QLineEdit(top)
    empty.setPlaceholderText("auto: 128x256x64")
    empty.setGeometry(0, 100, 60, 26)
    shown(qtbot, top)
    assert {p.text for p in check_layout(top)} == {"Simulate in the Explorer", "4096", "auto: 128x256x64"}


def test_a_table_cell_and_its_header(qtbot, top):
    table = QTableWidget(2, 2, top)
    table.setHorizontalHeaderLabels(["naive", "Naive ÷ flash: the ratio of the two kernels"])
    table.setItem(0, 0, QTableWidgetItem("4.21 MB"))
    table.setItem(0, 1, QTableWidgetItem("x32.87 fewer bytes moved between HBM and the SMs"))
    table.setWordWrap(False)
    table.setColumnWidth(0, 120)
    table.setColumnWidth(1, 60)
    table.setGeometry(0, 0, 500, 200)
    shown(qtbot, top)
    texts = {p.text for p in check_layout(top)}
    assert texts == {"Naive ÷ flash: the ratio of the two kernels", "x32.87 fewer bytes moved between HBM and the SMs"}


def test_a_table_scrolled_sideways_reaches_its_cut_cells_but_a_narrow_cell_is_still_clipped(qtbot, top):
    """Cells and header sections the table's own scroll bar reaches are not cut; a column too narrow for its
    text is, wherever it is."""
    long = "IMAD.WIDE.U32 R4, R4, R5, UR4 and more operands than the view is wide"
    table = QTableWidget(2, 3, top)
    table.setHorizontalHeaderLabels(["PC", "Unit", "Instruction"])
    table.setItem(0, 0, QTableWidgetItem("02c0"))
    table.setItem(1, 1, QTableWidgetItem("fmaheavy, a unit name too long for its column"))
    table.setItem(0, 2, QTableWidgetItem(long))
    table.setWordWrap(False)
    fm = table.fontMetrics()
    table.setColumnWidth(0, 80)
    table.setColumnWidth(1, 40)
    table.setColumnWidth(2, fm.horizontalAdvance(long) + 20)  # wide enough, and wider than the view
    table.setGeometry(0, 0, 300, 150)
    shown(qtbot, top)
    assert table.horizontalScrollBar().isVisible()
    assert {p.text for p in check_layout(top)} == {"fmaheavy, a unit name too long for its column"}


class Painted(QWidget):
    """Paints one text into a given rectangle, and says so (as the SM grid does)."""

    def __init__(self, parent, rect: QRect):
        super().__init__(parent)
        self.rect_ = rect
        self.font_ = QFont(self.font())

    def painted_texts(self):
        return [PaintedText("SM 121", self.rect_, self.font_, int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter))]

    def paintEvent(self, event):  # noqa: N802
        p = QPainter(self)
        p.setFont(self.font_)
        item = self.painted_texts()[0]
        p.drawText(item.rect, item.flags, item.text)
        p.end()


def test_painted_text_in_too_small_a_rectangle(qtbot, top):
    fm = QFontMetrics(top.font())
    ok = Painted(top, QRect(0, 0, fm.horizontalAdvance("SM 121") + 4, fm.height() + 2))
    ok.setGeometry(0, 0, 200, 40)
    cut = Painted(top, QRect(0, 0, fm.horizontalAdvance("SM 1"), fm.height() + 2))  # shows "121"
    cut.setObjectName("grid")
    cut.setGeometry(0, 100, 200, 40)
    shown(qtbot, top)
    assert [(p.where, p.text) for p in check_layout(top)] == [("grid", "SM 121")]


def _plot(parent, y: int, ticks: range, title: str) -> ThemedPlot:
    plot = ThemedPlot(parent)  # (custom ticks and a plain title: what the window's own fitting leaves alone)
    plot.setGeometry(0, y, 300, 140)
    plot.getPlotItem().getAxis("left").setTicks([[(v, f"sched {v}") for v in ticks]])
    plot.getPlotItem().setYRange(0, 9, padding=0)
    plot.getPlotItem().setTitle(title)
    return plot


def test_plot_ticks_that_pile_up_and_a_title_wider_than_the_plot(qtbot, top):
    _plot(top, 0, range(10), "Timeline of SM 0: its 16 busy warp slots (of 64), grouped by scheduler")
    shown(qtbot, top)
    qtbot.wait(20)
    problems = check_layout(top)
    assert any(p.kind == "overlap" and p.where.endswith("left axis") and p.text.startswith("sched") for p in problems)
    assert any(p.kind == "clipped" and p.text.startswith("Timeline of SM 0") for p in problems)


def test_a_plot_with_room_for_its_texts_passes(qtbot, top):
    _plot(top, 0, range(0, 10, 9), "SM 0")  # two tick labels and a short title
    shown(qtbot, top)
    qtbot.wait(20)
    assert check_layout(top) == []


def test_a_window_that_cannot_shrink_to_the_screen(qtbot, top):
    top.setMinimumSize(700, 300)
    shown(qtbot, top)
    checker = LayoutChecker(top, screen=QSize(640, 480))
    (problem,) = checker.run()
    assert problem.where == "window" and "640x480" in problem.detail


def test_roots_limit_the_walk_and_the_report_lists_each_problem(qtbot, top):
    left, right = QWidget(top), QWidget(top)
    left.setGeometry(0, 0, 300, 400)
    right.setGeometry(300, 0, 300, 400)
    for parent in (left, right):
        label = label_at(parent, TEXT, 0, 0)
        label.setFixedWidth(20)
    shown(qtbot, top)
    checker = LayoutChecker(top, roots=[left])
    problems = checker.run()
    assert len(problems) == 1 and checker.checked == 1
    text = report(problems, checker.checked, "1280x720, en")
    assert text.splitlines()[0] == "layout check: 1 problem in 1 texts (1280x720, en):"
    assert text.splitlines()[1].startswith("  clipped  ") and TEXT in text
    assert report([], 12, "x") == "layout check: all 12 texts fit (x)"
    assert str(Problem("overlap", "a", "one", "2x2 px", "two")) == 'overlap  a: "one" and "two" (2x2 px)'


def test_a_plot_made_narrower_keeps_its_view_inside_its_widget(qtbot, top):
    """A title chosen for a wide plot must not hold the plot item wider after a resize: the plot went past its
    widget's right edge and its last cycle numbers were cut (Russian, 1600x900 then 1280x720)."""
    long = "Временная диаграмма SM 0: занятые слоты варпов (16 из 64) по планировщикам"
    top.resize(900, 400)
    plot = ThemedPlot(top)
    plot.setGeometry(0, 0, 880, 140)
    plot.getPlotItem().setXRange(0, 11021, padding=0)
    plot.set_titles(long, "Временная диаграмма SM 0")
    shown(qtbot, top)
    qtbot.wait(20)
    assert plot.getPlotItem().titleLabel.text == long  # it fits the wide plot
    plot.resize(300, 140)
    qtbot.wait(20)
    assert plot.getPlotItem().geometry().width() <= plot.width()
    assert "планировщикам" not in plot.getPlotItem().titleLabel.text  # the short title
    assert check_layout(top) == []
