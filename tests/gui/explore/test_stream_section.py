"""The stream of launches, live in the Explorer's Kernel and GPU column (issue 31 item 15).

A lecturer changes the scenario's ``[stream]`` on screen: launches, the gap between
them, CUDA Graph on/off, synchronize every N, NVML's sample period. The section
goes through the panel's path like every other field: the core judges the value
(the field marked with its message, nothing simulated), the change is one step of
Edit > Undo, and the stream strip's NVML reading follows. References are
independent of the panel: the kernel's duration from the run's cycles and clock,
the gaps from ``resources/launch_overhead.toml`` as the test reads it, NVML's
utilization as n * kernel / (n * kernel + gaps) (the stream's busy share).
"""

from __future__ import annotations

import tomllib

import pytest
from PySide6.QtCore import Qt

from explorer.gui.explore.scenario_fields import STREAM_FIELDS, build_scenario, scenario_to_texts
from explorer.model.presets import load_preset, preset_names
from explorer.model.scenario import Scenario
from explorer.paths import resource
from tests.gui.support import RUN_TIMEOUT

TINY = {"workload.loop": 2}  # a short kernel: every edit below re-simulates it


def gaps_of(gpu: str) -> dict:
    with open(resource("launch_overhead.toml"), "rb") as fh:
        data = tomllib.load(fh)
    return data["default"] | {k: v for k, v in data["gpu"].get(gpu, {}).items() if k != "sources"}


def kernel_us(run) -> float:
    return run.result.cycles / run.result.params.clock_mhz


def busy_share(n: int, k: float, gaps: float) -> float:
    return n * k / (n * k + gaps)


def type_text(qtbot, field, text: str) -> None:
    """Select the field's text and type ``text`` key by key, as a user does."""
    field.edit.setFocus()
    field.edit.selectAll()
    qtbot.keyClicks(field.edit, text)


def settled_on(qtbot, page, check):
    qtbot.waitUntil(lambda: page.workspace.session.run is not None and not page.workspace.session.simulating
                    and not page._debounce.isActive() and page.workspace.session.run_is_current
                    and check(page.workspace.session.run.result.scenario), timeout=RUN_TIMEOUT)
    return page.workspace.session.run


@pytest.fixture
def tiny(page, qtbot):
    """The example with a short loop, its stream section opened by a click on its header."""
    scenario = load_preset("example-240x256").with_values(**TINY)
    page.workspace.change_scenario(scenario, "preset")
    settled_on(qtbot, page, lambda s: s == scenario)
    panel = page.panel
    assert not panel.stream_open and not panel.fields["kernels"].isVisible()  # one launch: folded
    qtbot.mouseClick(panel.stream_toggle, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: panel.fields["kernels"].isVisible())
    assert panel.fields["kernels"].text() == "1" and panel.fields["launch_gap"].text() == ""
    return page


def nvml(page) -> float:
    return page.stream_strip.meters["nvml_utilization"].fraction


def test_a_hundred_launches_show_the_strip_and_nvml_reads_the_gaps(tiny, qtbot):
    page = tiny
    assert not page.stream_strip.isVisible()
    type_text(qtbot, page.panel.fields["kernels"], "100")
    run = settled_on(qtbot, page, lambda s: s.stream.kernels == 100)
    qtbot.waitUntil(page.stream_strip.isVisible)
    gap = gaps_of("H100")["launch_gap_us"]  # the field is empty: the H100's figure
    assert page.panel.fields["launch_gap"].edit.placeholderText() == f"{gap:g}"
    assert "HAZY25" in page.panel.fields["launch_gap"].edit.toolTip()  # the figure's source
    assert page.panel.stream_info.text() == "100 launches, 2.1 µs apart; NVML window 1000 ms"
    assert page.panel.stream_info.toolTip().startswith("Gap: HAZY25")  # the defaults it took, with their sources
    expected = busy_share(100, kernel_us(run), 99 * gap)
    assert nvml(page) == pytest.approx(expected, rel=1e-9) and nvml(page) < 1
    assert page.workspace.commands.done[-1].kind == "edit" and page.workspace.commands.done[-1].fields == {"kernels"}

    type_text(qtbot, page.panel.fields["launch_gap"], "10")  # a slower host: NVML reads less
    run = settled_on(qtbot, page, lambda s: s.stream.launch_gap_us == 10.0)
    assert nvml(page) == pytest.approx(busy_share(100, kernel_us(run), 99 * 10.0), rel=1e-9)
    assert nvml(page) < expected


