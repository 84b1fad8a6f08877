"""Every value the program puts into the scenario panel is one the panel accepts (issue 14 item 2).

After GEMM -> "Simulate in the Explorer" the L2-hit-rate field held ``87.9699``; the
field took whole percentages only, so each later edit raised ``InputError`` in the
slot and nothing re-simulated. The scenario's ``workload.l2_hit_rate`` is a fraction
(any value from 0 to 1), so the field takes decimals; and an exception in the
slot is shown (``common.guard``), never only printed.
"""

from __future__ import annotations

import logging

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMessageBox

from explorer.gui.common import guard
from explorer.gui.explore import page as page_module
from explorer.gui.explore.scenario_fields import build_scenario, parse_percent, percent_text, scenario_to_texts
from explorer.model.errors import InputError
from explorer.model.presets import load_preset, preset_names
from tests.gui.support import RUN_TIMEOUT, show_page, wait_run

# the mma.sync path: its loads take the plan's L2 hit rate (88.7218%); the wgmma path's TMA copies hit by their tiles'
# addresses and set none
TAIL = {"m": 896, "n": 4864, "k": 256, "dtype": "fp16", "tile": "128x256x64", "path": "mma.sync"}


def type_text(qtbot, field, text: str) -> None:
    """Select the field's text and type ``text`` key by key, as a user does."""
    field.edit.setFocus()
    field.edit.selectAll()
    qtbot.keyClicks(field.edit, text)


def settled_on(qtbot, page, check) -> None:
    qtbot.waitUntil(lambda: page.workspace.session.run is not None and not page.workspace.session.simulating
                    and not page._debounce.isActive() and check(page.workspace.session.run.result.scenario),
                    timeout=RUN_TIMEOUT)


# -- the texts the program writes, read back -------------------------------------------------
@pytest.mark.parametrize("name", preset_names())
def test_every_shipped_scenario_reads_back_from_its_own_texts(name):
    scenario = load_preset(name)
    texts = scenario_to_texts(scenario)
    rebuilt, errors = build_scenario(scenario, texts, texts)
    assert errors == {} and rebuilt == scenario


@settings(max_examples=300, deadline=None)
@given(st.floats(min_value=0.0, max_value=1.0, allow_nan=False))
def test_any_hit_rate_round_trips_exactly_through_its_field(rate):
    text = percent_text(rate)
    assert parse_percent(text, "workload.l2_hit_rate") == rate
    base = load_preset("example-240x256").with_values(**{"workload.l2_hit_rate": rate})
    texts = scenario_to_texts(base)
    rebuilt, errors = build_scenario(base, texts, texts)
    assert errors == {} and rebuilt == base


def test_percent_texts():
    assert percent_text(0.879699) == "87.9699"
    assert (percent_text(0.0), percent_text(0.5), percent_text(1.0), percent_text(0.9)) == ("0", "50", "100", "90")
    assert parse_percent(" 87,5 % ", "k") == 0.875  # a Russian decimal comma and a percent sign are fine
    for bad in ("half", "", "nan", "inf", "1e400x", "٥٠"):
        with pytest.raises(InputError, match="is not a percentage"):
            parse_percent(bad, "workload.l2_hit_rate")
    with pytest.raises(InputError, match="-0.1 is below the minimum of 0"):
        parse_percent("-0.1", "workload.l2_hit_rate")
    for bad in ("100.01", "1e3"):
        with pytest.raises(InputError, match="is above the maximum of 100"):
            parse_percent(bad, "workload.l2_hit_rate")


