"""Draw the main window into a PNG, headless (``warp-explorer render``).

The window is the real one (same widgets, same theme code), built offscreen at
the requested size with throw-away settings, given a simulation computed right
here (synchronously: no worker, no playback) or a lesson step, moved to the
requested cycle and tab, optionally in presentation mode at a scale, and
grabbed; :func:`draw` can also run the layout check
(:mod:`explorer.gui.common.layout_check`) on what it drew. The PNG is written to a temporary file next to the target and renamed
over it, so a reader never sees half an image.
"""

from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass, field
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
    from explorer.model.atomic import atomic_write_bytes
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
            window.build_pages()  # the window as it is once started (every tab built), not its first second
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


TABS = ("explorer", "occupancy", "gemm", "memory")  # --tab: the window's views (explorer.model.lessons.VIEWS)


def parse_scale(percent: int | None) -> float:
    """``--scale PCT`` as a presentation scale: one of the View > Presentation > Scale steps (None: the default)."""
    from explorer.gui.common.presentation_scales import DEFAULT_SCALE, SCALES

    if percent is None:
        return DEFAULT_SCALE
    allowed = [round(s * 100) for s in SCALES]
    if percent not in allowed:
        raise InputError("--scale", f"{percent} is not one of {', '.join(map(str, allowed))} (percent)")
    return percent / 100


@dataclass
class Drawn:
    """What :func:`draw` put on screen: the picture, the run and cycle, and the layout check's verdict."""

    image: object  # QImage
    run: object  # SimRun
    cycle: int
    problems: list = field(default_factory=list)  # layout_check.Problem, when asked to check
    checked: int = 0  # texts the check looked at
    scale: float | None = None  # the presentation scale on screen (None: not presenting)


def show_lesson_step(window, app, lesson, index: int, lang: str, run=None):
    """Lesson step ``index`` as the lesson panel plays it (its run computed here, no worker, unless
    ``run`` is the step's, computed before); that run."""
    from explorer.gui.workspace.run_data import simulate_run

    lessons = window.feature("lessons")
    if lessons is None:
        raise InputError("--lesson", "this build of the window has no lesson panel")
    lessons.set_language(lang)
    scenario = lesson.scenario_at(index)
    if run is None or run.result.scenario != scenario:
        run = simulate_run(scenario)
    lessons.show_step_with_run(lesson, index, run)
    settle(app)
    lessons.fit_dock()
    settle(app)
    overlay = window.feature("overlay")
    overlay.set_targets(overlay.targets, overlay.keep_bright)
    overlay.freeze()  # a still picture: no pulse
    settle(app)
    return run


def present(window, app, size: tuple[int, int], scale: float) -> float:
    """Presentation mode at ``scale``, drawn at ``size`` (offscreen there is no screen to fill); the scale shown."""
    from PySide6.QtCore import QSize

    presentation = window.feature("presentation")
    presentation.target_size = QSize(*size)
    presentation.set_scale(scale)
    presentation.set_presenting(True, full_screen=False)
    window.resize(*size)
    settle(app, 6)
    presentation.fit_now()
    settle(app)
    overlay = window.feature("overlay")
    if overlay is not None:
        overlay.freeze()
    return presentation.shown_scale


def draw(size: tuple[int, int], theme: str = "light", lang: str | None = None, *, scenario: Scenario | None = None,
         lesson=None, index: int = 0, cycle: int | None = None, sm: int | None = None, tab: str | None = None,
         scale: float | None = None, check: bool = False, sass: bool = False) -> Drawn:
    """The window offscreen at ``size``: a scenario (at ``cycle``, default the busiest moment) or a lesson
    step (at its own cycle unless ``cycle`` is given), on ``tab``, optionally presenting at ``scale``, with
    the SASS view open (``sass``), with the layout check's verdict when ``check``."""
    from explorer.gui.common.layout_check import LayoutChecker
    from explorer.gui.workspace.run_data import simulate_run

    run = simulate_run(scenario) if lesson is None else None
    with offscreen_window(size, theme, lang) as (app, window):
        session = window.workspace.session  # the Explorer's run, cursor and selected SM
        if sass and window.feature("sass") is not None:
            window.feature("sass").set_shown(True)
            window.resize(*size)  # the view's minimum may have grown the window: the size asked for again
            settle(app)
        if lesson is not None:
            run = show_lesson_step(window, app, lesson, index, lang or "en")
        else:
            window.workspace.show_run(run)
        if sm is not None:
            check_sm(run, sm)
            session.select_sm(sm)
        if cycle is not None:
            session.set_cycle(check_cycle(run, cycle))
        elif lesson is None:
            session.set_cycle(default_cycle(run))
        if tab is not None:
            window.show_view(tab)
        settle(app)
        shown = present(window, app, size, scale) if scale is not None else None
        settle(app)
        drawn = Drawn(grab(window, size), run, session.cycle, scale=shown)
        if check:
            from PySide6.QtCore import QSize

            checker = LayoutChecker(window, screen=QSize(*size))
            drawn.problems, drawn.checked = checker.run(), checker.checked
    return drawn


def render_window(scenario: Scenario, size: tuple[int, int], cycle: int | None = None, theme: str = "light",
                  sm: int | None = None, tab: str = "explorer", lang: str | None = None):
    """The grabbed QImage of the main window, and the (run, cycle) it shows."""
    drawn = draw(size, theme, lang, scenario=scenario, cycle=cycle, sm=sm, tab=tab)
    return drawn.image, drawn.run, drawn.cycle


def render_png(scenario: Scenario, out, size: tuple[int, int] = (1600, 900), cycle: int | None = None,
               theme: str = "light", sm: int | None = None, lang: str | None = None) -> tuple[int, int, int]:
    """Write the PNG; returns (width, height, cycle)."""
    image, _run, cycle = render_window(scenario, size, cycle, theme, sm, lang=lang)
    atomic_save(image, Path(out))
    return image.width(), image.height(), cycle


def render_compare_png(scenario: Scenario, other: Scenario, out, size: tuple[int, int] = (1600, 900),
                       cycle: int | None = None, theme: str = "light", sm: int | None = None,
                       lang: str | None = None) -> tuple[int, int, int]:
    """The A/B compare tab into a PNG: ``scenario`` pinned as A beside ``other`` as B (the Explorer's run),
    at ``cycle`` (default: A's busiest moment); returns (width, height, cycle)."""
    from explorer.gui.workspace.run_data import simulate_run

    a, b = simulate_run(scenario), simulate_run(other)
    longest = max(a.cycles, b.cycles)
    if cycle is None:
        cycle = default_cycle(a)
    elif not 0 <= cycle < longest:
        raise InputError("--cycle", f"{cycle} is outside the compared runs' cycles 0..{longest - 1}")
    if sm is not None:
        check_sm(a, sm)
    with offscreen_window(size, theme, lang) as (app, window):
        page = window.feature("compare")
        if page is None:
            raise InputError("--compare", "this build of the window has no A/B compare")
        window.workspace.show_run(b)
        page.pin(a)
        if sm is not None:
            page.session.select_sm(sm)
        window.tabs.setCurrentWidget(page)
        settle(app, 3)
        page.session.set_position(cycle)
        settle(app, 3)
        image = grab(window, size)
    atomic_save(image, Path(out))
    return image.width(), image.height(), cycle
