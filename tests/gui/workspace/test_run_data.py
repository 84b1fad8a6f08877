"""The explorer's derived data (Qt-free): block slots, zoom pyramid, session rules."""

from __future__ import annotations

import numpy as np
import pytest

from explorer.gui.common import state_colors, state_order
from explorer.gui.workspace.run_data import (
    BATCH_SHARE,
    FILL_SHARE,
    SimRun,
    fill_plan,
    pyramid,
    record_batch,
    scheduler_order,
    simulate_run,
)
from explorer.gui.workspace.session import ExplorerSession
from explorer.model.presets import default_scenario, load_preset, preset_names
from explorer.sim import simulate
from explorer.sim import states as core_states


def test_state_codes_match_the_simulator():
    assert state_order.NAMES == core_states.NAMES
    assert state_order.N_STATES == len(core_states.NAMES)
    assert (state_order.EMPTY, state_order.SELECTED, state_order.NOT_SELECTED) == (
        core_states.EMPTY, core_states.SELECTED, core_states.NOT_SELECTED)
    # the tooltips' meanings are the core's sentences (translatable copies)
    meanings = state_colors.meanings()
    for code, name in enumerate(core_states.NAMES):
        assert meanings[code] == core_states.MEANING[name]


def test_every_state_has_a_distinct_colour():
    for dark in (False, True):
        colours = [state_colors.state_color(c, dark).upper() for c in range(state_order.N_STATES)]
        assert len(set(colours)) == len(colours)


def test_scheduler_order_groups_slots_by_sub_partition():
    order = scheduler_order(8, 4)
    assert order.tolist() == [0, 4, 1, 5, 2, 6, 3, 7]


@pytest.fixture(scope="module", params=preset_names())
def run(request) -> SimRun:
    return SimRun.from_result(simulate(load_preset(request.param)))


def test_block_slots_match_the_trace(run):
    """Wherever a recorded slot is busy, the simulator's block-slot records say which block holds it."""
    r = run.result
    rec = r.recorded_sms
    for c in np.unique(np.linspace(0, r.cycles - 1, 300).astype(int)):
        owner = run.slot_owner(int(c))
        busy = r.trace[c] != 0
        assert not np.any(busy & (owner[rec] < 0)), f"cycle {c}"
        # and the owner of a busy slot sits on that SM
        sm_of = np.where(owner[rec] >= 0, r.blocks.sm[np.maximum(owner[rec], 0)], -1)
        assert np.all(sm_of[busy] == np.broadcast_to(rec[:, None], busy.shape)[busy])


def test_every_busy_slot_has_one_owner(run):
    """Warps give their slots back one by one (per-warp release), so two live blocks may list one slot; the owner
    is the block that took it last, and every slot the trace shows busy belongs to a live block of that SM that
    started at or before the cycle."""
    r = run.result
    b = r.blocks
    rec = r.recorded_sms
    for c in np.unique(np.linspace(0, r.cycles - 1, 100).astype(int)):
        owner = run.slot_owner(int(c))
        live = b.live_at(int(c))
        sm, slot = np.nonzero(owner >= 0)
        blk = owner[sm, slot]
        # each owner is live, on that SM, and lists the slot
        assert np.isin(blk, live).all() and np.array_equal(b.sm[blk], sm)
        assert (run.block_slots[blk] == slot[:, None]).any(axis=1).all()
        # every slot a live block lists is owned by it or by a block that started there later
        slots = run.block_slots[live]
        listed = slots >= 0
        own = owner[np.broadcast_to(b.sm[live][:, None], slots.shape)[listed], slots[listed]]
        assert (own >= 0).all()
        assert (b.start[own] >= np.broadcast_to(b.start[live][:, None], slots.shape)[listed]).all()
        if c < r.trace.shape[0]:
            busy = r.trace[c] != 0
            assert np.all(owner[rec][busy] >= 0)


