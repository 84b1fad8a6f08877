"""The GEMM tab through its real widgets: tiles and waves, roofline, numbers, errors, the Explorer, lessons.

Expected numbers come from hand arithmetic (133 tiles on 132 SMs) and from the
core (``plan_gemm``, ``TileSchedule``); these tests prove the widgets show them.
"""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtGui import QColor

from explorer.gemm import plan_gemm
from explorer.gui.common.theme import DARK, LIGHT
from explorer.gui.gemm.page import GemmPage
from explorer.gui.gemm.session import evaluate_gemm, explorer_scenario, lesson_texts, sample_axis, wave_image
from explorer.gui.gemm.tiles import DONE_ALPHA, WAVE_COLORS, wave_color
from explorer.model.lessons import get_lesson
from tests.gui.support import show_page

TAIL = {"m": 896, "n": 4864, "k": 4096, "dtype": "fp16", "tile": "128x256x64"}  # 7 x 19 = 133 tiles


@pytest.fixture
def page(window, qtbot) -> GemmPage:
    return show_page(window, qtbot, "gemm")


def pixel(widget, x: float, y: float) -> QColor:
    return widget.grab().toImage().pixelColor(int(x), int(y))


def close(c: QColor, hex_color: str, tol: int = 6) -> bool:
    e = QColor(hex_color)
    return abs(c.red() - e.red()) <= tol and abs(c.green() - e.green()) <= tol and abs(c.blue() - e.blue()) <= tol


def inside(view, i: int, j: int):
    """A point inside cell (i, j), clear of its grid line and of its centred number."""
    r = view.cell_rect(i, j)
    return r.left() + 3, r.top() + 3


# -- registration ----------------------------------------------------------------------
def test_views_and_lesson_targets_are_registered(window):
    assert set(window.views) >= {"explorer", "occupancy", "gemm", "memory"}
    assert window.lesson_targets["gemm"] is window.views["gemm"].tiles
    assert window.lesson_targets["roofline"] is window.views["gemm"].roofline_box
    assert window.lesson_targets["memory"] is window.views["memory"].hierarchy
    assert hasattr(window.views["gemm"], "apply_lesson_gemm")
    titles = [window.tabs.tabText(i) for i in range(window.tabs.count())]
    assert "&GEMM" in titles and "&Memory" in titles
    assert window.show_view("gemm") and window.tabs.currentWidget() is window.views["gemm"]


