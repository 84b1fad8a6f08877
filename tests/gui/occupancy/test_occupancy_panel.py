"""The occupancy calculator tab, driven through its real widgets.

Expected numbers are NVIDIA's (the core is checked against cuda_occupancy.h in
tests/test_occupancy_vs_header.py); here they prove the widgets show the core's
answer and update on every edit.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLabel

from explorer.gui.occupancy.session import FIELDS


def set_field(panel, name: str, text: str) -> None:
    edit = panel.inputs.fields[name].edit
    edit.selectAll()
    edit.insert(text)  # as typing does: textChanged fires and the panel recomputes


def limiter_rows(panel) -> set[str]:
    return {key for key, label in panel.result.limit_name.items() if label.property("role") == "limiter"}


def test_defaults_are_the_mission_example(panel):
    assert panel.inputs.gpu_name() == "H100"
    assert panel.inputs.raw_values() == {
        "threads": "256", "regs": "32", "smem_static": "0", "smem_dynamic": "0", "carveout": "-1", "barriers": "1",
    }
    r = panel.evaluation.result
    assert (r.active_blocks_per_sm, r.active_warps_per_sm, r.occupancy) == (8, 64, 1.0)
    assert panel.result.occupancy.text() == "100%"
    assert limiter_rows(panel) == {"warps", "registers"}


def test_registers_change_updates_number_limiter_and_graphs(panel):
    set_field(panel, "regs", "64")
    r = panel.evaluation.result
    assert (r.active_blocks_per_sm, r.active_warps_per_sm) == (4, 32)
    assert panel.result.occupancy.text() == "50%"
    assert r.limiters == ("registers",)
    # the limiter is marked by weight and text, not colour alone
    assert limiter_rows(panel) == {"registers"}
    assert panel.result.limit_mark["registers"].text().endswith("limiter")
    assert panel.result.limit_mark["warps"].text() == ""
    assert panel.result.limit_value["registers"].text() == "4"
    assert "Active blocks per SM: 4" in panel.result.summary.text()
    assert panel.graphs.registers.current == (64, 50)
    assert panel.graphs.threads.current == (256, 50)
    assert panel.graphs.shared.current == (0, 50)
    assert "Registers limit you to 4 blocks per SM" in panel.advice.hints.text()

    set_field(panel, "regs", "32")
    r = panel.evaluation.result
    assert (r.active_blocks_per_sm, r.occupancy) == (8, 1.0)
    assert panel.result.occupancy.text() == "100%"
    assert panel.graphs.registers.current == (32, 100)


def test_graph_point_sits_on_its_curve(panel):
    set_field(panel, "regs", "40")
    for plot in panel.graphs.plots():
        xs, ys = plot.curve.getData()
        x, y = plot.current
        # stepMode="right": the value at x holds on (previous x, x]; find that step
        step = next(i for i, value in enumerate(xs) if value >= x)
        assert ys[step] == pytest.approx(y)
        px, py = plot.point.getData()
        assert (px[0], py[0]) == (x, y)
        assert plot.vline.value() == x


def test_gpu_change_changes_limits(panel, qtbot):
    panel.inputs.set_gpu("T4")
    r = panel.evaluation.result
    assert r.max_warps_per_sm == 32
    assert panel.result.limit_value["warps"].text() == "4"  # 1024 threads per SM / 256
    assert "of 32" in panel.result.summary.text()
    assert panel.result.limit_value["barriers"].text() == "no limit"  # named-barrier rule is CC >= 9.0 only
    assert "Compute capability 7.5" in panel.inputs.gpu.toolTip()
    assert "40 SMs" in panel.inputs.gpu_info.text()
    # the x range of the register graph follows the GPU's maximum
    assert panel.graphs.registers.curve.getData()[0][-1] == 255


def test_every_catalog_gpu_has_a_tooltip(panel):
    combo = panel.inputs.gpu
    assert combo.count() == 10
    for i in range(combo.count()):
        tip = combo.itemData(i, Qt.ItemDataRole.ToolTipRole)
        assert "Compute capability" in tip and "SMs" in tip


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("regs", "abc", "'abc' is not an integer"),
        ("smem_dynamic", "-5", "-5 is below the minimum of 0"),
        ("carveout", "101", "101 is above the maximum of 100"),
        ("threads", "0", "0 is below the minimum of 1"),
        ("barriers", "", "enter a whole number"),
    ],
)
def test_invalid_input_shows_message_and_keeps_last_result(panel, window, name, text, message):
    set_field(panel, "regs", "64")
    good = panel.evaluation
    shown = panel.result.occupancy.text()
    set_field(panel, name, text)
    field = panel.inputs.fields[name]
    assert field.is_invalid
    assert field.message == message
    assert field.error.isVisible()
    assert message in field.edit.toolTip()
    assert panel.evaluation is good
    assert panel.result.occupancy.text() == shown
    assert panel.result.stale.isVisible()
    assert "Invalid inputs: 1" in window.status_label.text()
    assert panel.graphs.registers.current == (64, 50)


def test_several_invalid_fields_are_all_marked_and_recover(panel):
    set_field(panel, "regs", "abc")
    set_field(panel, "smem_dynamic", "-5")
    assert {n for n in FIELDS if panel.inputs.fields[n].is_invalid} == {"regs", "smem_dynamic"}
    set_field(panel, "regs", "64")
    assert {n for n in FIELDS if panel.inputs.fields[n].is_invalid} == {"smem_dynamic"}
    set_field(panel, "smem_dynamic", "0")
    assert not any(panel.inputs.fields[n].is_invalid for n in FIELDS)
    assert not panel.result.stale.isVisible()
    assert panel.evaluation.result.active_blocks_per_sm == 4


def test_hardware_impossible_values_are_results_not_errors(panel):
    """Like NVIDIA's calculator: 2048 threads fit no block (limiter warps), it is not bad input."""
    set_field(panel, "threads", "2048")
    assert not panel.inputs.fields["threads"].is_invalid
    assert panel.evaluation.result.active_blocks_per_sm == 0
    assert "warps" in limiter_rows(panel)
    assert panel.graphs.threads.current == (2048, 0)