def test_a_cuda_graph_lowers_the_gap(tiny, qtbot):
    page, panel = tiny, tiny.panel
    type_text(qtbot, panel.fields["kernels"], "100")
    settled_on(qtbot, page, lambda s: s.stream.kernels == 100)
    qtbot.waitUntil(page.stream_strip.isVisible)
    plain = nvml(page)
    gaps = gaps_of("H100")
    assert page.stream_strip.timeline.stream.timing.gap_us == gaps["launch_gap_us"]
    qtbot.mouseClick(panel.graph, Qt.MouseButton.LeftButton)
    run = settled_on(qtbot, page, lambda s: s.stream.graph)
    assert gaps["graph_gap_us"] < gaps["launch_gap_us"]
    assert page.stream_strip.timeline.stream.timing.gap_us == gaps["graph_gap_us"]
    assert nvml(page) == pytest.approx(busy_share(100, kernel_us(run), 99 * gaps["graph_gap_us"]), rel=1e-9)
    assert nvml(page) > plain
    # the launch gap does not apply to a graph's nodes: its field is off and shows the graph's figure
    gap = panel.fields["launch_gap"]
    assert not gap.isEnabled() and gap.edit.placeholderText() == f"{gaps['graph_gap_us']:g}"
    assert "per-node" in gap.edit.toolTip()


def test_synchronize_every_n_puts_a_round_trip_into_the_stream(tiny, qtbot):
    page, panel = tiny, tiny.panel
    type_text(qtbot, panel.fields["kernels"], "100")
    settled_on(qtbot, page, lambda s: s.stream.kernels == 100)
    qtbot.waitUntil(page.stream_strip.isVisible)
    plain = nvml(page)
    type_text(qtbot, panel.fields["sync_every"], "10")
    run = settled_on(qtbot, page, lambda s: s.stream.sync_every == 10)
    gaps = gaps_of("H100")
    total = 9 * gaps["sync_gap_us"] + 90 * gaps["launch_gap_us"]  # after kernels 10, 20, ..., 90: a round trip
    assert nvml(page) == pytest.approx(busy_share(100, kernel_us(run), total), rel=1e-9)
    assert nvml(page) < plain
    assert "round trip" in panel.stream_info.text() and "10" in panel.stream_info.text()


@pytest.mark.parametrize("key, text, message", [
    ("kernels", "0", "0 is below the minimum of 1"),
    ("kernels", "1000001", "1000001 is above the maximum of 1000000"),
    ("launch_gap", "-1", "-1 is below the minimum of 0 us"),
    ("launch_gap", "abc", "'abc' is not a number"),
    ("sync_every", "-3", "-3 is below the minimum of 0"),
    ("nvml_period", "0.5", "0.5 is below the minimum of 1 ms"),
])
def test_a_bad_stream_value_marks_its_field_and_does_not_run(tiny, qtbot, key, text, message):
    page = tiny
    before, steps = page.workspace.session.scenario, len(page.workspace.commands.done)
    field = page.panel.fields[key]
    type_text(qtbot, field, text)
    qtbot.waitUntil(lambda: field.is_invalid and not page._debounce.isActive())
    assert field.message == message  # the core's words, with the limit
    assert page.workspace.session.scenario == before and page.workspace.session.run.result.scenario == before
    assert (not page.workspace.session.simulating and page.workspace.session.pending is None
            and len(page.workspace.commands.done) == steps)
    assert [f for f in STREAM_FIELDS if f != "graph" and page.panel.fields[f].is_invalid] == [key]
    field.set_text(scenario_to_texts(before)[key])  # back to the last good value: the mark goes
    qtbot.waitUntil(lambda: not field.is_invalid)


