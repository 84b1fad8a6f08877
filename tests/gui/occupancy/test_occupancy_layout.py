"""The calculator's splitter between runs: saved sizes are used only when they show every pane.

Issue 14 item 1: a tab never opened saved its splitter as (-1, -1); the next start
restored that, skipped its first sizing, and the tab was a 40 px strip showing "GPU:".
"""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QDataStream, QIODevice, QSettings

from explorer.gui.common.page import pane_minimum
from explorer.gui.common.settings import splitter_sizes
from explorer.gui.occupancy.panel import MIN_INPUT_LINES
from tests.gui.support import wait_run


def open_window(qtbot, path, size=(1600, 900)):
    from explorer.gui.shell.main_window import MainWindow

    w = MainWindow(settings=QSettings(str(path), QSettings.Format.IniFormat))
    qtbot.addWidget(w)
    w.resize(*size)
    w.show()
    qtbot.waitExposed(w)
    return w


def on_calculator(qtbot, window):
    """``window`` with its Occupancy tab in front and shown; the tab."""
    window.tabs.setCurrentWidget(window.occupancy)
    qtbot.waitUntil(lambda: window.occupancy.isVisible())
    return window.occupancy


def assert_laid_out(panel) -> None:
    """Both panes shown at a readable size: the inputs' pane holds its content's top rows, the graphs the rest."""
    top, graphs = panel.splitter.sizes()
    lines = panel.fontMetrics().lineSpacing()
    assert top >= MIN_INPUT_LINES * lines, (top, graphs)
    assert graphs >= panel.graphs.minimumSizeHint().height()
    assert top + graphs >= 0.8 * panel.height()
    inputs = panel.inputs
    assert inputs.fields["threads"].isVisible() and inputs.fields["threads"].edit.visibleRegion().boundingRect().height() > 0


def blob(sizes: list[int]) -> QByteArray:
    """A QSplitter.saveState() blob holding ``sizes`` (as Qt writes it: magic, version, sizes, ...)."""
    data = QByteArray()
    stream = QDataStream(data, QIODevice.OpenModeFlag.WriteOnly)
    stream.writeUInt32(0xFF)
    stream.writeInt32(1)
    stream.writeInt32(len(sizes))
    for size in sizes:
        stream.writeInt32(size)
    stream.writeInt32(-1)  # handle width
    stream.writeBool(True)  # opaque resize
    stream.writeInt32(2)  # orientation
    stream.writeBool(False)
    return data


def test_second_start_without_opening_the_tab_first(qtbot, tmp_path, light_theme):
    ini = tmp_path / "settings.ini"
    first = open_window(qtbot, ini)
    wait_run(qtbot, first.explorer)
    assert first.tabs.currentWidget() is first.explorer  # the calculator is never shown in this run
    first.close()
    saved = QSettings(str(ini), QSettings.Format.IniFormat).value("occupancy/splitter")
    assert saved is None or min(splitter_sizes(saved)) > 0, "a never laid-out splitter is not saved"

    second = open_window(qtbot, ini)
    assert_laid_out(on_calculator(qtbot, second))
    second.close()


def test_sizes_saved_by_an_older_version_that_collapse_the_tab_are_ignored(qtbot, tmp_path, light_theme):
    ini = tmp_path / "settings.ini"
    for bad in ([-1, -1], [68, 738], [0, 800], [500], [300, 300, 300]):
        s = QSettings(str(ini), QSettings.Format.IniFormat)
        s.setValue("occupancy/splitter", blob(bad))
        s.sync()
        w = open_window(qtbot, ini)
        assert_laid_out(on_calculator(qtbot, w))
        w.close()


def test_usable_saved_sizes_are_kept(qtbot, tmp_path, light_theme):
    ini = tmp_path / "settings.ini"
    first = open_window(qtbot, ini)
    total = sum(on_calculator(qtbot, first).splitter.sizes())
    wanted = [total - 300, 300]
    first.occupancy.splitter.setSizes(wanted)
    wanted = first.occupancy.splitter.sizes()
    first.close()
    second = open_window(qtbot, ini)
    assert on_calculator(qtbot, second).splitter.sizes() == wanted
    second.close()


def test_after_a_language_switch_the_tab_is_laid_out(window, qtbot, english):
    from explorer.gui.shell.language import switch_language

    wait_run(qtbot, window.explorer)
    new = switch_language(window, "ru")
    qtbot.addWidget(new)
    assert_laid_out(on_calculator(qtbot, new))
    back = switch_language(new, "en")
    qtbot.addWidget(back)
    assert_laid_out(on_calculator(qtbot, back))


def test_splitter_state_reader_refuses_what_is_not_one():
    assert splitter_sizes(blob([120, 340])) == [120, 340]
    assert splitter_sizes(None) is None
    assert splitter_sizes("not bytes") is None
    assert splitter_sizes(QByteArray(b"\x00\x00\x00\xff")) is None  # cut short
    assert splitter_sizes(QByteArray(b"\x00\x00\x00\xfe" + b"\x00" * 20)) is None  # not the magic
    assert splitter_sizes(QByteArray(b"\x00\x00\x00\xff\x00\x00\x00\x01\x7f\xff\xff\xff" + b"\x00" * 8)) is None
    assert splitter_sizes(QByteArray(b"\x00\x00\x00\xff\x00\x00\x00\x01\x00\x00\x00\x05\x00\x00")) is None


def test_pane_minimum_is_the_inputs_height(panel):
    lines = panel.fontMetrics().lineSpacing()
    assert pane_minimum(panel.splitter, 0) >= MIN_INPUT_LINES * lines


def test_lesson_2_in_presentation_mode_lays_the_tab_out(qtbot, tmp_path, light_theme):
    """The tab first shown by a lesson step in presentation mode (fonts scaled), after a run that saved the
    never-laid-out (-1, -1), is laid out on every calculator step, not a strip."""
    ini = tmp_path / "settings.ini"
    s = QSettings(str(ini), QSettings.Format.IniFormat)
    s.setValue("occupancy/splitter", blob([-1, -1]))
    s.sync()
    window = open_window(qtbot, ini)
    wait_run(qtbot, window.explorer)
    presentation = window.feature("presentation")
    presentation.set_presenting(True)
    try:
        lessons = window.feature("lessons")
        lessons.start("what-limits-residency")
        qtbot.waitUntil(lambda: lessons.ready, timeout=60_000)
        assert window.tabs.currentWidget() is window.occupancy
        for k in range(5):  # the calculator's steps
            lessons.go(k)
            qtbot.waitUntil(lambda: lessons.ready and window.occupancy.isVisible(), timeout=60_000)
            assert_laid_out(window.occupancy)
    finally:
        presentation.set_presenting(False)
        window.close()