# -- the hand-off through the real widgets ---------------------------------------------------------
def test_after_the_gemm_hand_off_every_edit_re_simulates(window, qtbot):
    explorer = window.explorer
    wait_run(qtbot, explorer)
    gemm = show_page(window, qtbot, "gemm")
    gemm.apply_lesson_gemm(TAIL)
    gemm.send.click()
    sent = gemm.sent
    rate = sent.workload.l2_hit_rate
    assert rate != round(rate, 2), "the GEMM's hit rate has decimals (what broke the field)"
    settled_on(qtbot, explorer, lambda sc: sc == sent)
    l2 = explorer.panel.fields["l2_hit"]
    assert l2.text() == percent_text(rate) and not l2.is_invalid

    # an edit of another field: simulated, the hit rate kept exactly
    type_text(qtbot, explorer.panel.fields["regs"], "96")
    settled_on(qtbot, explorer, lambda sc: sc.launch.registers_per_thread == 96)
    scenario = explorer.workspace.session.scenario
    assert scenario.workload.l2_hit_rate == rate and scenario.launch.grid == sent.launch.grid
    assert not any(f.is_invalid for f in explorer.panel.fields.values())

    # the hit rate itself, with decimals, then a bad value: red with the message, the run kept
    type_text(qtbot, l2, "87.5")
    settled_on(qtbot, explorer, lambda sc: sc.workload.l2_hit_rate == 0.875)
    type_text(qtbot, l2, "101")
    qtbot.waitUntil(lambda: l2.is_invalid, timeout=5000)
    assert l2.message == "101 is above the maximum of 100"
    assert explorer.workspace.session.run.result.scenario.workload.l2_hit_rate == 0.875
    # Up steps a decimal value too
    type_text(qtbot, l2, "12.25")
    qtbot.keyClick(l2.edit, Qt.Key.Key_Up)
    assert l2.text() == "17.25"
    settled_on(qtbot, explorer, lambda sc: sc.workload.l2_hit_rate == 0.1725)


def _boxes() -> list[QMessageBox]:
    return [w for w in QApplication.topLevelWidgets() if isinstance(w, QMessageBox) and w.isVisible()]


def test_an_exception_in_the_edit_slot_is_shown_not_only_printed(window, qtbot, monkeypatch, caplog):
    """A bug in the path from a typed value to the simulation reaches the guard: logged, and a message on screen."""
    explorer = window.explorer
    wait_run(qtbot, explorer)

    def broken(*_args, **_kwargs):
        raise InputError("workload.l2_hit_rate", "'87.9699' is not an integer")  # what the old field raised

    monkeypatch.setattr(page_module, "build_scenario", broken)
    guard.install()  # what app.run does for the real window (it replaces pytest-qt's hook here)
    try:
        with caplog.at_level(logging.ERROR, logger="warp_explorer"):
            type_text(qtbot, explorer.panel.fields["regs"], "64")
            qtbot.waitUntil(lambda: bool(_boxes()), timeout=5000)
    finally:
        guard.uninstall()
    (box,) = _boxes()
    assert "a bug" in box.text() and "is not an integer" in box.text()
    assert "Traceback" in caplog.text
    box.close()


def test_the_hit_rate_field_is_greyed_where_the_tiles_decide_the_hits(window, qtbot):
    """A wgmma GEMM's copies meet L2 by their tiles' addresses ([workload.tiles]): the L2 hit rate would change
    nothing there, so its field is greyed and says why; a scenario with loads gets it back."""
    explorer = window.explorer
    wait_run(qtbot, explorer)
    gemm = show_page(window, qtbot, "gemm")
    gemm.apply_lesson_gemm({"m": 512, "n": 512, "k": 256, "dtype": "bf16", "tile": "128x256x64", "path": "wgmma"})
    gemm.send.click()
    sent = gemm.sent
    assert sent.workload.tiles is not None
    settled_on(qtbot, explorer, lambda sc: sc == sent)
    l2 = explorer.panel.fields["l2_hit"]
    assert not l2.isEnabled() and "[workload.tiles]" in l2.edit.toolTip()
    explorer.workspace.change_scenario(load_preset("example-240x256"), "preset")
    settled_on(qtbot, explorer, lambda sc: sc.name == "example-240x256")
    assert l2.isEnabled() and l2.edit.toolTip().startswith("Share of global loads served by L2")
