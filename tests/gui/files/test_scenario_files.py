"""Scenario files: open, save, save as, recent files, drag-and-drop, bad files."""

from __future__ import annotations

from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox

from explorer.model.scenario import Scenario

RUN_TIMEOUT = 60_000


def settle(qtbot, page):
    qtbot.waitUntil(lambda: page.workspace.session.run is not None and not page.workspace.session.simulating
                    and page.workspace.session.run.result.scenario == page.workspace.session.scenario,
                    timeout=RUN_TIMEOUT)


def boxes() -> list[QMessageBox]:
    return [w for w in QApplication.topLevelWidgets() if isinstance(w, QMessageBox) and w.isVisible()]


def close_boxes() -> None:
    for box in boxes():
        box.close()


def test_save_then_open_round_trip(window, qtbot, tmp_path):
    page = window.explorer
    settle(qtbot, page)
    page.panel.fields["regs"].set_text("96")
    page.apply_edits()
    edited = page.workspace.session.scenario
    assert edited.launch.registers_per_thread == 96
    path = tmp_path / "mine.toml"
    assert window.feature("files").save_to(path)
    assert Scenario.load(path) == edited
    assert window.windowTitle() == "mine.toml[*] — Warp Explorer" and not window.isWindowModified()
    assert not list(tmp_path.glob(".*"))  # atomic: no temporary file left

    page.load_preset("compute-bound-fma")
    assert window.isWindowModified()
    assert window.open_path(path)
    assert page.workspace.session.scenario == edited
    assert page.panel.fields["regs"].text() == "96"
    assert not window.isWindowModified()
    settle(qtbot, page)
    assert page.workspace.session.run.result.scenario == edited


def test_ctrl_s_saves_to_the_same_file_and_save_as_asks(window, qtbot, tmp_path, monkeypatch):
    page = window.explorer
    settle(qtbot, page)
    target = tmp_path / "asked"  # no suffix: .toml is added
    asked = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        lambda *a, **k: (asked.append(a) or str(target), "Scenarios (*.toml)"))
    window.activateWindow()
    qtbot.keyClick(window, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)  # no file yet: Save As
    saved = tmp_path / "asked.toml"
    assert len(asked) == 1 and saved.is_file()
    page.panel.fields["grid"].set_text("480")
    page.apply_edits()
    qtbot.keyClick(window, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)  # now straight to the file
    assert len(asked) == 1
    assert Scenario.load(saved).launch.grid.x == 480
    qtbot.keyClick(window, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert len(asked) == 2


def test_saving_with_an_invalid_field_is_refused(window, qtbot, tmp_path):
    page = window.explorer
    settle(qtbot, page)
    page.panel.fields["regs"].set_text("lots")
    path = tmp_path / "bad.toml"
    assert not window.feature("files").save_to(path)
    assert not path.exists()
    (box,) = boxes()
    assert "regs" in box.text() and "invalid" in box.text()
    close_boxes()
    assert page.panel.fields["regs"].text() == "lots"  # the edit is still there


def test_a_malformed_file_is_a_message_and_nothing_is_lost(window, qtbot, tmp_path):
    page = window.explorer
    settle(qtbot, page)
    page.panel.fields["grid"].set_text("300")
    page.apply_edits()
    page.panel.fields["regs"].set_text("4")  # an edit in progress (not yet applied)
    before = page.workspace.session.scenario
    bad = tmp_path / "broken.toml"
    bad.write_text("gpu = 'H100'\n[launch\ngrid = 12\n", encoding="utf-8")
    assert window.open_path(bad) is True  # handled (by the scenario handler) ...
    (box,) = boxes()
    assert "broken.toml" in box.text() and "invalid TOML" in box.text()
    close_boxes()
    assert page.workspace.session.scenario == before  # ... and nothing changed
    assert page.panel.fields["regs"].text() == "4" and page.panel.fields["grid"].text() == "300"
    assert str(bad.resolve()) not in window.feature("files").recent.paths()

    wrong = tmp_path / "wrong.toml"
    wrong.write_text("gpu = 'H100'\n[launch]\ngrid = [0, 1, 1]\n", encoding="utf-8")
    assert not window.feature("files").open_file(wrong)
    (box,) = boxes()
    assert "launch.grid" in box.text() and "minimum" in box.text()
    close_boxes()
    unknown = tmp_path / "gpu.toml"
    unknown.write_text("gpu = 'Z80'\n", encoding="utf-8")
    assert not window.feature("files").open_file(unknown)
    (box,) = boxes()
    assert "Z80" in box.text()
    close_boxes()
    assert page.workspace.session.scenario == before


def test_recent_files_menu(window, qtbot, tmp_path):
    page = window.explorer
    settle(qtbot, page)
    files = []
    for i in range(10):
        path = tmp_path / f"s{i}.toml"
        page.workspace.session.scenario.with_values(seed=i + 1).save(path)
        files.append(path)
    for path in files:
        assert window.feature("files").open_file(path)
    recent = window.feature("files").recent.paths()
    assert recent == [str(p.resolve()) for p in reversed(files)][:8]
    menu = window.feature("files").recent_menu
    menu.aboutToShow.emit()
    entries = [a for a in menu.actions() if a.data()]
    assert [a.data() for a in entries] == recent
    assert entries[0].text().startswith("&1  s9.toml")
    entries[3].trigger()
    assert page.workspace.session.scenario.seed == 7
    assert window.feature("files").recent.paths()[0] == str(files[6].resolve())
    # a file that went away: a message, and off the list
    files[5].unlink()
    assert not window.feature("files").open_recent(str(files[5].resolve()))
    assert str(files[5].resolve()) not in window.feature("files").recent.paths()
    close_boxes()
    # remembered in the settings
    assert window.settings.value("files/recent")[0] == window.feature("files").recent.paths()[0]
    next(a for a in menu.actions() if a.text() == "&Clear the list").trigger()
    assert window.feature("files").recent.paths() == []


def test_drag_and_drop_of_a_scenario_file(window, qtbot, tmp_path):
    page = window.explorer
    settle(qtbot, page)
    path = tmp_path / "dropped.toml"
    page.workspace.session.scenario.with_values(**{"launch.grid": [77, 1, 1]}).save(path)
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path))])
    event = QDropEvent(QPointF(QPoint(50, 50)), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                       Qt.KeyboardModifier.NoModifier)
    window.dropEvent(event)
    assert page.workspace.session.scenario.launch.grid.x == 77
    assert window.windowTitle().startswith("dropped.toml")
