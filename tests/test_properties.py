"""Property tests: random (even absurd) inputs raise nothing but our validation error."""

from hypothesis import given
from hypothesis import strategies as st

from explorer.model.catalog import load_catalog
from explorer.model.errors import InputError
from explorer.model.scenario import Scenario
from explorer.occupancy import theoretical_occupancy

GPUS = list(load_catalog().values())
anything = st.one_of(
    st.integers(min_value=-(2**40), max_value=2**40),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=8),
    st.none(),
    st.booleans(),
    st.lists(st.integers(-5, 5), max_size=4),
)


@given(
    gpu=st.sampled_from(GPUS),
    threads=st.one_of(st.integers(-10, 4096), anything),
    regs=st.one_of(st.integers(-5, 400), anything),
    smem_s=st.one_of(st.integers(-5, 300_000), anything),
    smem_d=st.one_of(st.integers(-5, 300_000), anything),
    carveout=st.one_of(st.integers(-3, 103), anything),
    barriers=st.one_of(st.integers(-1, 20), anything),
)
def test_occupancy_never_raises_anything_but_input_error(gpu, threads, regs, smem_s, smem_d, carveout, barriers):
    try:
        r = theoretical_occupancy(gpu, threads, regs, smem_s, smem_d, carveout, barriers)
    except InputError as exc:
        assert exc.field and exc.message
        return
    assert 0 <= r.active_blocks_per_sm <= gpu.arch.max_blocks_per_sm
    assert 0.0 <= r.occupancy <= 1.0
    assert r.active_warps_per_sm <= gpu.arch.max_warps_per_sm
    assert r.limiters, "a result always names what limits it"
    for name in r.limiters:
        assert r.block_limits[name] == r.active_blocks_per_sm


@given(
    grid=st.one_of(st.lists(st.integers(-3, 70000), min_size=0, max_size=4), anything),
    block=st.one_of(st.lists(st.integers(-3, 2000), min_size=0, max_size=4), anything),
    regs=anything,
    policy=st.one_of(st.sampled_from(["lrr", "gto", "oldest", "two_level"]), anything),
    loop=anything,
)
def test_scenario_validation_never_raises_anything_else(grid, block, regs, policy, loop):
    data = {
        "gpu": "H100",
        "launch": {"grid": grid, "block": block, "registers_per_thread": regs},
        "scheduler": {"policy": policy},
        "workload": {"preset": "stream", "loop": loop},
    }
    try:
        Scenario.from_dict(data)
    except InputError as exc:
        assert exc.field