# -- 133 tiles on 132 SMs ----------------------------------------------------------------
def test_133_tiles_take_two_waves_the_last_with_one_tile(page):
    page.apply_lesson_gemm(TAIL)
    plan = page.plan
    assert (plan.tiles_m, plan.tiles_n, plan.tiles) == (7, 19, 133)
    assert plan.blocks_per_sm == 1 and plan.waves.full_waves == 2 and plan.waves.last_wave_tiles == 1
    view = page.tiles.view
    assert view.waves.shape == (7, 19)
    np.testing.assert_array_equal(view.waves, np.array(plan.schedule().wave_grid()))
    assert (view.waves == 1).sum() == 1 and view.waves[6, 18] == 1  # tile 132: the last row's last tile
    # the pixels: wave 1 blue, the lone tile of wave 2 orange
    assert close(pixel(view, *inside(view, 0, 0)), WAVE_COLORS[0])
    assert close(pixel(view, *inside(view, 3, 10)), WAVE_COLORS[0])
    assert close(pixel(view, *inside(view, 6, 18)), WAVE_COLORS[1])
    # plain words, with the core's numbers
    text = page.explain.text()
    for part in ("132 tiles at a time", "133 tiles", "1.008 waves", "2 waves", "only 1 tile(s)", "131 slots",
                 "50.4%"):
        assert part in text, part
    assert page.explain_core.text().startswith(plan.waves.explain())
    strip = page.tiles.strip  # the tail as a picture: a full wave, then one busy slot of 132
    assert strip.waves == [0, 1] and strip.busy == [132, 1]
    img = strip.grab().toImage()
    assert close(img.pixelColor(5, strip.height() - 5), WAVE_COLORS[0])
    assert close(img.pixelColor(strip.width() - 5, strip.height() - 3), WAVE_COLORS[1])
    assert close(img.pixelColor(strip.width() - 5, strip.height() // 2 + 6), LIGHT.base)
    assert page.values["grid"].text().startswith("7 × 19 = 133 tiles of 128×256; 132 persistent CTAs")
    assert "2 wave(s); wave efficiency 50.4%" in page.values["waves"].text()
    assert "133 tiles in 2 wave(s)" in page.status_text


def test_tile_colours_by_sm_match_the_schedule(page):
    page.apply_lesson_gemm({"m": 4096, "n": 4096, "k": 1024, "dtype": "bf16", "tile": "128x128x64"})
    view = page.tiles.view
    page.tiles.color_by.setCurrentIndex(page.tiles.color_by.findData("sm"))
    assert view.mode == "sm"
    sched = page.plan.schedule()
    np.testing.assert_array_equal(view.sms, np.array(sched.sm_grid()))
    np.testing.assert_array_equal(view.waves, np.array(sched.wave_grid()))
    colors = view.cell_colors()
    # same SM, same colour; SM 0 and the last SM differ
    first = np.argwhere(view.sms == 0)
    assert all((colors[tuple(ij)] == colors[tuple(first[0])]).all() for ij in first)
    last = tuple(np.argwhere(view.sms == sched.sm_count - 1)[0])
    assert not (colors[tuple(first[0])] == colors[last]).all()
    c = pixel(view, *inside(view, *first[0]))
    assert (c.red(), c.green(), c.blue()) == tuple(int(v) for v in colors[tuple(first[0])])
    assert "SM 0" in page.tiles.legend.text()


def test_stepping_and_playing_the_waves(page, qtbot):
    page.apply_lesson_gemm(TAIL)
    panel, view = page.tiles, page.tiles.view
    assert panel.current is None and "All 2 wave(s)" in panel.wave_label.text()
    panel.fwd.click()
    assert panel.current == 0 and panel.wave_label.text().startswith("Wave 1 of 2: 132 tile(s) on 132 SM(s)")
    panel.fwd.click()
    assert panel.current == 1
    assert "Wave 2 of 2: 1 tile(s) on 1 SM(s); 131 SM(s) have nothing to do." == panel.wave_label.text()
    # wave 1 faded (finished), the lone wave-2 tile in full colour
    bg, blue = QColor(LIGHT.base), QColor(WAVE_COLORS[0])
    faded = [round(DONE_ALPHA * a + (1 - DONE_ALPHA) * b) for a, b in
             zip((blue.red(), blue.green(), blue.blue()), (bg.red(), bg.green(), bg.blue()))]
    assert close(pixel(view, *inside(view, 0, 0)), QColor(*faded).name())
    assert close(pixel(view, *inside(view, 6, 18)), WAVE_COLORS[1])
    panel.fwd.click()  # stays on the last wave
    assert panel.current == 1
    panel.first.click()
    assert panel.current == 0
    # the first wave shown: tiles of wave 2 not started yet (background)
    assert close(pixel(view, *inside(view, 6, 18)), LIGHT.base)
    panel.all.click()
    assert panel.current is None
    panel.slider.setValue(2)
    assert panel.current == 1
    # play: waves one after another, then every wave at once
    panel.timer.setInterval(20)
    panel.play.click()
    assert panel.play.isChecked() and panel.current == 0
    panel.timer.setInterval(20)
    qtbot.waitUntil(lambda: not panel.play.isChecked(), timeout=5000)
    assert panel.current is None


def test_changing_an_input_updates_the_roofline_point_and_the_numbers(page):
    page.apply_lesson_gemm({"m": 4096, "n": 4096, "k": 4096, "dtype": "bf16"})
    before = page.plan
    hbm_before = page.roofline.point_xy["hbm"]
    assert hbm_before == pytest.approx((before.level("hbm").intensity, before.achieved_tflops))
    page.inputs.fields["k"].set_text("256")
    after = page.plan
    assert after is not before and after.k == 256
    assert page.roofline.point_xy["hbm"] == pytest.approx((after.level("hbm").intensity, after.achieved_tflops))
    assert page.roofline.point_xy["hbm"][0] < hbm_before[0]  # a shorter K: fewer FLOPs per byte
    assert page.roofline.point_xy["l2"][0] == pytest.approx(after.level("l2").intensity)
    assert "4 K-steps of 64" in page.values["cta"].text()
    assert page.levels.rows["hbm"]["intensity"].text() != ""
    # data type -> the bold roof moves, the mapping follows
    page.inputs.set_dtype("fp32")
    assert page.plan.dtype == "fp32" and "FP32" in page.roofline_caption.text()
    assert page.levels.rows["registers"]["path"].text() == "registers → FP32 pipes"  # LevelTraffic.path
    assert page.time_split.time_bar.segments[0][0] == "FP32 pipes"


def test_the_roofline_and_bars_are_drawn(page):
    page.apply_lesson_gemm(TAIL)
    img = page.roofline.grab().toImage()
    colors = {}
    for y in range(0, img.height(), 2):
        for x in range(0, img.width(), 2):
            name = img.pixelColor(x, y).name().upper()
            colors[name] = colors.get(name, 0) + 1
    # both slopes and the chosen roof are on screen in their colours
    from explorer.gui.common import palette as oi

    assert colors.get(oi.VERMILLION.upper(), 0) > 20  # HBM slope
    assert colors.get(oi.BLUISH_GREEN.upper(), 0) > 20  # L2 slope
    assert colors.get(LIGHT.curve.upper(), 0) > 20  # the FP16 roof
    bar = page.time_split.time_bar
    c = bar.grab().toImage().pixelColor(5, bar.height() // 2)
    assert close(c, oi.BLUE)
    assert [s[0] for s in bar.segments] == ["Tensor Cores", "everything else"]
    assert sum(v for _n, v, _c in bar.segments) == pytest.approx(page.plan.predicted_seconds)
    bound_label, bound_bar = page.time_split.term_rows[0]
    assert bound_label.text() == "Tensor Core math" and "the bound" in bound_bar.text  # the wgmma path on H100


def test_invalid_input_shows_the_core_message_and_keeps_the_last_result(page):
    page.apply_lesson_gemm(TAIL)
    good = page.plan
    m = page.inputs.fields["m"]
    m.set_text("-5")
    assert m.is_invalid and m.message == "-5 is below the minimum of 1"
    assert page.plan is good and page.stale.isVisible()
    assert "last valid GEMM" in page.status_text
    assert page.tiles.view.plan is good
    page.inputs.fields["n"].set_text("abc")
    assert page.inputs.fields["n"].message == "'abc' is not an integer" and m.is_invalid
    m.set_text("896")
    page.inputs.fields["n"].set_text("4864")
    assert not page.stale.isVisible() and page.plan == good
    tile = page.inputs.fields["tile"]
    tile.set_text("100x256x64")
    assert tile.message.startswith("BM = 100 is not a multiple of 64")
    assert page.plan == good
    tile.set_text("128x256x64")
    page.inputs.set_gpu("A100")
    page.inputs.set_dtype("fp8")
    assert page.inputs.dtype_error.isVisible() and "no Tensor Core support on A100" in page.inputs.dtype_error.text()
    assert page.plan.gpu == "A100" and page.plan.dtype == "fp16"  # the last valid one (A100, FP16)


def test_every_bad_size_is_marked_at_once():
    ev = evaluate_gemm("H100", "fp16", {"m": "0", "n": "", "k": "x", "tile": "1x2", "warps": "", "stages": "9"})
    assert ev.plan is None
    assert set(ev.errors) == {"m", "n", "k", "tile", "stages"}
    assert ev.errors["stages"] == "9 is above the maximum of 8"
    # a tile the mapper refuses is marked even while a size is bad
    ev = evaluate_gemm("H100", "fp16", {"m": "-5", "n": "64", "k": "64", "tile": "100x128x64"})
    assert set(ev.errors) == {"m", "tile"} and ev.errors["tile"].startswith("BM = 100 is not a multiple of 64")


def test_send_to_explorer_changes_the_explorers_scenario(window, page, qtbot):
    page.apply_lesson_gemm(TAIL)
    page.send.click()
    explorer = window.explorer
    assert window.tabs.currentWidget() is explorer
    sc = explorer.workspace.session.scenario
    assert sc == page.sent
    assert sc.name == "gemm-896x4864x4096-fp16" and sc.launch.grid.x == 133
    # the wgmma main loop: a producer warpgroup (TMA) + 2 consumer warpgroups
    assert sc.launch.block.x == 384 and sc.workload.loop == 64 and sc.workload.producer_warps == 4
    assert explorer.panel.fields["grid"].text().startswith("133")
    assert "whole GEMM: 133 CTAs × 64 K-steps" in page.send_note.text()
    qtbot.waitUntil(lambda: explorer.workspace.session.run is not None
                    and explorer.workspace.session.run.result.scenario == sc
                    and not explorer.workspace.session.simulating, timeout=60_000)
    assert explorer.workspace.session.run.summary["waves"] == pytest.approx(133 / 132)


def test_a_big_gemm_is_shortened_for_the_explorer():
    plan = plan_gemm("H100", 16384, 16384, 16384, "bf16")
    sent = explorer_scenario(plan)
    assert sent.shortened and sent.tiles == plan.tiles and sent.k_steps < plan.k_steps
    assert sent.scenario.launch.grid.x == plan.tiles and sent.scenario.workload.loop == sent.k_steps


def test_huge_grids_are_sampled_not_drawn_tile_by_tile(page):
    page.apply_lesson_gemm({"m": 1 << 20, "n": 1 << 20, "k": 64, "dtype": "fp16", "tile": "64x64x64"})
    view = page.tiles.view
    assert view.sampled and view.waves.shape == (512, 512)
    sched = page.plan.schedule()
    rows, cols = sample_axis(sched.tiles_m), sample_axis(sched.tiles_n)
    i, j = 100, 300
    assert view.waves[i, j] == sched.wave_of(sched.tile_index(int(rows[i]), int(cols[j])))
    assert "sample" in page.tiles.legend.text()
    small = plan_gemm("H100", 1024, 2048, 64, "fp16", "64x64x64").schedule()
    np.testing.assert_array_equal(wave_image(small), np.array(small.wave_grid()))


# -- lessons --------------------------------------------------------------------------------
def test_apply_lesson_gemm_fills_the_inputs(page):
    page.inputs.fields["warps"].set_text("8")
    page.apply_lesson_gemm({"gpu": "A100", "m": 512, "n": 1024, "k": 2048, "dtype": "bf16", "tile": [128, 128, 32]})
    f = page.inputs.fields
    assert (f["m"].text(), f["n"].text(), f["k"].text(), f["tile"].text()) == ("512", "1024", "2048", "128x128x32")
    assert f["warps"].text() == ""  # left out: back to the default
    assert page.inputs.gpu_name() == "A100" and page.inputs.dtype_name() == "bf16"
    assert (page.plan.gpu, page.plan.m, page.plan.n, page.plan.k) == ("A100", 512, 1024, 2048)
    before = page.plan
    page.apply_lesson_gemm({})
    assert page.plan is before
    assert lesson_texts({"tile": "64x64x32"})[0]["m"] == "4096"


def test_the_waves_lesson_step_shows_133_tiles(window, page):
    steps = [s for s in get_lesson("waves-and-tail").steps if s.view == "gemm"]
    assert steps, "lesson 06 has a GEMM step"
    step = steps[0]
    assert "gemm" in step.highlight
    assert window.show_view(step.view)
    window.views[step.view].apply_lesson_gemm(step.gemm)
    plan = page.plan
    assert (plan.tiles, plan.waves.full_waves, plan.waves.last_wave_tiles) == (133, 2, 1)
    # the narration's numbers are the view's numbers
    en = step.text("en")
    for number in ("133", "132", "50.4"):
        assert number in en
    assert f"{100 * plan.waves.efficiency:.1f}" == "50.4"
    assert "50,4" in step.text("ru")


def test_the_tensor_core_lesson_step_matches_the_view(window, page):
    step = next(s for s in get_lesson("tensor-cores").steps if s.view == "gemm")
    assert "roofline" in step.highlight
    window.views[step.view].apply_lesson_gemm(step.gemm)
    plan = page.plan
    assert (plan.m, plan.n, plan.k, plan.dtype) == (4096, 4096, 4096, "bf16")
    en = step.text("en")
    assert plan.path == "wgmma" and "wgmma" in en
    assert "190 µs" in en and "190 µs" in page.values["time"].text()
    assert "725 TFLOPS" in en and "725 TFLOPS" in page.values["time"].text()
    split = page.time_split.time_text.text()
    assert "(73% of the time)" in split and "73%" in en
    assert "are 26% of all" in split and "26%" in en
    assert page.time_split.term_rows[0][0].text() == "Tensor Core math" and "Tensor Core math" in en
    assert "(295 FLOP/B)" in page.roofline_caption.text() and "295 FLOP per byte" in en


# -- theme, persistence ------------------------------------------------------------------------
def test_dark_theme_recolours_the_views(window, page):
    page.apply_lesson_gemm(TAIL)
    window.theme_actions["dark"].trigger()
    assert page.roofline.backgroundBrush().color().name().upper() == DARK.plot_background.upper()
    view = page.tiles.view
    panel = page.tiles
    panel.fwd.click()  # wave 1: wave 2 not started -> the dark background
    assert close(pixel(view, *inside(view, 6, 18)), DARK.base)
    window.theme_actions["light"].trigger()


def test_gemm_inputs_survive_a_restart(qtbot, settings, light_theme):
    from explorer.gui.shell.main_window import MainWindow

    first = MainWindow(settings=settings)
    qtbot.addWidget(first)
    first.views["gemm"].apply_lesson_gemm(dict(TAIL, gpu="A100"))
    first.views["gemm"].tiles.color_by.setCurrentIndex(1)
    first.close()
    second = MainWindow(settings=settings)
    qtbot.addWidget(second)
    g = second.views["gemm"]
    assert g.inputs.gpu_name() == "A100" and g.inputs.fields["tile"].text() == "128x256x64"
    assert g.plan.m == 896 and g.tiles.view.mode == "sm"
    assert wave_color(1) == WAVE_COLORS[1]


def test_the_lesson_panel_plays_the_gemm_and_memory_steps(window, qtbot):
    lessons = window.feature("lessons")
    if lessons is None:
        pytest.skip("this build has no lesson panel")
    from explorer.gui.workspace.run_data import SimRun
    from explorer.sim import simulate

    lesson = get_lesson("waves-and-tail")
    index = next(i for i, s in enumerate(lesson.steps) if s.view == "gemm")
    lessons.show_step_with_run(lesson, index, SimRun.from_result(simulate(lesson.scenario_at(index))))
    page = window.views["gemm"]
    assert window.tabs.currentWidget() is page
    assert (page.plan.tiles, page.plan.waves.full_waves, page.plan.waves.last_wave_tiles) == (133, 2, 1)
    assert page.tiles in lessons.highlighted()
    lesson = get_lesson("memory-hierarchy")
    index = next(i for i, s in enumerate(lesson.steps) if s.gemm)
    lessons.show_step_with_run(lesson, index, SimRun.from_result(simulate(lesson.scenario_at(index))))
    memory = window.views["memory"]
    assert window.tabs.currentWidget() is memory
    assert (memory.attention.comparison.seq_len, memory.attention.comparison.head_dim) == (4096, 128)
