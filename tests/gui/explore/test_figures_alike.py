"""Every figure of a simulation that both the CLI and the window show is written alike in both.

A lecturer who shows ``warp-explorer simulate`` beside the window must read the same figure the
same way: the CLI printed ``1920`` launched warps, ``100.0%`` theoretical occupancy and ``0.227``
waves while the window said ``1,920``, ``100%`` and ``0.23``. One table
(``explorer/texts/figures.py``) writes each summary figure now; this test runs one simulation in
the window, renders the CLI's text from the same summary, and looks for every figure of the table
as a whole number (not a prefix of a longer one) in both.
"""

from __future__ import annotations

import re

from PySide6.QtWidgets import QLabel

from explorer.cli.cmd_simulate import format_text
from explorer.gui.common.bars import Meter
from explorer.gui.common.widgets import whole_text
from explorer.texts.figures import FIGURES, figure_text
from tests.gui.support import wait_run

# what only one side shows: the CLI the bandwidth in GB/s (the window in the peak's unit, TB/s on an H100);
# the window the store tail (a tooltip on the heading)
CLI_ONLY = {"dram_bandwidth_gbs"}
WINDOW_ONLY = {"store_tail_cycles"}


def occurs(figure: str, text: str) -> bool:
    """``figure`` stands in ``text`` as a whole figure: no digit, point or comma glued to either side."""
    return re.search(rf"(?<![\d.,]){re.escape(figure)}(?![\d]|[.,]\d)", text) is not None


def window_texts(window) -> str:
    page = window.explorer
    texts = [whole_text(label) for label in page.metrics.findChildren(QLabel)]
    texts += [label.toolTip() for label in page.metrics.findChildren(QLabel)]
    texts += [meter.text for meter in page.metrics.findChildren(Meter)]
    texts.append(window.statusBar().currentMessage())
    return "\n".join(texts)


def test_every_figure_both_show_is_written_alike(window, qtbot):
    page = window.explorer
    wait_run(qtbot, page)
    run = page.workspace.session.run
    s = run.summary
    cli = format_text(run.result.scenario, s)
    shown = window_texts(window)
    assert set(FIGURES) >= CLI_ONLY | WINDOW_ONLY
    for key in FIGURES:
        figure = figure_text(key, s[key])
        if key not in WINDOW_ONLY:
            assert occurs(figure, cli), (key, figure, cli)
        if key not in CLI_ONLY:
            assert occurs(figure, shown), (key, figure, shown)
    # the figures that read differently in the two before: digit groups, a dropped zero decimal, two decimals
    assert occurs("1,920", cli) and occurs("100%", cli) and not occurs("100.0%", cli)


def test_the_whole_figure_rule():
    assert occurs("1,920", "of 1,920 launched") and not occurs("1,920", "11,920") and not occurs("0.23", "0.237")
    assert occurs("21.9%", "achieved 21.9% (limited") and not occurs("1.9%", "21.9%")
    assert occurs("0.23", "waves 0.23.") and occurs("8", "(8 blocks")
