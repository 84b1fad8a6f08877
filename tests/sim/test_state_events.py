"""The per-slot trace kept as state changes (``StateEvents``) and built on demand: the dense forms against a
hand-written case, against a plain replay of random events, and, on a real run, against each other and the
loop's own per-cycle state counts."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.model.presets import load_preset
from explorer.sim import simulate
from explorer.sim.result import StateEvents
from explorer.sim.states import EMPTY, NAMES

SELECTED, STALL = NAMES.index("selected"), NAMES.index("long_scoreboard")


def _events(rows, sms, W, cycles):
    t, cell, state = (np.array(c, dtype) for c, dtype in zip(zip(*rows), (np.int32, np.int32, np.uint8))) \
        if rows else (np.zeros(0, np.int32), np.zeros(0, np.int32), np.zeros(0, np.uint8))
    return StateEvents(t=t, cell=cell, state=state, warps_per_sm=W, sms=sms, cycles=cycles)


def test_a_hand_written_case():
    # 2 SMs x 2 slots, 5 cycles: cell 0 selected from 1, stalled from 3; cell 1 twice in cycle 0 (the later
    # holds); cell 2 never; cell 3 from cycle 4, and an event at cycle 5 (past the trace: not kept)
    ev = _events([(0, 1, STALL), (0, 1, SELECTED), (1, 0, SELECTED), (3, 0, STALL), (4, 3, SELECTED),
                  (5, 3, STALL)], sms=2, W=2, cycles=5)
    E, S, L = EMPTY, SELECTED, STALL
    want = np.array([[[E, S], [E, E]],
                     [[S, S], [E, E]],
                     [[S, S], [E, E]],
                     [[L, S], [E, E]],
                     [[L, S], [E, S]]], np.uint8)
    assert np.array_equal(ev.dense(), want)
    assert np.array_equal(ev.dense(1, 1), want[:, 1:2])
    for c in range(5):
        assert np.array_equal(ev.at(c), want[c])
        for cell in range(4):
            assert ev.slot_at(cell // 2, cell % 2, c) == want[c, cell // 2, cell % 2]


def test_no_events_is_every_slot_empty():
    ev = _events([], sms=3, W=4, cycles=7)
    assert ev.dense().shape == (7, 3, 4) and (ev.dense() == EMPTY).all()
    assert (ev.at(6) == EMPTY).all() and ev.slot_at(2, 3, 0) == EMPTY


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 3), st.integers(1, 4), st.integers(1, 12),
       st.lists(st.tuples(st.integers(0, 14), st.integers(0, 11), st.integers(0, len(NAMES) - 1)), max_size=40))
def test_the_dense_forms_replay_the_events(sms, W, cycles, raw):
    rows = sorted(((t, c % (sms * W), s) for t, c, s in raw), key=lambda e: e[0])  # the loop's cycle order
    ev = _events(rows, sms, W, cycles)
    want = np.full((cycles, sms * W), EMPTY, np.uint8)  # a plain replay, cycle by cycle
    for c in range(cycles):
        if c:
            want[c] = want[c - 1]
        for t, cell, s in rows:
            if t == c:
                want[c, cell] = s
    want = want.reshape(cycles, sms, W)
    assert np.array_equal(ev.dense(), want)
    for first in range(sms):
        assert np.array_equal(ev.dense(first, 1), want[:, first:first + 1])
    for c in range(cycles):
        assert np.array_equal(ev.at(c), want[c])


def test_a_run_keeps_changes_not_slot_cycles():
    """The mission example: every reader's view agrees with the dense trace, the trace with the loop's state
    counts, and the events are a small part of the slot-cycles they stand for."""
    r = simulate(load_preset("example-240x256"))
    ev = r.state_events
    assert len(r.recorded_sms) == r.params.sm_count and ev.cycles == r.cycles
    assert len(ev.t) < 0.05 * r.cycles * r.params.sm_count * r.params.warps_per_sm
    sm = 7
    one = r.sm_trace(sm)  # built alone, before the whole trace exists
    cycles = [0, 1, 500, r.cycles // 2, r.cycles - 1]
    at = [r.states_at(c).copy() for c in cycles]
    trace = r.trace
    assert np.array_equal(one, trace[:, sm])
    for c, states in zip(cycles, at):
        assert np.array_equal(states, trace[c])
    counts = np.stack([(trace == s).sum(axis=(1, 2)) for s in range(len(NAMES))], axis=1)
    assert np.array_equal(counts, r.state_counts)


def test_state_events_beyond_half_the_budget_halve_the_recorded_sms():
    """The dense trace the events stand for decides the SMs kept as before; the events alone are bounded too."""
    from explorer.sim.engine import _TraceSink

    W, chunk, budget = 64, 1024, 64 * 1024 * 8  # room for 8 SMs' dense trace over 1024 cycles
    sink = _TraceSink(np.arange(4), W, budget, chunk)
    sink.window(0)
    assert len(sink.recorded) == 4  # the dense form fits: 4 SMs kept
    n = budget // 2 // StateEvents.ENTRY_BYTES + 1  # just over half the budget, spread over the 4 SMs' cells
    cells = (np.arange(n) % (4 * W)).astype(np.int32)
    sink.add_states(np.zeros(n, np.int32), cells, np.full(n, SELECTED, np.uint8))
    sink.window(chunk)
    assert len(sink.recorded) == 2 and sink.state_bytes <= budget // 2
    assert (np.concatenate([c for _, c, _ in sink.states]) < 2 * W).all()  # the dropped SMs' events went
