"""What the whole-run sentence says, decided in one place from the run's summary (Qt-free).

The metrics panel puts NVML's "GPU utilization" beside the issue slots used, and a
sentence under them names what was actually idle and what was busy. It is worded
from the simulator's own bottleneck (the summary's ``bottleneck`` and ``throughput``,
``explorer.sim.bottleneck``: Nsight Compute's Speed-of-Light rule), so it never says
"100% utilized, yet 0% of its issue slots did nothing" of a kernel whose schedulers
or FP32 lanes are full, nor calls a Tensor Core loop idle because its MMAs take few
issue slots: the kind follows the bottleneck unit (compute pipes and issue slots,
the Tensor Cores, device memory, the other memory units, or latency: no unit near
its peak). :func:`run_verdict` decides; the panel only words the verdict.

A grid too small for the GPU is latency-bound over the whole GPU (SMs without a
block), yet on the SMs that have work the Tensor Cores may be full: a wgmma GEMM of
32 tiles on 132 SMs runs its Tensor Cores at 91% there and 22% GPU-wide. Its issue
slots are still the wrong measure, so the Tensor Core sentence is given by the
simulator's rule over the SMs' active cycles (``explorer.sim.bottleneck.where_active``),
with the GPU-wide share beside it.
"""

from __future__ import annotations

from dataclasses import dataclass

from explorer.sim.bottleneck import where_active

ISSUING = ("selected", "not_selected")  # warp states that are not waits
# the bottleneck unit -> the sentence's kind
KIND_OF_UNIT = {"issue": "issue", "fp32": "compute", "int": "compute", "sfu": "compute", "tensor": "tensor",
                "dram": "hbm", "l2": "memory", "l1": "memory", "shared": "memory", "lsu": "memory",
                "latency": "waiting"}


@dataclass(frozen=True)
class Verdict:
    """Which sentence the run gets (``kind``) and the figures it cites."""

    kind: str  # "issue", "compute", "tensor", "hbm", "memory" (a unit is the limit) or "waiting" (latency)
    unit: str  # the bottleneck unit (explorer.model.units names) or "latency"
    unit_share: float  # its share of its peak (latency: the busiest unit's)
    busiest: str  # the unit with the highest share of its peak (the bottleneck's when one is)
    utilization: float  # NVML-style: share of the time a kernel ran
    issue_used: float  # issue slots used
    dram_gbs: float  # DRAM bandwidth the run moved
    peak_gbs: float  # the GPU's peak memory bandwidth
    mma_share: float  # of the warp-instructions
    mma_cycles: float  # cycles one MMA occupies its sub-partition's Tensor Core pipe (fractional: the Tensor clock)
    stall: str  # the warp state (Nsight name) with the most warp-cycles among the waits; "" if none
    stall_share: float  # its share of all warp-cycles
    gpu_share: float = -1.0  # the unit's share over the whole GPU, where unit_share is the SMs' with work; else -1

    @property
    def on_busy_sms(self) -> bool:
        """The unit limits the SMs that have work, not the whole GPU (too few blocks for every SM)."""
        return self.gpu_share >= 0.0

    @property
    def issue_idle(self) -> float:
        return max(0.0, 1.0 - self.issue_used)

    @property
    def dram_fraction(self) -> float:
        return dram_fraction(self.dram_gbs, self.peak_gbs)


def dram_fraction(dram_gbs: float, peak_gbs: float) -> float:
    """DRAM bandwidth as a share of the peak (0 when the peak is unknown)."""
    return dram_gbs / peak_gbs if peak_gbs > 0 else 0.0


def top_stall(warp_state_cycles: dict) -> tuple[str, float]:
    """The wait with the most warp-cycles and its share of all of them (("", 0.0) when nothing waited)."""
    total = sum(warp_state_cycles.values())
    waits = {k: v for k, v in warp_state_cycles.items() if k not in ISSUING and v > 0}
    if not waits or total <= 0:
        return "", 0.0
    name = max(waits, key=lambda k: (waits[k], k))
    return name, waits[name] / total


def run_verdict(summary: dict, peak_gbs: float, mma_share: float, mma_cycles: float = 1.0) -> Verdict:
    """The verdict for a run's ``summary`` (the ``simulate --json`` dict, with its ``bottleneck`` and
    ``throughput``) on a GPU of ``peak_gbs``.

    ``mma_share``: the share of warp-instructions that are MMAs; ``mma_cycles``: the
    cycles one keeps a Tensor Core pipe busy (the simulator's ``mma_interval``).
    """
    issue = float(summary["issue_slot_utilization"])
    dram = float(summary.get("dram_bandwidth_gbs", 0.0))
    stall, share = top_stall(summary.get("warp_state_cycles", {}))
    bottleneck = summary["bottleneck"]
    through = summary["throughput"]
    unit = str(bottleneck["unit"])
    unit_share = float(bottleneck["pct_of_peak"]) / 100.0
    busiest = max(through, key=lambda u: float(through[u]["pct_of_peak"]))
    gpu_share = -1.0
    if unit == "latency":  # Tensor Cores full on the SMs that have work: still Tensor Core work (module text)
        active, active_share = where_active(through)
        if active == "tensor":
            unit, gpu_share, unit_share = active, float(through[active]["pct_of_peak"]) / 100.0, active_share
    return Verdict(KIND_OF_UNIT.get(unit, "memory"), unit, unit_share, busiest,
                   float(summary["kernel_active_fraction"]), issue, dram, float(peak_gbs), float(mma_share),
                   float(mma_cycles), stall, share, gpu_share)
