"""Colours, display names and meanings of the warp states, for every view.

Eight states take the Okabe–Ito colours; the three rare ones (the memory-queue
throttles and drain) and Hopper's two pipeline waits (mbarrier, wgmma_wait) take
colours from Paul Tol's colour-blind-safe "muted" scheme and a neutral grey. Colour is never the only carrier: every view that
colours a state also names it (legend, tooltips, the breakdown bars' text).

Names keep Nsight Compute's identifiers in brackets, so what the window says
matches what a profiler prints.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QColor

from explorer.gui.common import palette as oi
from explorer.gui.common.state_order import N_STATES, PRIORITY, UNKNOWN
from explorer.texts.names import STATE_CONTEXT, STATE_MEANING

# state code -> colour (index = code); EMPTY's colour depends on the theme
STATE_COLORS = (
    None,  # empty: the theme's "empty slot" colour
    oi.BLUISH_GREEN,  # selected: issued
    oi.ORANGE,  # not_selected: eligible, another warp issued
    oi.SKY_BLUE,  # wait: fixed-latency dependency
    oi.REDDISH_PURPLE,  # short_scoreboard: shared memory / MUFU
    oi.BLUE,  # long_scoreboard: global memory
    oi.YELLOW,  # barrier
    oi.VERMILLION,  # math_pipe_throttle
    "#882255",  # mio_throttle (Tol "wine")
    "#999933",  # lg_throttle (Tol "olive")
    "#8C8C8C",  # drain: grey
    "#332288",  # mbarrier: waiting for a TMA copy or a free stage (Tol "indigo")
    "#CC6677",  # wgmma_wait: waiting for the asynchronous MMAs (Tol "rose")
)
EMPTY_LIGHT = "#D6D6D6"
EMPTY_DARK = "#3C3C3C"
UNKNOWN_LIGHT = "#B8B8B8"
UNKNOWN_DARK = "#5A5A5A"

def empty_color(dark: bool) -> str:
    return EMPTY_DARK if dark else EMPTY_LIGHT


def unknown_color(dark: bool) -> str:
    return UNKNOWN_DARK if dark else UNKNOWN_LIGHT


def state_color(code: int, dark: bool = False) -> str:
    if code == UNKNOWN:
        return unknown_color(dark)
    return STATE_COLORS[code] or empty_color(dark)


def rgba_table(dark: bool) -> np.ndarray:
    """uint8[256, 4]: RGBA per code (0..N_STATES - 1 the states, 255 "not recorded", the rest transparent)."""
    lut = np.zeros((256, 4), np.uint8)
    for code in range(N_STATES):
        c = QColor(state_color(code, dark))
        lut[code] = (c.red(), c.green(), c.blue(), 255)
    c = QColor(unknown_color(dark))
    lut[UNKNOWN] = (c.red(), c.green(), c.blue(), 255)
    return lut


def argb32_table(dark: bool, background: str) -> np.ndarray:
    """uint32[256]: 0xAARRGGBB per code for QImage.Format_RGB32; code 254 is the background."""
    rgba = rgba_table(dark).astype(np.uint32)
    out = (0xFF << 24) | (rgba[:, 0] << 16) | (rgba[:, 1] << 8) | rgba[:, 2]
    bg = QColor(background)
    out[254] = (0xFF << 24) | (bg.red() << 16) | (bg.green() << 8) | bg.blue()
    return out.astype(np.uint32)


def priority_table(dark: bool) -> np.ndarray:
    """uint8[256, 4]: RGBA per *priority rank* (the zoomed-out timeline stores ranks)."""
    codes = rgba_table(dark)
    lut = np.zeros((256, 4), np.uint8)
    for code, rank in enumerate(PRIORITY):
        lut[rank] = codes[code]
    lut[255] = codes[UNKNOWN]
    return lut


def display_names() -> dict[int, str]:
    """Code -> short name for people, with Nsight's identifier."""
    translate = QCoreApplication.translate
    return {
        0: translate("WarpStates", "Empty slot"),
        1: translate("WarpStates", "Issued (selected)"),
        2: translate("WarpStates", "Eligible, not picked (not_selected)"),
        3: translate("WarpStates", "Arithmetic dependency (wait)"),
        4: translate("WarpStates", "Shared memory / SFU (short_scoreboard)"),
        5: translate("WarpStates", "Global memory (long_scoreboard)"),
        6: translate("WarpStates", "Barrier (barrier)"),
        7: translate("WarpStates", "Math pipe busy (math_pipe_throttle)"),
        8: translate("WarpStates", "Shared-memory queue full (mio_throttle)"),
        9: translate("WarpStates", "Global-memory queue full (lg_throttle)"),
        10: translate("WarpStates", "Exited, draining stores (drain)"),
        11: translate("WarpStates", "TMA copy or free stage (mbarrier)"),
        12: translate("WarpStates", "Asynchronous MMAs (wgmma_wait)"),
        UNKNOWN: translate("WarpStates", "Not recorded"),
    }


def short_names() -> dict[int, str]:
    """Code -> a word or two, for legends where space is tight."""
    translate = QCoreApplication.translate
    return {
        0: translate("WarpStates", "empty"),
        1: translate("WarpStates", "issued"),
        2: translate("WarpStates", "eligible"),
        3: translate("WarpStates", "ALU wait"),
        4: translate("WarpStates", "smem/SFU wait"),
        5: translate("WarpStates", "memory wait"),
        6: translate("WarpStates", "barrier"),
        7: translate("WarpStates", "pipe busy"),
        8: translate("WarpStates", "MIO queue full"),
        9: translate("WarpStates", "LSU queue full"),
        10: translate("WarpStates", "drain"),
        11: translate("WarpStates", "mbarrier wait"),
        12: translate("WarpStates", "wgmma wait"),
        UNKNOWN: translate("WarpStates", "not recorded"),
    }


def meanings() -> dict[int, str]:
    """Code -> one sentence: what the warp is doing (the core's MEANING, explorer/texts/names.py, translated)."""
    translate = QCoreApplication.translate
    # STATE_MEANING is in the states' code order (explorer.sim.states.NAMES; tests/test_texts.py checks it)
    out = {code: translate(STATE_CONTEXT, text) for code, text in enumerate(STATE_MEANING.values())}
    out[UNKNOWN] = translate(
        "WarpStates", "This SM's per-slot states were not kept for this run; select it to re-simulate it.")
    return out


assert len(STATE_COLORS) == N_STATES
