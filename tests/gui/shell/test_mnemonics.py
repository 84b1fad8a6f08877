"""Alt+letter mnemonics are unique per window (issue 14 item 15: Alt+G went to the "GPU:" label, not the
GEMM tab): with each tab in front, the menu bar's, the tab bar's and every visible label's, button's and
check box's letters differ, in English and in Russian."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractButton, QGroupBox, QLabel, QWidget

from explorer.gui.shell.i18n import install_translators
from explorer.gui.shell.main_window import MainWindow
from tests.gui.support import wait_run


def mnemonic(text: str) -> str | None:
    """The letter after a single "&" ("&&" is a literal ampersand), lower-cased."""
    found = re.search(r"&([^&\s])", text.replace("&&", ""))
    return found.group(1).lower() if found else None


def window_mnemonics(window) -> dict[str, list[str]]:
    """letter -> what claims it, for what is on screen now (hidden widgets' mnemonics do not fire)."""
    claims: dict[str, list[str]] = {}

    def claim(text: str, what: str) -> None:
        letter = mnemonic(text)
        if letter:
            claims.setdefault(letter, []).append(f"{what} {text!r}")

    for i in range(window.tabs.count()):
        claim(window.tabs.tabText(i), "tab")
    for action in window.menuBar().actions():
        claim(action.text(), "menu")
    for w in window.findChildren(QWidget):
        if not w.isVisible() or w.window() is not window:
            continue
        if isinstance(w, QLabel) and w.buddy() is not None:
            claim(w.text(), "label")
        elif isinstance(w, QAbstractButton):
            claim(w.text(), type(w).__name__)
        elif isinstance(w, QGroupBox) and w.isCheckable():
            claim(w.title(), "group")
    return claims


def duplicates(window) -> dict[str, list[str]]:
    found = {}
    for i in range(window.tabs.count()):
        window.tabs.setCurrentIndex(i)
        for letter, owners in window_mnemonics(window).items():
            if len(owners) > 1:
                found[f"{window.tabs.tabText(i)}: {letter}"] = owners
    return found


def test_mnemonics_are_unique_in_english(window, qtbot):
    window.feature("lessons").start("launched-resident-ready")  # the lesson panel's buttons count too
    assert duplicates(window) == {}
    window.feature("lessons").stop()


def test_mnemonics_are_unique_in_russian(qtbot, settings, light_theme, qapp):
    install_translators(qapp, "ru")
    try:
        ru = MainWindow(settings=settings)
        qtbot.addWidget(ru)
        ru.show()
        qtbot.waitExposed(ru)
        ru.feature("lessons").start("launched-resident-ready")
        assert ru.tabs.tabText(0) == "&Обозреватель"  # no longer "Explorer" (item 14)
        assert duplicates(ru) == {}
        ru.feature("lessons").stop()
        ru.close()
    finally:
        install_translators(qapp, "en")


@pytest.mark.parametrize("key, view", [(Qt.Key.Key_G, "gemm"), (Qt.Key.Key_M, "memory"),
                                       (Qt.Key.Key_O, "occupancy"), (Qt.Key.Key_E, "explorer")])
def test_alt_letter_opens_its_tab(window, qtbot, key, view):
    wait_run(qtbot, window.explorer)
    window.show_view("explorer" if view != "explorer" else "occupancy")
    window.activateWindow()
    qtbot.keyClick(window, key, Qt.KeyboardModifier.AltModifier)
    assert window.tabs.currentWidget() is window.views[view]
