"""Start the window: QApplication, names, translations, theme, main window.

``run(args)`` is what ``warp-explorer`` with no subcommand calls. A missing
display or platform plugin is a fatal Qt error that aborts the process with a
multi-line message (and a core dump); a message handler installed only while
the QApplication is constructed turns it into one line and exit code 1. For the
xcb plugin that line names the system libraries ``ldd`` says the plugin lacks and
the apt command that installs them (``explorer.gui.shell.xcb_libs``): Qt's own text names
libxcb-cursor0 whichever one is missing.
"""

from __future__ import annotations

import os
import re
import sys


def _import_pyqtgraph() -> None:
    """pyqtgraph without its CUDA-OpenGL interop: its RawImageWidget imports ``cuda.bindings.runtime`` (and
    with it the CUDA driver bindings: ~10% of the window's imports, measured 83 of 706 ms) to draw CuPy
    arrays, which this app never does. Only that one import is refused, only while pyqtgraph loads; the
    real-GPU path imports cuda-python as usual afterwards."""
    name = "cuda.bindings.runtime"
    refused = name not in sys.modules
    if refused:
        sys.modules[name] = None  # an ImportError for that import alone: pyqtgraph then leaves the interop off
    try:
        import pyqtgraph  # noqa: F401
    finally:
        if refused and name in sys.modules and sys.modules[name] is None:
            del sys.modules[name]


# Imported here, not lazily: the CLI imports this module to learn whether the
# window can run at all, and reports a missing PySide6/pyqtgraph as one line.
_import_pyqtgraph()
from PySide6.QtCore import QtMsgType, Qt, qInstallMessageHandler  # noqa: E402
from PySide6.QtGui import QGuiApplication  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

EXIT_NO_WINDOW = 1


class _StartupMessages:
    """Collects Qt's messages while the platform plugin loads; a fatal one ends the process."""

    def __init__(self):
        self.messages: list[tuple[object, str]] = []

    def __call__(self, mode, _context, message: str) -> None:
        if mode != QtMsgType.QtFatalMsg:
            self.messages.append((mode, message))
            return
        sys.stderr.write(self.fatal_line(message) + "\n")
        sys.stderr.flush()
        os._exit(EXIT_NO_WINDOW)  # Qt aborts right after a fatal message returns

    def fatal_line(self, message: str, ldd=None) -> str:
        """One line for a fatal start-up message; for the xcb plugin, the libraries ``ldd`` says it lacks
        and the apt command (Qt's own text names libxcb-cursor0 whatever is missing)."""
        text = " ".join(m for _, m in self.messages) + " " + message
        found = re.search(r'platform plugin "([^"]+)"', text)
        plugin = found.group(1) if found else os.environ.get("QT_QPA_PLATFORM", "default")
        if plugin == "xcb":
            from explorer.gui.shell import xcb_libs

            line = xcb_libs.missing_line(xcb_plugin_path(), **({"runner": ldd} if ldd else {}))
            if line:
                return line
        reasons = "; ".join(m.strip().rstrip(".") for _, m in self.messages if m.strip()) or "no usable platform plugin"
        return (
            f"warp-explorer: cannot open a window (Qt platform plugin \"{plugin}\"): {reasons}. "
            "Run it in a desktop session, install the missing system libraries, "
            "or use the command-line subcommands (warp-explorer --help)."
        )

    def replay(self) -> None:
        """Print the non-fatal messages as Qt would have, once the app exists."""
        for _, message in self.messages:
            sys.stderr.write(message.rstrip() + "\n")


def xcb_plugin_path():
    """Where the Qt in use keeps its xcb platform plugin (the wheel's or the bundle's)."""
    from pathlib import Path

    from PySide6.QtCore import QLibraryInfo

    return Path(QLibraryInfo.path(QLibraryInfo.LibraryPath.PluginsPath)) / "platforms" / "libqxcb.so"


def create_application(argv: list[str] | None = None):
    """The QApplication, created once, with the names QSettings and the OS use."""
    from explorer.gui.common.settings import set_application_names

    app = QApplication.instance()
    if app is None:
        # Qt 6 is high-DPI aware already; pass fractional scale factors (125%, 150%) through
        # unrounded so text and plots are crisp instead of blurred by rounding.
        QGuiApplication.setHighDpiScaleFactorRoundingPolicy(Qt.HighDpiScaleFactorRoundingPolicy.PassThrough)
        startup = _StartupMessages()
        previous = qInstallMessageHandler(startup)
        try:
            app = QApplication(list(argv) if argv is not None else sys.argv[:1])
        finally:
            qInstallMessageHandler(previous)
        startup.replay()
    set_application_names(app)
    app.setApplicationDisplayName("Warp Explorer")
    app.setDesktopFileName("warp-explorer")  # the installed warp-explorer.desktop (Wayland app id, taskbar)
    from explorer.paths import resource

    icon = resource("icons", "warp-explorer-256.png")
    if icon.is_file():
        from PySide6.QtGui import QIcon

        app.setWindowIcon(QIcon(str(icon)))
    return app


def run(args) -> int:
    """Open the main window and run the event loop; the exit code of the app.

    An exception in a slot or event handler is logged and shown, and the app goes on
    (``common.guard``). ``--smoke-test`` never gets here: the CLI runs it itself.
    """
    app = create_application()
    from explorer.gui.common import guard

    guard.install()

    from explorer.gui.shell.i18n import install_translators

    install_translators(app, getattr(args, "lang", None))

    from explorer.gui.shell.main_window import MainWindow

    window = MainWindow(autoplay=True)
    window.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)  # its settings are saved in closeEvent
    window.show()
    try:
        return app.exec()
    finally:
        guard.uninstall()
