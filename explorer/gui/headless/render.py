"""Draw the main window's Explorer tab into a PNG, headless (``warp-explorer render``).

The window is the real one (same widgets, same theme code), built offscreen at
the requested size with throw-away settings, given a simulation computed right
here (synchronously: no worker, no playback), moved to the requested cycle and
grabbed. The PNG is written to a temporary file next to the target and renamed
over it, so a reader never sees half an image.
"""

from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from explorer.model.errors import InputError
from explorer.model.scenario import Scenario

MIN_SIZE = (800, 500)
MAX_SIZE = (7680, 4320)


def parse_size(text: str) -> tuple[int, int]:
    """'1600x900' -> (1600, 900), within MIN_SIZE..MAX_SIZE."""
    parts = text.lower().replace("×", "x").split("x")
    if len(parts) != 2 or not all(p.strip().isascii() and p.strip().isdigit() for p in parts):  # not "²"
        raise InputError("--size", f"{text!r} is not WIDTHxHEIGHT (e.g. 1600x900)")
    w, h = (int(p) for p in parts)
    if not (MIN_SIZE[0] <= w <= MAX_SIZE[0] and MIN_SIZE[1] <= h <= MAX_SIZE[1]):
        raise InputError("--size", f"{w}x{h} is outside {MIN_SIZE[0]}x{MIN_SIZE[1]} .. {MAX_SIZE[0]}x{MAX_SIZE[1]}")
    return w, h


def default_cycle(run) -> int:
    """A representative moment: the middle of the cycles with the most warps resident."""
    resident = run.result.resident
    if resident.size == 0:
        return 0
    peak = np.nonzero(resident == resident.max())[0]
    return int(peak[len(peak) // 2])


def check_cycle(run, cycle: int) -> int:
    """``cycle`` when the run has it (``--cycle``), else an InputError that says the range."""
    if not 0 <= cycle < run.cycles:
        raise InputError("--cycle", f"{cycle} is outside the run's cycles 0..{run.cycles - 1}")
    return cycle


def check_sm(run, sm: int) -> None:
    """An InputError (``--sm``) unless the run's GPU has SM ``sm``."""
    if not 0 <= sm < run.sm_count:
        raise InputError("--sm", f"SM {sm} does not exist; this GPU has SMs 0..{run.sm_count - 1}")


def grab(window, size: tuple[int, int]):
    """The window's pixels at exactly ``size``."""
    from PySide6.QtCore import Qt

    image = window.grab().toImage()
    if (image.width(), image.height()) != tuple(size):
        image = image.scaled(size[0], size[1], Qt.AspectRatioMode.IgnoreAspectRatio,
                             Qt.TransformationMode.SmoothTransformation)
    return image


def atomic_save(image, out: Path) -> None:
    """Encode in memory, then write atomically: a full disk is one WriteError, not libpng's own lines."""
    from explorer.atomic import atomic_write_bytes
    from explorer.gui.files.export import png_bytes

    atomic_write_bytes(out, png_bytes(image), field="--out")


def _quiet_offscreen_warnings() -> None:
    """The offscreen plugin warns that it cannot propagate size hints: true, and no use to a CLI user."""
    from PySide6.QtCore import qInstallMessageHandler

    previous = None

    def handler(mode, context, message):
        if "propagateSizeHints" in message:
            return
        if previous is not None:
            previous(mode, context, message)
        else:
            import sys

            sys.stderr.write(message + "\n")

    previous = qInstallMessageHandler(handler)


def use_language(app, lang: str | None) -> None:
    """Draw the window in ``lang`` ("en", "ru"); None leaves the interface as it is (English in a CLI)."""
    if lang:
        from explorer.gui.shell.i18n import install_translators

        install_translators(app, lang)


@contextmanager
def offscreen_window(size: tuple[int, int], theme: str = "light", lang: str | None = None):
    """The main window, offscreen at ``size`` and in ``lang``, with throw-away settings; closed afterwards."""
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from explorer.gui.shell.app import create_application

    if QApplication.instance() is None:
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
        _quiet_offscreen_warnings()
    app = create_application()
    use_language(app, lang)
    from explorer.gui.shell.main_window import MainWindow

    with tempfile.TemporaryDirectory() as tmp:
        settings = QSettings(str(Path(tmp) / "render.ini"), QSettings.Format.IniFormat)
        settings.setValue("view/theme", theme)
        window = MainWindow(settings=settings)
        try:
            window.resize(*size)
            window.show()
            settle(app)
            yield app, window
        finally:
            window.shutdown()
            window.hide()
            window.deleteLater()
            app.processEvents()


def settle(app, rounds: int = 4) -> None:
    for _ in range(rounds):
        app.processEvents()


def render_window(scenario: Scenario, size: tuple[int, int], cycle: int | None = None, theme: str = "light",
                  sm: int | None = None, tab: str = "explorer", lang: str | None = None):
    """The grabbed QImage of the main window, and the (run, cycle) it shows."""
    from explorer.gui.explore.run_data import simulate_run

    run = simulate_run(scenario)
    cycle = default_cycle(run) if cycle is None else check_cycle(run, cycle)
    if sm is not None:
        check_sm(run, sm)
    with offscreen_window(size, theme, lang) as (app, window):
        page = window.explorer
        page.show_run(run)
        if sm is not None:
            page.session.select_sm(sm)
        window.tabs.setCurrentWidget(page if tab == "explorer" else window.occupancy)
        settle(app, 3)
        page.session.set_cycle(cycle)
        settle(app, 3)
        image = grab(window, size)
    return image, run, cycle


def render_png(scenario: Scenario, out, size: tuple[int, int] = (1600, 900), cycle: int | None = None,
               theme: str = "light", sm: int | None = None, lang: str | None = None) -> tuple[int, int, int]:
    """Write the PNG; returns (width, height, cycle)."""
    out = Path(out)
    image, _run, cycle = render_window(scenario, size, cycle, theme, sm, lang=lang)
    atomic_save(image, out)
    return image.width(), image.height(), cycle
