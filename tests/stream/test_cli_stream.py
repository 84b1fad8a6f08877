"""`simulate` with a [stream]: the JSON contract, --set, the text line, and exit 2 for bad values."""

import json

import pytest

from explorer.cli.main import main
from explorer.model.stream import overhead_figures
from tests.helpers import assert_one_line_error, run_cli

STREAM_KEYS = {"kernels", "kernel_us", "gap_us", "span_us", "nvml_utilization", "sm_active", "achieved_occupancy",
               "issue_slot_utilization", "nvml_window_note"}


def _json(*args):
    proc = run_cli("simulate", "example-240x256", "--json", *args)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_no_stream_is_one_kernel_at_100_percent_over_its_duration():
    s = _json()
    st = s["stream"]
    assert STREAM_KEYS <= set(st)
    assert st["kernels"] == 1 and st["span_us"] == pytest.approx(s["kernel_time_us"]) == st["kernel_us"]
    assert st["nvml_utilization"] == 1.0 == s["kernel_active_fraction"]
    assert st["sm_active"] == pytest.approx(s["sm_active_fraction"])
    assert "shorter than one NVML sample period" in st["nvml_window_note"]


def test_set_kernels_and_gap_reads_kernel_over_kernel_plus_gap():
    st = _json("--set", "stream.kernels=100", "--set", "stream.launch_gap_us=5.0")["stream"]
    k = st["kernel_us"]
    assert st["kernels"] == 100 and st["gap_us"] == 5.0
    assert st["span_us"] == pytest.approx(100 * k + 99 * 5.0)
    assert st["nvml_utilization"] == pytest.approx(100 * k / (100 * k + 99 * 5.0))
    # a kernel of a few us, 5 us apart: well under 100% (the hand-computed share above is the exact check)
    assert st["sm_active"] <= st["nvml_utilization"] < 0.75
    assert st["defaults"] == {"nvml_period_ms": overhead_figures("H100")[1]["nvml_period_ms"]}


def test_a_graph_closes_part_of_the_gap(tmp_path):
    scenario = tmp_path / "tiny-stream.toml"
    scenario.write_text('gpu = "H100"\n[launch]\ngrid = [240, 1, 1]\nblock = [256, 1, 1]\n'
                        '[workload]\npreset = "fma-global"\nloop = 2\n[stream]\nkernels = 1000\n')
    plain = json.loads(run_cli("simulate", str(scenario), "--json").stdout)["stream"]
    graph = json.loads(run_cli("simulate", str(scenario), "--json", "--set", "stream.graph=true").stdout)["stream"]
    figures, _ = overhead_figures("H100")
    assert (plain["gap_us"], graph["gap_us"]) == (figures["launch_gap_us"], figures["graph_gap_us"])
    assert graph["nvml_utilization"] > plain["nvml_utilization"] and graph["graph"] is True


def test_text_output_has_a_stream_line_only_for_a_stream(capsys):
    assert main(["simulate", "example-240x256", "--set", "workload.loop=2"]) == 0
    one = capsys.readouterr().out
    assert "'GPU utilization' (NVML) 100% of the time a kernel runs" in one and "  stream " not in one
    assert main(["simulate", "example-240x256", "--set", "workload.loop=2", "--set", "stream.kernels=100"]) == 0
    line = [x for x in capsys.readouterr().out.splitlines() if x.startswith("  stream ")]
    assert len(line) == 1 and "100 launches, 2.1 us apart" in line[0]
    assert "SM active" in line[0] and "occupancy" in line[0] and "issue slots" in line[0]


def test_bad_values_exit_2_with_one_line():
    assert_one_line_error(run_cli("simulate", "example-240x256", "--set", "stream.launch_gap_us=-1"),
                          contains="stream.launch_gap_us: -1 is below the minimum of 0 us")


@pytest.mark.parametrize(
    "setting,contains",
    [
        ("stream.kernels=0", "stream.kernels: 0 is below the minimum of 1"),
        ("stream.kernels=100000000000", "stream.kernels: 100000000000 is above the maximum of 1000000"),
        ("stream.nvml_period_ms=0", "stream.nvml_period_ms: 0 is below the minimum of 1 ms"),
        ("stream.sync_every=-3", "stream.sync_every: -3 is below the minimum of 0"),
        ("stream.graph=sometimes", "stream.graph: 'sometimes'; write true"),
    ],
)
def test_more_bad_values_exit_2(capsys, setting, contains):
    assert main(["simulate", "example-240x256", "--set", setting]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and contains in err[0] and "Traceback" not in err[0]
