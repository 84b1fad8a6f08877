"""One wording rule for how busy a unit is: the CLI, the metrics sentence and the Speed-of-Light panel agree.

The CLI said "the schedulers issue nearly every cycle" of a run whose schedulers issued
in 70% of their slots, while the window's sentence had its own 80% rule. Now one rule
(``explorer.sim.bottleneck.busy_words``, its share in ``sim_model.toml``) words them all;
the test reads the share from the TOML itself and runs the CLI as a user does.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from explorer.gui.common.widgets import whole_text
from explorer.gui.explore.sol_texts import busy_text
from explorer.model.presets import load_preset
from explorer.sim.bottleneck import busy_words
from tests.gui.support import RUN_TIMEOUT, wait_run

ROOT = Path(__file__).resolve().parents[3]
PHRASES = ("nearly every cycle", "in most cycles")


def saturated_share() -> float:
    with open(ROOT / "resources" / "sim_model.toml", "rb") as fh:
        return float(tomllib.load(fh)["bottleneck"]["saturated"])


def expected_phrase(share: float) -> str:
    return PHRASES[0] if share >= saturated_share() else PHRASES[1]


def test_the_rule_is_the_tomls_share():
    edge = saturated_share()
    assert 0.6 < edge < 1.0
    assert busy_words(edge) == busy_words(0.999) == "nearly every cycle"
    assert busy_words(edge - 1e-6) == busy_words(0.7) == busy_words(0.6) == "in most cycles"


def cli_bottleneck_line(*args: str) -> str:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-m", "explorer", "simulate", *args], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=300, check=True).stdout
    (line,) = [x for x in out.splitlines() if x.strip().startswith("bottleneck")]
    return line


@pytest.mark.parametrize("program,loop", [("sass", 2), ("model", 8)])
def test_the_cli_and_the_window_say_the_same_of_one_run(window, qtbot, program, loop):
    """compute-bound-fma: its SASS at loop 2 issues in ~82% of the slots ("in most cycles": the prologue
    and epilogue weigh on a short loop), the workload model's FMA loop in ~100% ("nearly every cycle");
    the CLI's sentence, the panel's and the metrics sentence agree."""
    page = window.explorer
    wait_run(qtbot, page)
    scenario = load_preset("compute-bound-fma").with_values(**{"program": program, "workload.loop": loop})
    page.workspace.change_scenario(scenario, "preset")
    qtbot.waitUntil(lambda: page.workspace.session.run is not None
                    and page.workspace.session.run.result.scenario == scenario
                    and not page.workspace.session.simulating, timeout=RUN_TIMEOUT)
    s = page.workspace.session.run.summary
    assert s["bottleneck"]["unit"] == "issue"
    share = s["issue_slot_utilization"]
    phrase = expected_phrase(share)
    other = PHRASES[1 - PHRASES.index(phrase)]
    assert phrase == (PHRASES[1] if program == "sass" else PHRASES[0])  # both sides of the rule are covered

    cli = cli_bottleneck_line("compute-bound-fma", "--set", f"program={program}", "--set", f"workload.loop={loop}")
    panel = whole_text(page.sol.why)
    sentence = whole_text(page.metrics.whole.point)
    for text in (cli, panel, sentence):
        assert phrase in text and other not in text, text
        assert f"{100 * share:.0f}%" in text, text
    assert busy_text(share) == phrase  # English: the window's words are the core's
    assert cli.split("issue: ", 1)[1] == panel.removeprefix("Whole run: ")  # word for word
