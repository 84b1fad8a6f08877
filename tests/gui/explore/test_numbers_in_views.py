"""Numbers read the same in the status bar, the panels and the tooltips, and counted nouns agree with
their numbers (issue 14 item 15: "12%" beside "12.5%"; "1 blocks per SM")."""

from __future__ import annotations

from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QLabel

from explorer.texts.numbers import pct
from explorer.gui.workspace.run_data import simulate_run
from explorer.gui.shell.i18n import install_translators
from explorer.gui.shell.main_window import MainWindow
from explorer.model.presets import default_scenario
from tests.gui.support import wait_run

ONE_BLOCK = default_scenario().with_overrides(["launch.registers_per_thread=255"])  # 1 block (8 warps) per SM


def show(window, qtbot, scenario):
    window.workspace.show_run(simulate_run(scenario))
    wait_run(qtbot, window.explorer)
    return window.explorer


def test_one_percentage_formatter_everywhere(window, qtbot):
    page = show(window, qtbot, ONE_BLOCK)
    occupancy = page.workspace.session.run.summary["theoretical_occupancy"]
    assert occupancy == 0.125
    text = pct(occupancy)
    assert text == "12.5%"
    assert f"theoretical occupancy {text}" in window.status_label.text()
    assert page.metrics.whole.occ_theoretical.text == text
    grid = page.grid
    x, y = grid.layout_.tile_origin(0)
    page.workspace.session.set_cycle(page.workspace.session.run.cycles // 4)
    tip = grid.tooltip_at(QPoint(x + 1, y + 1))
    assert "8 of 64 warp slots resident (12.5%)" in tip
    # and grouped digits: "1,920 warps launched", "20,857 cycles" as the panels write them
    assert "1,920 warps launched" in window.status_label.text()
    assert f"{page.workspace.session.run.cycles:,} cycles" in window.status_label.text()


def test_one_block_per_sm_in_english(window, qtbot):
    page = show(window, qtbot, ONE_BLOCK)
    assert "— 1 block (8 warps) per SM of 64." in page.metrics.whole.limiter.text()
    page.workspace.session.set_cycle(1000)
    assert "1 block per SM" in page.metrics.now.residency.text()
    page = show(window, qtbot, default_scenario())
    assert "8 blocks (64 warps) per SM" in page.metrics.whole.limiter.text()


def test_russian_has_three_forms(qtbot, settings, light_theme, qapp):
    install_translators(qapp, "ru")
    try:
        ru = MainWindow(settings=settings)
        qtbot.addWidget(ru)
        ru.show()
        for scenario, words in ((ONE_BLOCK, "1 блок (8 варпов из 64)"),
                                (default_scenario().with_overrides(["launch.registers_per_thread=128"]),
                                 "2 блока (16 варпов из 64)"),
                                (default_scenario(), "8 блоков (64 варпа из 64)")):
            page = show(ru, qtbot, scenario)
            assert words in page.metrics.whole.limiter.text(), page.metrics.whole.limiter.text()
        assert "1\u00a0920" in ru.status_label.text()  # grouped as the panels are (not "1920")
        ru.close()
    finally:
        install_translators(qapp, "en")


def test_the_store_tail_is_told_not_called_finished(window, qtbot):
    """After the last warp left, the kernel still runs until L2 has taken its last stores (sim_model.toml
    [stores]): the "right now" text says so with the cycles left, and "finished" only on the last cycle."""
    page = show(window, qtbot, default_scenario())
    run = page.workspace.session.run
    tail = run.summary["store_tail_cycles"]
    last_exit = int(run.result.blocks.end.max())
    assert tail == run.cycles - last_exit
    # the last store's L2 round trip, from when it left L1TEX a cycle or so before its warp's EXIT
    assert run.result.params.lat_l2 - 16 <= tail <= run.result.params.lat_l2
    page.workspace.session.set_cycle(last_exit + 10)
    assert page.metrics.now.values["launched"].text() == "0"
    left = run.cycles - 1 - (last_exit + 10)
    assert f"the kernel ends once L2 has taken its last stores, {left:,} cycles from now" in \
        page.metrics.now.residency.text()
    page.workspace.session.set_cycle(run.cycles - 1)
    assert page.metrics.now.residency.text() == "The kernel has finished."
    assert f"the last {tail:,} cycles no warp was resident" in page.metrics.whole.heading.toolTip()


def test_the_falling_count_is_called_unfinished_beside_the_launched_total(window, qtbot):
    """Issue 31 item 12: the count that falls to 0 was captioned "Launched" while the scenario panel said
    1,920 launched. It is the launched warps not finished yet: named so, with the constant total beside it,
    in the "Right now" box, the counts plot's legend and the A/B columns' line."""
    page = show(window, qtbot, default_scenario())
    run = page.workspace.session.run
    now = page.metrics.now
    names = [w.text() for w in now.findChildren(QLabel) if w.toolTip() == now.values["launched"].toolTip()]
    assert "Unfinished" in names and "Launched" not in names
    page.workspace.session.set_cycle(0)
    assert now.values["launched"].text() == "1,920"
    assert now.notes["launched"].text() == "of 1,920 launched warps"
    page.workspace.session.set_cycle(run.cycles - 1)
    assert now.values["launched"].text() == "0"
    assert now.notes["launched"].text() == "of 1,920 launched warps"  # the launched total does not fall
    assert "1,920 warps" in page.panel.launched.text()
    assert page.counts._names()["launched"] == "unfinished"
