"""Starting the app: the event loop, a missing platform plugin, start-up time, translations."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import types
from pathlib import Path

from PySide6.QtCore import QLocale, QTimer, QTranslator
from PySide6.QtWidgets import QApplication

from explorer.gui.shell import app as gui_app
from explorer.gui.shell.i18n import install_translators
from explorer.gui.shell.main_window import MainWindow

ROOT = Path(__file__).resolve().parents[3]


def _env(tmp_path, **extra) -> dict:
    env = dict(os.environ)
    env.update(HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path / "config"), **extra)
    return env


def test_run_shows_the_window_and_returns_the_exit_code(qapp, light_theme):
    shown = []

    def close_windows():
        for widget in QApplication.topLevelWidgets():
            if isinstance(widget, MainWindow) and widget.isVisible():
                shown.append(widget.occupancy.evaluation.result.occupancy)
                widget.close()

    QTimer.singleShot(0, close_windows)
    code = gui_app.run(types.SimpleNamespace(lang=None, smoke_test=False))
    assert code == 0
    assert shown == [1.0]
    assert qapp.organizationName() == "WarpExplorer" and qapp.applicationName() == "Warp Explorer"


def test_missing_platform_plugin_is_one_line_not_a_crash(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "explorer"],
        cwd=ROOT, env=_env(tmp_path, QT_QPA_PLATFORM="no-such-plugin"),
        capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == gui_app.EXIT_NO_WINDOW
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("warp-explorer: cannot open a window")
    assert '"no-such-plugin"' in lines[0]
    assert "Traceback" not in proc.stderr


def test_window_is_up_quickly(tmp_path):
    """Imports + QApplication + the first computed window, measured in a fresh process.

    Locally this takes ~0.8 s; the bound is loose so only a real regression (a heavy
    import, an uncached sweep storm) fails it on a busy machine.
    """
    script = textwrap.dedent(f"""
        import time
        t0 = time.perf_counter()
        from PySide6.QtCore import QSettings
        from explorer.gui.shell.app import create_application
        app = create_application()
        from explorer.gui.shell.main_window import MainWindow
        w = MainWindow(settings=QSettings({str(tmp_path / "s.ini")!r}, QSettings.Format.IniFormat))
        w.show()
        app.processEvents()
        print(time.perf_counter() - t0)
    """)
    proc = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=_env(tmp_path, QT_QPA_PLATFORM="offscreen"),
        capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert float(proc.stdout.strip().splitlines()[-1]) < 3.0


def test_translations(qapp, capsys):
    default = QLocale()
    try:
        assert install_translators(qapp, "en") == []
        loaded = install_translators(qapp, "ru")
        assert "warp_explorer" in loaded or "no 'ru' translation" in capsys.readouterr().err
        assert QLocale().language() == QLocale.Language.Russian
    finally:
        for translator in qapp.findChildren(QTranslator):
            qapp.removeTranslator(translator)
            translator.deleteLater()
        QLocale.setDefault(default)


def test_xcb_failure_names_the_libraries_ldd_misses(monkeypatch):
    """Qt's text blames libxcb-cursor0; the line names what ldd says is missing, with the apt command."""
    from tests.test_xcb_libs import LDD_TWO_MISSING

    startup = gui_app._StartupMessages()
    startup.messages = [
        (None, "qt.qpa.plugin: From 6.5.0, xcb-cursor0 or libxcb-cursor0 is needed to load the Qt xcb platform "
               "plugin."),
        (None, 'qt.qpa.plugin: Could not load the Qt platform plugin "xcb" in "" even though it was found.'),
    ]
    fatal = ("This application failed to start because no Qt platform plugin could be initialized. "
             "Reinstalling the application may fix this problem.")
    monkeypatch.setattr(gui_app, "xcb_plugin_path", lambda: Path(__file__))  # a file that exists
    line = startup.fatal_line(fatal, ldd=lambda _path: LDD_TWO_MISSING)
    assert line.startswith("warp-explorer: cannot open a window")
    assert line.endswith("sudo apt-get install libxcb-icccm4 libxcb-keysyms1")
    assert "libxcb-cursor0" not in line
    # ldd finds everything: Qt's own reasons, as before
    line = startup.fatal_line(fatal, ldd=lambda _path: "")
    assert "xcb-cursor0" in line and "apt-get" not in line
