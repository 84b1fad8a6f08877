"""Helpers for the GUI tests of the real-GPU feature (measurements, overlay, Run on GPU)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[2]
FIXTURE = REPO / "tests" / "data" / "measurement-v1-synthetic-example.npz"


def wait_for_run(qtbot, window, timeout: int = 60_000):
    page = window.explorer
    qtbot.waitUntil(lambda: page.workspace.session.run is not None and not page.workspace.session.simulating
                    and page.workspace.session.run_is_current, timeout=timeout)
    return page.workspace.session.run


def open_file(qtbot, window, path, timeout: int = 30_000) -> bool:
    """``window.open_path(path)``, then wait until the measurement's worker has read it (or said why not)."""
    handled = window.open_path(path)
    gpu = window.feature("gpu")
    qtbot.waitUntil(lambda: not gpu.opening, timeout=timeout)
    return handled


def step_value(x: np.ndarray, y: np.ndarray, cycles) -> np.ndarray:
    """What a ``stepMode="center"`` curve (len(x) == len(y) + 1) shows at each cycle."""
    i = np.searchsorted(x, np.asarray(cycles, dtype=np.float64), side="right") - 1
    return y[np.clip(i, 0, len(y) - 1)]


def close_message(controller) -> None:
    if controller.message_box is not None:
        controller.message_box.close()


def synthetic_measurement(preset: str = "example-240x256", *, lat_scale: float = 1.0, clock_mhz: float | None = None,
                          registers: int | None = None, driver_blocks: int | None = None):
    """A Measurement made from a simulation (optionally of a slower memory), with a few fields changed."""
    from explorer.gpu.measurement import measurement_from_sim
    from explorer.model.presets import load_preset
    from explorer.sim import simulate
    from explorer.sim.params import params_for

    scenario = load_preset(preset)
    params = params_for(scenario)
    if lat_scale != 1.0:
        params = params.with_memory(lat_dram=round(params.lat_dram * lat_scale))
    m = measurement_from_sim(simulate(scenario, params=params), clock_mhz=clock_mhz, note="test fixture")
    if registers is not None:
        m.meta["kernel"]["registers"] = registers
    if driver_blocks is not None:
        m.meta["occupancy"]["driver_active_blocks_per_sm"] = driver_blocks
    return m