def test_shared_memory_and_carveout(panel):
    set_field(panel, "smem_dynamic", str(48 * 1024))
    r = panel.evaluation.result
    assert r.allocated_shared_per_block == 49 * 1024  # + 1 KB reserved on CC 9.0
    assert r.active_blocks_per_sm == 4 and r.limiters == ("shared_memory",)
    assert panel.graphs.shared.current == (48, 50)
    assert panel.result.allocation["shared"].text() == "50,176 B (incl. 1,024 B reserved)"
    assert panel.result.allocation["shared_limit"].text() == "233,472 B"  # above 48 KB: the 227 KB opt-in + 1 KB
    set_field(panel, "carveout", "50")
    assert panel.evaluation.result.shared_per_sm_config < r.shared_per_sm_config


def test_unchanged_sweeps_are_not_recomputed(panel):
    registers_curve = panel.graphs.registers._sweep
    threads_curve = panel.graphs.threads._sweep
    set_field(panel, "regs", "64")
    assert panel.graphs.registers._sweep is registers_curve  # varies registers: unaffected
    assert panel.graphs.threads._sweep is not threads_curve  # depends on registers: redrawn
    set_field(panel, "regs", "32")
    assert panel.graphs.threads._sweep is threads_curve  # cached from the first query


def test_a_tie_keeps_the_users_block_size(panel):
    """64 registers: 256 threads x 4 blocks and 1024 x 1 both hold 1,024 threads per SM. NVIDIA's configurator
    names the largest; the calculator says the user's size is already as good and offers no change."""
    set_field(panel, "regs", "64")
    text = panel.advice.best.text()
    assert "your 256 threads already reach the most (occupancy 50%)" in text and "1024 ties" in text
    assert not panel.advice.use_best.isEnabled()


def test_best_block_size_button(panel, qtbot):
    set_field(panel, "threads", "96")  # 21 blocks of 3 warps: 2,016 threads per SM; 2 x 1024 fill the SM
    assert "Best block size: 1024 threads" in panel.advice.best.text()
    assert panel.advice.use_best.isEnabled()
    qtbot.mouseClick(panel.advice.use_best, Qt.MouseButton.LeftButton)
    assert panel.inputs.fields["threads"].text() == "1024"
    assert panel.evaluation.query.threads == 1024
    assert not panel.advice.use_best.isEnabled()


def test_arrow_keys_step_the_value(panel, qtbot):
    edit = panel.inputs.fields["threads"].edit
    qtbot.keyClick(edit, Qt.Key.Key_Up)
    assert edit.text() == "288" and panel.evaluation.query.threads == 288
    qtbot.keyClick(edit, Qt.Key.Key_Down)
    qtbot.keyClick(edit, Qt.Key.Key_Down)
    assert edit.text() == "224"
    regs = panel.inputs.fields["regs"].edit
    qtbot.keyClick(regs, Qt.Key.Key_PageUp)
    assert regs.text() == "42"


def test_inputs_have_help_and_mnemonics(panel):
    for name, field in panel.inputs.fields.items():
        assert field.edit.toolTip().endswith("."), name
        buddies = [label for label in panel.inputs.findChildren(QLabel) if label.buddy() is field]
        assert len(buddies) == 1 and "&" in buddies[0].text(), name
    assert panel.inputs.gpu.toolTip()


def test_typing_into_a_field_updates_immediately(panel, qtbot):
    edit = panel.inputs.fields["regs"].edit
    edit.setFocus()
    edit.selectAll()
    qtbot.keyClicks(edit, "128")
    assert panel.evaluation.query.registers == 128
    assert panel.evaluation.result.active_blocks_per_sm == 2


def test_tab_walks_the_inputs_in_reading_order(window, panel, qtbot):
    window.activateWindow()
    qtbot.waitActive(window)
    set_field(panel, "threads", "96")  # so "Use it" is enabled (1024 fills the SM) and takes part in the tab chain
    panel.inputs.gpu.setFocus()
    order = [panel.inputs.gpu]
    for _ in range(len(FIELDS) + 1):
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        order.append(QApplication.focusWidget())
    expected = [panel.inputs.gpu] + [panel.inputs.fields[n].edit for n in FIELDS] + [panel.advice.use_best]
    assert order == expected