def test_undo_restores_the_single_launch(window, tiny, qtbot):
    page, panel = tiny, tiny.panel
    original = page.workspace.session.scenario
    type_text(qtbot, panel.fields["kernels"], "100")
    settled_on(qtbot, page, lambda s: s.stream.kernels == 100)
    qtbot.mouseClick(panel.graph, Qt.MouseButton.LeftButton)
    settled_on(qtbot, page, lambda s: s.stream.graph)
    assert window.undo_action.text() == "&Undo Field Edit"
    window.undo_action.trigger()
    settled_on(qtbot, page, lambda s: not s.stream.graph and s.stream.kernels == 100)
    assert not panel.graph.isChecked() and panel.fields["launch_gap"].isEnabled()
    window.undo_action.trigger()
    settled_on(qtbot, page, lambda s: s == original)
    assert panel.fields["kernels"].text() == "1"
    qtbot.waitUntil(lambda: not page.stream_strip.isVisible())
    window.redo_action.trigger()
    settled_on(qtbot, page, lambda s: s.stream.kernels == 100)
    assert panel.fields["kernels"].text() == "100"


def test_a_scenario_with_a_stream_opens_the_section_with_its_values(page, qtbot):
    panel = page.panel
    assert not panel.stream_open
    scenario = load_preset("example-240x256").with_values(**TINY, **{
        "stream.kernels": 10_000, "stream.graph": True, "stream.sync_every": 50, "stream.nvml_period_ms": 166.5})
    page.workspace.change_scenario(scenario, "preset")
    settled_on(qtbot, page, lambda s: s == scenario)
    assert panel.stream_open and panel.fields["kernels"].isVisible()
    texts = {key: panel.texts()[key] for key in STREAM_FIELDS}
    assert texts == {"kernels": "10000", "launch_gap": "", "graph": "true", "sync_every": "50",
                     "nvml_period": "166.5"}
    assert panel.graph.isChecked()


def test_a_lesson_step_fills_the_stream_section(window, qtbot):
    ctl = window.feature("lessons")
    ctl.lesson_actions["occupancy-vs-utilization"].trigger()
    lesson = ctl.lesson
    panel = window.explorer.panel
    for k, step in enumerate(lesson.steps):
        if k:
            ctl.next()
        qtbot.waitUntil(lambda: ctl.ready, timeout=RUN_TIMEOUT)
        stream = lesson.scenario_at(k).stream
        if stream.kernels > 1:
            assert panel.stream_open
        assert panel.fields["kernels"].text() == str(stream.kernels), k
        assert panel.graph.isChecked() == stream.graph, k
    assert any(lesson.scenario_at(k).stream.graph for k in range(len(lesson.steps)))


# -- texts -> scenario -> texts ------------------------------------------------------------------
STREAMS = [
    {},
    {"stream.kernels": 100},
    {"stream.kernels": 10_000, "stream.launch_gap_us": 0.595},
    {"stream.kernels": 7, "stream.launch_gap_us": 0.0, "stream.sync_every": 3, "stream.nvml_period_ms": 166.66},
    {"stream.kernels": 1_000_000, "stream.graph": True, "stream.launch_gap_us": 12.5, "stream.sync_every": 1},
]


@pytest.mark.parametrize("stream", STREAMS)
@pytest.mark.parametrize("name", ["example-240x256", preset_names()[-1]])
def test_stream_texts_read_back_as_the_same_scenario(name, stream):
    scenario = load_preset(name).with_values(**stream)
    texts = scenario_to_texts(scenario)
    rebuilt, errors = build_scenario(scenario, texts, texts)
    assert errors == {} and rebuilt == scenario
    assert scenario_to_texts(rebuilt) == texts