def test_resident_per_sm_matches_busy_slots(run):
    r = run.result
    rec = r.recorded_sms
    for c in (0, r.cycles // 3, r.cycles // 2):
        busy = (r.trace[c] != 0).sum(axis=1)
        assert np.array_equal(run.resident_per_sm(c)[rec], busy)


def test_pyramid_keeps_the_most_important_state_per_bin():
    trace = np.zeros((1000, 4), np.uint8)
    trace[:, 0] = state_order.NAMES.index("long_scoreboard")
    trace[501, 0] = state_order.SELECTED  # a single issue cycle
    levels = pyramid(trace, np.arange(4))
    assert levels[0].shape == (1000, 4)
    rank_sel = state_order.PRIORITY[state_order.SELECTED]
    for k, level in enumerate(levels):
        assert level.shape[0] == -(-1000 // 2**k)
        assert level[501 >> k, 0] == rank_sel
        assert np.all(level[:, 1:] == 0)


def test_session_clamps_cycle_and_selection():
    s = ExplorerSession(default_scenario())
    seen = []
    s.cycle_changed.connect(seen.append)
    s.set_cycle(50)  # no run yet: stays at 0
    assert s.cycle == 0 and seen == []
    run = SimRun.from_result(simulate(default_scenario()))
    s.set_run(run)
    s.set_cycle(10**9)
    assert s.cycle == run.cycles - 1
    s.step(-10**9)
    assert s.cycle == 0
    s.select_sm(10**6)
    assert s.selected_sm == run.sm_count - 1
    assert s.run_is_current
    s.set_errors({"regs": "bad"})
    assert not s.run_is_current


def test_the_views_data_and_the_state_vocabulary_load_neither_qt_nor_the_engine():
    """run_data and state_order are Qt-free, and explorer.sim.states imports without numba (lazy explorer.sim)."""
    import subprocess
    import sys

    code = ("import sys; import explorer.gui.workspace.run_data, explorer.gui.common.state_order; "
            "import explorer.sim.states; "
            "bad = [m for m in sys.modules if m.split('.')[0] in ('PySide6', 'numba') or m == 'explorer.sim.engine']; "
            "print(bad)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert out.stdout.strip() == "[]"


# -- the SMs a long run did not keep, filled in (issue 14 item 10) -------------------------------------
def small_run_with_missing_sms(kept: int = 3) -> SimRun:
    """A short run whose trace holds only the first ``kept`` SMs, as a long run's does."""
    scenario = load_preset("example-240x256").with_values(**{"workload.loop": 2})
    return SimRun.from_result(simulate(scenario, record_sms=range(kept)))


def test_fill_plan_stays_within_the_trace_budget():
    run = small_run_with_missing_sms()
    missing = run.missing_sms()
    assert missing == list(range(3, 132))
    per_sm = run.cycles * run.warps_per_sm
    for budget in (10 ** 9, 64 * per_sm, 8 * per_sm, per_sm):
        plan = fill_plan(run, budget)
        assert plan.sms == tuple(missing)
        assert [sm for batch in plan.batches for sm in batch] == missing
        sampled = len(missing) * run.warps_per_sm * -(-run.cycles // plan.stride)
        assert sampled <= FILL_SHARE * budget or plan.stride >= run.cycles  # all samples together: their share
        assert all(len(b) * per_sm <= max(BATCH_SHARE * budget, per_sm) for b in plan.batches)  # one re-run's trace
    assert fill_plan(run, 10 ** 9).stride == 1  # room for every cycle
    assert fill_plan(SimRun.from_result(simulate(load_preset("example-240x256")))) is None  # nothing missing


def test_filled_in_states_are_the_full_runs_sampled():
    run = small_run_with_missing_sms()
    full = simulate(run.result.scenario)  # every SM kept: the reference
    assert run.cycles == full.cycles
    half = -(-run.cycles // 2)
    plan = fill_plan(run, 2 * half * run.warps_per_sm * 129)  # about the missing SMs' full trace, of which half
    assert plan.stride == 2  # holds every second cycle
    fill_in_with(run, plan)
    assert run.missing_sms() == [] and all(run.has_states(sm) for sm in range(132))
    for cycle in (0, 1, plan.stride + 1, run.cycles // 2, run.cycles - 1):
        shown = run.states_at(cycle)
        sampled_at = cycle - cycle % plan.stride
        assert np.array_equal(shown[:3], full.states_at(cycle)[:3])  # the kept SMs: every cycle
        assert np.array_equal(shown[3:], full.states_at(sampled_at)[3:])


def fill_in_with(run: SimRun, plan) -> None:
    for batch in plan.batches:
        for sm, samples in record_batch(run, batch, plan.stride).items():
            run.add_samples(sm, plan.stride, samples)


def test_a_headless_run_is_filled_in_at_once(monkeypatch):
    """``render`` and slides draw every SM: simulate_run fills in what the first pass did not keep."""
    import explorer.sim as sim
    from explorer.gui.workspace import run_data

    budget = 4 * 2 ** 20  # small: the first pass keeps a few SMs only
    real = sim.simulate

    def small_budget(scenario, **kw):
        return real(scenario, **({"trace_budget_bytes": budget} | kw))

    monkeypatch.setitem(sim.__dict__, "simulate", small_budget)
    monkeypatch.setattr(run_data, "trace_budget", lambda: budget)
    run = simulate_run(load_preset("example-240x256"))
    assert 0 < len(run.result.recorded_sms) < 132
    assert run.missing_sms() == []
    assert simulate_run(load_preset("example-240x256"), fill=False).missing_sms() != []
