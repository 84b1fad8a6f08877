"""``warp-explorer --smoke-test``: prove an installed copy works, headless, in a few seconds.

Loads the shipped example (the default scenario), simulates it, renders one frame of
the main window into a PNG, checks that the picture is not blank, prints one line
saying what it did and where the PNG is, and exits 0. Any failure prints one line
naming the step and exits 1. Installers and the packaging test run it on every bundle.

The platform: Qt's ``offscreen`` plugin unless a display is given (``QT_QPA_PLATFORM``
set, or ``DISPLAY`` / ``WAYLAND_DISPLAY`` present), so that ``xvfb-run warp-explorer
--smoke-test`` really loads the xcb plugin and its system libraries.
``WARP_EXPLORER_SMOKE_PNG=FILE`` chooses where the PNG goes (default: a new folder in
the temporary directory). This module imports nothing from Qt until it runs.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

EXIT_OK, EXIT_FAILED = 0, 1
FRAME_SIZE = (1280, 800)
PNG_ENV = "WARP_EXPLORER_SMOKE_PNG"


class SmokeFailure(Exception):
    """A step of the smoke test failed; the message is the one line printed."""


def choose_platform(environ=None) -> str | None:
    """The QT_QPA_PLATFORM to force, or None to let Qt use the display it was given."""
    env = os.environ if environ is None else environ
    if env.get("QT_QPA_PLATFORM"):
        return None
    if env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"):
        return None
    return "offscreen"


def image_stats(image) -> tuple[int, float]:
    """(distinct colours in a sample grid, share of the most common colour) of a QImage."""
    import numpy as np
    from PySide6.QtGui import QImage

    img = image.convertToFormat(QImage.Format.Format_RGB32)
    w, h = img.width(), img.height()
    if w == 0 or h == 0:
        return 0, 1.0
    buf = np.frombuffer(img.constBits(), np.uint8, count=img.sizeInBytes())
    pixels = buf.reshape(h, img.bytesPerLine())[:, : w * 4].view(np.uint32).reshape(h, w)
    sample = pixels[:: max(1, h // 200), :: max(1, w // 200)].ravel() & 0x00FFFFFF
    values, counts = np.unique(sample, return_counts=True)
    return int(values.size), float(counts.max() / sample.size)


def check_not_blank(image, what: str) -> tuple[int, float]:
    colours, top_share = image_stats(image)
    if colours < 16 or top_share > 0.98:
        raise SmokeFailure(f"{what} looks blank ({colours} colours, {top_share:.1%} of it one colour)")
    return colours, top_share


def default_png_path() -> Path:
    chosen = os.environ.get(PNG_ENV, "").strip()
    if chosen:
        return Path(chosen).expanduser()
    return Path(tempfile.mkdtemp(prefix="warp-explorer-smoke-")) / "smoke.png"


def smoke_test() -> str:
    """Run every step; the success line, or SmokeFailure / any exception."""
    started = time.perf_counter()
    step = "load the example"
    try:
        from explorer.model.presets import DEFAULT_PRESET, default_scenario

        scenario = default_scenario()

        step = "simulate"
        from explorer.sim import simulate
        from explorer.jit.runtime import JIT

        if not JIT and not os.environ.get("WARP_EXPLORER_NO_JIT"):
            try:  # the reason numba did not load, for the one line
                import numba  # noqa: F401

                reason = "explorer.jit.runtime could not use it"
            except Exception as exc:  # noqa: BLE001
                reason = f"{type(exc).__name__}: {exc}"
            raise SmokeFailure(f"numba does not work, so the simulator would run ~1000x slower ({reason})")

        t0 = time.perf_counter()
        result = simulate(scenario)
        sim_s = time.perf_counter() - t0
        launched = int(result.launched.max()) if result.cycles else 0
        if result.cycles <= 0 or result.warp_instructions <= 0 or launched <= 0:
            raise SmokeFailure(f"the simulation produced nothing ({result.cycles} cycles, "
                               f"{result.warp_instructions} warp-instructions)")

        step = "start Qt"
        platform = choose_platform()
        if platform:
            os.environ["QT_QPA_PLATFORM"] = platform
        from explorer.gui.shell.app import create_application

        app = create_application()  # a platform that cannot load ends here: one line, exit 1
        platform_name = app.platformName()
        if platform_name == "offscreen":
            from explorer.gui.headless import render

            quiet = getattr(render, "_quiet_offscreen_warnings", None)  # "cannot propagate size hints"
            if quiet is not None:
                quiet()

        step = "render a frame"
        from explorer.gui.headless.render import atomic_save, render_window

        t0 = time.perf_counter()
        image, _run, cycle = render_window(scenario, FRAME_SIZE)
        render_s = time.perf_counter() - t0
        if (image.width(), image.height()) != FRAME_SIZE:
            raise SmokeFailure(f"the frame is {image.width()}x{image.height()}, not {FRAME_SIZE[0]}x{FRAME_SIZE[1]}")
        colours, _ = check_not_blank(image, "the rendered frame")

        step = "write the PNG"
        out = default_png_path()
        out.parent.mkdir(parents=True, exist_ok=True)
        atomic_save(image, out)
        from PySide6.QtGui import QImage

        back = QImage(str(out))
        if back.isNull() or (back.width(), back.height()) != FRAME_SIZE:
            raise SmokeFailure(f"{out} does not read back as a {FRAME_SIZE[0]}x{FRAME_SIZE[1]} PNG")
        check_not_blank(back, str(out))
    except SmokeFailure as exc:
        raise SmokeFailure(f"{step}: {exc}") from None
    except Exception as exc:  # every failure becomes the one line
        raise SmokeFailure(f"{step}: {type(exc).__name__}: {exc}") from exc
    jit = "numba" if JIT else "no JIT"
    return (f"warp-explorer: smoke test ok: {DEFAULT_PRESET} on {scenario.gpu_name} simulated "
            f"({result.cycles:,} cycles, {launched:,} warps, {sim_s:.1f} s with {jit}); "
            f"{FRAME_SIZE[0]}x{FRAME_SIZE[1]} frame at cycle {cycle:,} rendered on Qt '{platform_name}' "
            f"in {render_s:.1f} s ({colours} colours); total {time.perf_counter() - started:.1f} s; PNG: {out}")


def run(args=None) -> int:
    """The ``--smoke-test`` entry: one line on stdout (ok) or stderr (failed); the exit code."""
    try:
        line = smoke_test()
    except SmokeFailure as exc:
        if os.environ.get("WARP_EXPLORER_DEBUG") and exc.__cause__ is not None:
            raise exc.__cause__
        sys.stderr.write(f"warp-explorer: smoke test failed: {exc}\n")
        sys.stderr.flush()
        return EXIT_FAILED
    sys.stdout.write(line + "\n")
    sys.stdout.flush()
    return EXIT_OK
