"""A first start that waits for numba's compile says so, with progress, in the Explorer and in *Your kernel*
(issue 31 item 1: the window showed "Simulating… 0%" for 40-57 s, and *Your kernel* an empty bar for minutes)."""

from __future__ import annotations

import pytest

from explorer.gui.common import compile_watch
from explorer.gui.common.compile_watch import INTERPRETER, SIMULATOR, CompileWatch, compile_seconds
from tests.gui.support import wait_run


def test_the_compile_times_are_the_measured_ones_with_their_source():
    import tomllib

    from explorer.paths import resource

    data = tomllib.loads(resource("compile_times.toml").read_text())
    for key in ("simulator_loop", "kernel_interpreter"):
        assert "measured" in data[key]["source"] and data[key]["seconds"] == compile_seconds()[key] > 1


def test_the_watch_names_what_compiles_and_moves_against_its_estimate(qapp, monkeypatch):
    states = {SIMULATOR: "loaded", INTERPRETER: "compiles"}
    monkeypatch.setattr(compile_watch, "state_of", lambda part: states[part])
    clock = [100.0]
    monkeypatch.setattr(compile_watch.time, "monotonic", lambda: clock[0])
    watch = CompileWatch()
    watch.start(SIMULATOR, INTERPRETER)
    assert watch.active and watch.compiling is INTERPRETER
    estimate = compile_seconds()["kernel_interpreter"]
    assert watch.text.startswith(f"Compiling the kernel interpreter once (about {round(estimate)} s")
    clock[0] += estimate / 2
    assert watch.fraction == pytest.approx(0.5)
    clock[0] += estimate  # past the estimate: held below 100%, and the line says why it is late
    assert watch.fraction == compile_watch.HOLD and "taking longer" in watch.text
    states[INTERPRETER] = "loaded"
    watch.poll()
    assert not watch.active and watch.text == ""
    watch.stop()


def test_a_cached_entry_is_a_load_until_it_takes_longer_than_a_load(qapp, monkeypatch):
    monkeypatch.setattr(compile_watch, "state_of", lambda part: "cached")
    clock = [0.0]
    monkeypatch.setattr(compile_watch.time, "monotonic", lambda: clock[0])
    watch = CompileWatch()
    watch.start(SIMULATOR)
    assert not watch.active  # a load takes about a second: no line for it
    clock[0] = compile_watch.LOAD_GRACE_S + 0.1
    watch.poll()
    assert watch.compiling is SIMULATOR  # the cache held other argument types: numba compiles
    watch.stop()


def test_the_explorer_says_it_compiles_over_the_grid_and_in_the_status_bar(window, qtbot, monkeypatch):
    page = window.explorer
    wait_run(qtbot, page)
    monkeypatch.setattr(compile_watch, "state_of", lambda part: "compiles" if part is SIMULATOR else "loaded")
    page.workspace.simulation.test_delay_s = 30.0  # the run waits: as long as a compile
    page.panel.fields["regs"].set_text("40")
    page.apply_edits()
    qtbot.waitUntil(lambda: page.compile_watch.active, timeout=5000)
    assert page.run_state.text().startswith("Compiling…")
    line = page.compile_text()
    assert line.startswith("Compiling the simulator once") and "later starts are instant" in line
    assert page.grid.busy_text == line and window.status_label.text() == line
    monkeypatch.setattr(compile_watch, "state_of", lambda part: "loaded")
    page.workspace.simulation.test_delay_s = 0.0
    page.panel.fields["regs"].set_text("48")
    page.apply_edits()
    wait_run(qtbot, page)
    assert not page.compile_watch.active and not page.run_state.text().startswith("Compiling")
    assert not window.status_label.text().startswith("Compiling")