def test_a_comma_decimal_is_read_and_an_empty_gap_is_the_gpus_figure():
    base = load_preset("example-240x256")
    texts = scenario_to_texts(base) | {"kernels": "20", "launch_gap": "2,5", "nvml_period": ""}
    scenario, errors = build_scenario(base, texts, scenario_to_texts(base))
    assert errors == {} and scenario.stream.launch_gap_us == 2.5 and scenario.stream.nvml_period_ms is None
    assert scenario.stream.resolve(scenario.gpu).nvml_period_ms == gaps_of("H100")["nvml_period_ms"]


def test_your_kernel_scenario_takes_a_stream_too():
    base = Scenario.load(resource("kernels/saxpy.toml"))
    assert base.kernel is not None
    texts = scenario_to_texts(base) | {"kernels": "50", "graph": "true"}
    scenario, errors = build_scenario(base, texts, scenario_to_texts(base))
    assert errors == {} and scenario.kernel == base.kernel
    assert (scenario.stream.kernels, scenario.stream.graph) == (50, True)
    assert scenario_to_texts(scenario) == texts


def test_the_h200_shows_its_measured_gaps(tiny, qtbot):
    """Another GPU, other defaults: the H200's measured launch figures as the placeholders, the source in the tip."""
    page, panel = tiny, tiny.panel
    gpu = panel.gpu
    gpu.setCurrentIndex(gpu.findData("H200"))
    settled_on(qtbot, page, lambda s: s.gpu_name == "H200")
    gaps = gaps_of("H200")
    assert gaps["launch_gap_us"] == 1.66  # measured on 2026-12-04, not the H100's published 2.1
    gap = panel.fields["launch_gap"]
    assert gap.edit.placeholderText() == "1.66"
    assert "MICROBENCH.md" in gap.edit.toolTip() and "measured" in gap.edit.toolTip()
    assert "8.1" in panel.fields["sync_every"].edit.toolTip()
    qtbot.mouseClick(panel.graph, Qt.MouseButton.LeftButton)
    settled_on(qtbot, page, lambda s: s.stream.graph)
    assert gap.edit.placeholderText() == "0.69"


def test_tab_goes_down_the_section_and_skips_it_folded(tiny, qtbot):
    panel = tiny.panel
    order = [panel.stream_toggle, panel.fields["kernels"].edit, panel.fields["launch_gap"].edit, panel.graph,
             panel.fields["sync_every"].edit, panel.fields["nvml_period"].edit]
    panel.fields["seed"].edit.setFocus()
    reached = []
    for _ in order:
        qtbot.keyClick(panel.window().focusWidget(), Qt.Key.Key_Tab)
        reached.append(panel.window().focusWidget())
    assert reached == order
    panel.stream_toggle.click()  # folded: from the seed, Tab leaves the section's rows out
    assert not panel.stream_open
    panel.fields["seed"].edit.setFocus()
    qtbot.keyClick(panel.fields["seed"].edit, Qt.Key.Key_Tab)
    assert panel.window().focusWidget() is panel.stream_toggle
    qtbot.keyClick(panel.stream_toggle, Qt.Key.Key_Tab)
    assert panel.window().focusWidget() not in order


def test_a_language_switch_keeps_the_section_open(window, tiny, qtbot, english):
    from explorer.gui.shell.language import switch_language

    assert tiny.panel.stream_open  # opened by hand for a single launch
    ru = switch_language(window, "ru")
    qtbot.addWidget(ru)
    assert ru.explorer.panel.stream_open and ru.explorer.panel.stream_toggle.text() == "Поток запусков"


def test_a_refused_gap_stays_editable_when_the_graph_goes_on(tiny, qtbot):
    page, panel = tiny, tiny.panel
    gap = panel.fields["launch_gap"]
    type_text(qtbot, gap, "-2")
    qtbot.waitUntil(lambda: gap.is_invalid and not page._debounce.isActive())
    qtbot.mouseClick(panel.graph, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not page._debounce.isActive())
    assert gap.isEnabled() and gap.is_invalid and not page.workspace.session.scenario.stream.graph
    type_text(qtbot, gap, "2")
    settled_on(qtbot, page, lambda s: s.stream.graph and s.stream.launch_gap_us == 2.0)
    assert not gap.isEnabled() and not gap.is_invalid
