"""The numbers the simulator runs on, gathered in one place from the catalog.

``SimParams`` is derived, never typed in: latencies and lanes from
``resources/gpus.toml`` (per GPU and per architecture), queue sizes and the like
from ``resources/sim_model.toml``, residency from the occupancy rules. A
calibration from a real measurement may override the memory figures.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from explorer.model.catalog import GpuSpec
from explorer.model.errors import InputError
from explorer.model.scenario import POLICIES, Scenario
from explorer.model.sim_model import model_constants
from explorer.occupancy import occupancy_that_fits
from explorer.model.units import tensor_flops_per_clock_per_sm, unit_facts

MMA_FLOPS = 2 * 16 * 8 * 16  # one m16n8k16 MMA instruction (per warp)


@dataclass(frozen=True)
class SimParams:
    sm_count: int
    warps_per_sm: int  # warp slots
    sub_partitions: int
    active_blocks_per_sm: int  # theoretical occupancy (what NVIDIA's calculator says)
    # what the dispatcher checks (sim_model.toml [dispatch]): blocks an SM holds by its block-granular resources
    # (block slots, shared memory, barriers: back when a block's last warp leaves), and warps a sub-partition
    # holds by its warp-granular ones (warp slots, registers: back as each warp leaves)
    block_capacity: int
    warp_capacity_per_sp: int
    warp_launch_cycles: int  # cycles between the starts of a block's consecutive warps
    warps_per_block: int
    total_blocks: int
    # fixed latencies (cycles)
    lat_fma: int
    lat_sfu: int
    lat_mma: int
    lat_shared: int
    lat_l1: int
    lat_l2: int
    lat_dram: int
    # pipe issue intervals per sub-partition (cycles a warp-instruction holds the pipe;
    # fractional where lanes or FLOP rates do not divide evenly)
    fma_interval: float
    int_interval: float
    sfu_interval: float
    mma_interval: float
    lsu_interval: float
    # memory system
    l1_bytes_per_cycle: int
    l1_queue_cycles: int
    shared_bytes_per_cycle: int
    shared_queue_cycles: int
    dram_bytes_per_cycle: float  # the datasheet bandwidth, per cycle of clock_mhz
    l2_bytes_per_cycle: float  # GPU-wide L2 bandwidth to the SMs
    # device memory as row bursts (sim_model.toml [dram]): channels, banks of a channel, the row cycle, the
    # sustained share of the datasheet bandwidth for reads and writes, the largest burst one request opens
    dram_channels: int
    dram_banks_per_channel: int
    dram_row_cycles: float
    dram_read_efficiency: float
    dram_write_efficiency: float
    dram_burst_bytes: int
    dram_writeback_burst_bytes: int  # L2's evicted dirty bytes per row the write drain opens (sim_model.toml [dram])
    # the caches (sim_model.toml [caches]): sets x ways of 128-byte lines; L1 per SM, L2 for the GPU
    l1_sets: int
    l1_ways: int
    l2_sets: int
    l2_ways: int
    l1_allocates_loads: int  # 1: a global load that misses L1 allocates a line there (sim_model.toml [caches])
    l1_hit_rate: float
    l2_hit_rate: float
    # dispatch and barriers
    block_launch_latency: int
    barrier_latency: int
    # scheduler
    policy: int
    active_warps: int
    seed: int
    clock_mhz: float  # the clock the kernel runs at: boost, or the Tensor clock for a kernel using Tensor Cores
    # the workload's tma pipeline (explorer.model.workload): stages, and the warps before the consumers
    stages: int = 1
    producer_warps: int = 0
    # global stores are posted (sim_model.toml [stores]): 1, a warp's exit waits only until its stores
    # have left L1TEX; 0, until they complete (the model before 2026-12-01; kept to show the difference)
    posted_stores: int = 1
    # L2's capacity: the dirty lines a kernel may leave for device memory to write after it ended
    # (sim_model.toml [stores]); 0, the kernel waits until its stores' lines left their banks
    l2_bytes: int = 0
    # dirty bytes L2 holds when the kernel starts: 0 (a clean L2) unless the run is compared with a measurement
    # whose launch followed an L2 flush by writing (gpu.worker: the flush's lines stay dirty in L2, and the
    # kernel's first allocations write them back)
    l2_dirty_bytes: int = 0

    def with_memory(self, **changes) -> "SimParams":
        """A copy with calibrated memory figures (lat_dram, dram_bytes_per_cycle, ...)."""
        return replace(self, **changes)

    @property
    def dram_read_bytes_per_cycle(self) -> float:
        """The sustained read bandwidth GPU-wide (every channel's bus busy with reads)."""
        return self.dram_bytes_per_cycle * self.dram_read_efficiency

    @property
    def dram_write_bytes_per_cycle(self) -> float:
        return self.dram_bytes_per_cycle * self.dram_write_efficiency

    @property
    def dram_queues(self) -> int:
        """Entries of the loop's ``dram_q``: one bus per channel, then every bank (kernel._dram_burst)."""
        return self.dram_channels * (1 + self.dram_banks_per_channel)

    @property
    def pipe_intervals(self) -> tuple[float, ...]:
        """Per pipe of a sub-partition, in explorer.model.units order (FP32, INT, SFU, TENSOR, LSU)."""
        return (self.fma_interval, self.int_interval, self.sfu_interval, self.mma_interval, self.lsu_interval)


def _cache_geometry(gpu: GpuSpec, occ, caches: dict, facts) -> dict:
    """Sets and ways of L1 (the unified L1/shared less the launch's shared-memory configuration) and L2."""
    l1_bytes = max(0, int(facts.l1_shared_bytes_per_sm.value) - int(occ.shared_per_sm_config))
    l1_ways, l2_ways = int(caches["l1_ways"]), int(caches["l2_ways"])
    return {"l1_sets": max(1, l1_bytes // (128 * l1_ways)), "l1_ways": l1_ways,
            "l1_allocates_loads": int(bool(caches["l1_allocates_loads"])),
            "l2_sets": max(1, gpu.l2_bytes // (128 * l2_ways)), "l2_ways": l2_ways}


def _block_capacity(occ) -> int:
    """Blocks an SM holds by the resources a block keeps until its last warp leaves (block slots, shared
    memory, named barriers); never below theoretical occupancy."""
    caps = [v for k, v in occ.block_limits.items() if k in ("blocks", "shared_memory", "barriers") and v is not None]
    return max(min(caps) if caps else occ.active_blocks_per_sm, occ.active_blocks_per_sm)


def _warp_capacity_per_sp(gpu: GpuSpec, occ) -> int:
    """Warps one sub-partition holds by its warp slots and its share of the register file (registers are
    allocated per warp, per sub-partition: cuda_occupancy.h); enough for a block's share in any case."""
    arch = gpu.arch
    per_sp = arch.max_warps_per_sm // arch.sub_partitions
    regs = occ.allocated_registers_per_warp
    if regs > 0:
        per_sp = min(per_sp, (arch.registers_per_sm // arch.sub_partitions) // regs)
    return max(per_sp, -(-occ.warps_per_block // arch.sub_partitions))


def params_for(scenario: Scenario, *, uses_tensor_cores: bool | None = None) -> SimParams:
    """SimParams for a scenario; a launch that fits no block is an InputError naming the limiter.

    A kernel that uses Tensor Cores (its workload has an ``mma`` or ``wgmma``, or ``uses_tensor_cores``)
    runs at the clock NVIDIA states the Tensor peak at (gpu_throughput.toml
    tensor_clock_mhz: 1830 MHz on H100, not the 1980 MHz boost); others at the boost
    clock. Cycles convert to time, and bandwidths to bytes per cycle, at that clock.
    """
    gpu: GpuSpec = scenario.gpu
    arch = gpu.arch
    launch = scenario.launch
    occ = occupancy_that_fits(gpu, launch)
    consts = model_constants()
    limit = consts["trace"]["max_blocks"]
    if launch.total_blocks > limit:
        raise InputError("launch.grid", f"{launch.total_blocks} blocks is above the simulator's limit of {limit}")
    facts = unit_facts(gpu)
    wl = scenario.workload
    if uses_tensor_cores is None:
        uses_tensor_cores = any(op.op in ("mma", "wgmma") for op in wl.body)
    clock = facts.tensor_clock_mhz.value if uses_tensor_cores else float(gpu.boost_clock_mhz)
    warp = arch.warp_size
    dram = consts["dram"]
    return SimParams(
        sm_count=gpu.sm_count,
        warps_per_sm=arch.max_warps_per_sm,
        sub_partitions=arch.sub_partitions,
        active_blocks_per_sm=occ.active_blocks_per_sm,
        block_capacity=_block_capacity(occ),
        warp_capacity_per_sp=_warp_capacity_per_sp(gpu, occ),
        warp_launch_cycles=int(consts["dispatch"]["warp_launch_cycles"]),
        warps_per_block=occ.warps_per_block,
        total_blocks=launch.total_blocks,
        lat_fma=gpu.lat_fma,
        lat_sfu=gpu.lat_sfu,
        lat_mma=gpu.lat_mma,
        lat_shared=gpu.lat_shared,
        lat_l1=gpu.lat_l1,
        lat_l2=gpu.lat_l2,
        lat_dram=gpu.lat_dram,
        fma_interval=warp / arch.fp32_lanes_per_sub_partition,
        int_interval=warp / facts.int32_lanes.value,
        sfu_interval=warp / arch.sfu_lanes_per_sub_partition,
        mma_interval=MMA_FLOPS / (tensor_flops_per_clock_per_sm(gpu) / arch.sub_partitions),
        lsu_interval=warp / facts.lsu_lanes.value,
        l1_bytes_per_cycle=consts["l1tex"]["bytes_per_cycle"],
        l1_queue_cycles=consts["l1tex"]["queue_cycles"],
        shared_bytes_per_cycle=consts["shared"]["bytes_per_cycle"],
        shared_queue_cycles=consts["shared"]["queue_cycles"],
        dram_bytes_per_cycle=gpu.memory_bandwidth_gbs * 1e9 / (clock * 1e6),
        l2_bytes_per_cycle=facts.l2_bytes_per_clock.value,
        dram_channels=gpu.dram_channels,
        dram_banks_per_channel=int(dram["banks_per_channel"]),
        dram_row_cycles=dram["row_cycle_ns"] * clock / 1000.0,
        dram_read_efficiency=gpu.dram_read_efficiency,
        dram_write_efficiency=gpu.dram_write_efficiency,
        dram_burst_bytes=int(dram["burst_bytes"]),
        dram_writeback_burst_bytes=int(dram["writeback_burst_bytes"]),
        **_cache_geometry(gpu, occ, consts["caches"], facts),
        l1_hit_rate=(scenario.kernel or wl).l1_hit_rate,  # a [kernel] scenario gives them in [kernel]
        l2_hit_rate=(scenario.kernel or wl).l2_hit_rate,
        block_launch_latency=consts["dispatch"]["block_launch_latency"],
        barrier_latency=consts["barrier"]["release_latency"],
        policy=POLICIES.index(scenario.scheduler.policy),
        active_warps=scenario.scheduler.active_warps,
        seed=scenario.seed,
        clock_mhz=clock,
        stages=wl.stages,
        producer_warps=wl.producer_warps,
        posted_stores=int(bool(consts["stores"]["posted"])),
        l2_bytes=gpu.l2_bytes,
    )
