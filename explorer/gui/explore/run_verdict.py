"""What the whole-run sentence says, decided in one place from the run's summary (Qt-free).

The metrics panel puts NVML's "GPU utilization" beside the issue slots used, and a
sentence under them names what was actually idle and what was busy, so it never
says "100% utilized, yet 0% of its issue slots did nothing" (a kernel that keeps its
schedulers busy) nor calls a Tensor Core loop idle because its MMAs take few issue
slots. Until the simulator reports a bottleneck of its own (a ``bottleneck`` /
``throughput`` summary), the verdict is read from what the summary already has:
issue-slot use, the warp-state cycles, DRAM bandwidth against the GPU's peak, and
the share of the warp-instructions that are Tensor Core MMAs. :func:`run_verdict`
is the one function to switch when that summary arrives; the panel only words
the verdict.
"""

from __future__ import annotations

from dataclasses import dataclass

# From this share of MMA warp-instructions on, issue slots stop measuring the work: one
# MMA instruction keeps the Tensor Core pipe busy for many cycles (an MMA-heavy loop).
MMA_HEAVY = 0.10
# Issue-slot use from which the schedulers themselves are the busy part (nearly every
# slot issues: the arithmetic is the limit, not waiting).
ISSUE_BUSY = 0.80
# DRAM throughput, as a share of the peak, from which memory is named as busy: Nsight
# Compute's speed-of-light rule of thumb (below ~60% of peak a unit is not the limit).
HBM_BUSY = 0.60
ISSUING = ("selected", "not_selected")  # warp states that are not waits


@dataclass(frozen=True)
class Verdict:
    """Which sentence the run gets (``kind``) and the figures it cites."""

    kind: str  # "tensor" (issue slots are the wrong measure), "issue" (schedulers busy), "hbm", "waiting"
    utilization: float  # NVML-style: share of the time a kernel ran
    issue_used: float  # issue slots used
    dram_gbs: float  # DRAM bandwidth the run moved
    peak_gbs: float  # the GPU's peak memory bandwidth
    mma_share: float  # of the warp-instructions
    mma_cycles: float  # cycles one MMA occupies its sub-partition's Tensor Core pipe (fractional: the Tensor clock)
    stall: str  # the warp state (Nsight name) with the most warp-cycles among the waits; "" if none
    stall_share: float  # its share of all warp-cycles

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
    """The verdict for a run's ``summary`` (the ``simulate --json`` dict) on a GPU of ``peak_gbs``.

    ``mma_share``: the share of warp-instructions that are MMAs; ``mma_cycles``: the
    cycles one keeps a Tensor Core pipe busy (the simulator's ``mma_interval``).
    """
    issue = float(summary["issue_slot_utilization"])
    dram = float(summary.get("dram_bandwidth_gbs", 0.0))
    stall, share = top_stall(summary.get("warp_state_cycles", {}))
    if mma_share >= MMA_HEAVY:
        kind = "tensor"
    elif issue >= ISSUE_BUSY:
        kind = "issue"
    elif dram_fraction(dram, peak_gbs) >= HBM_BUSY:
        kind = "hbm"
    else:
        kind = "waiting"
    return Verdict(kind, float(summary["kernel_active_fraction"]), issue, dram, float(peak_gbs), float(mma_share),
                   float(mma_cycles), stall, share)
