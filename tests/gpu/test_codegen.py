"""The generated kernel runs the simulator's loop: the same ops, counts, order and dependencies."""

from __future__ import annotations

import re

import pytest

from explorer.toolchain.codegen import KERNEL_NAME, generate
from explorer.model.presets import load_preset, preset_names
from explorer.model.scenario import Scenario
from explorer.model.workload import PRESETS
from tests.gpu.support import needs_compiler, sass, sass_available

PTX_OF = {
    "ldg": r'"ld\.global', "stg": r'"st\.global', "lds": r'"ld\.volatile\.shared', "sts": r'"st\.volatile\.shared',
    "ffma": r'"fma\.rn\.f32', "mma": r'"mma\.sync', "sync": r'"bar\.sync 0;"',
}
SASS_OF = {"ldg": "LDG", "stg": "STG", "lds": "LDS", "sts": "STS", "ffma": "FFMA", "mma": "HMMA", "sync": "BAR",
           "sfu": "MUFU"}


def scenario_with(workload: dict, **launch) -> Scenario:
    data = {"name": "t", "gpu": "H100", "launch": {"grid": [4, 1, 1], "block": [128, 1, 1], **launch},
            "workload": workload}
    return Scenario.from_dict(data)


def loop_body(source: str) -> str:
    start = source.index("for (u32 it = 0;")
    depth, i = 0, source.index("{", start)
    for j in range(i, len(source)):
        depth += {"{": 1, "}": -1}.get(source[j], 0)
        if depth == 0:
            return source[i:j]
    raise AssertionError("unbalanced loop")


def expected_counts(workload) -> dict:
    counts: dict = {}
    for op in workload.body:
        counts[op.op] = counts.get(op.op, 0) + op.count
    return counts


ALL_WORKLOADS = sorted(PRESETS)


@pytest.mark.parametrize("preset", ALL_WORKLOADS)
def test_loop_holds_every_op_of_the_body_once(preset):
    sc = scenario_with({"preset": preset, "loop": 7})
    gen = generate(sc)
    body = loop_body(gen.source)
    assert "for (u32 it = 0; it < 7u; ++it)" in gen.source
    assert "#pragma unroll 1" in gen.source
    want = expected_counts(sc.workload)
    for op, pattern in PTX_OF.items():
        assert len(re.findall(pattern, body)) == want.get(op, 0), (preset, op)
    sfu = len(re.findall(r'"(?:ex2|rsqrt)\.approx', body))
    assert sfu == want.get("sfu", 0)
    # the body's steps appear in order
    steps = [int(s) for s in re.findall(r"// step (\d+):", body)]
    assert steps == list(range(len(sc.workload.body)))
    # every op is an asm volatile statement, so the front end keeps order and count
    assert "asm(" not in body


def test_dependencies_follow_the_simulator_rules():
    gen = generate(scenario_with({"preset": "fma-global"}))
    body = loop_body(gen.source)
    fmas = re.findall(r'"fma\.rn\.f32[^;]*;[^;]*: "\+f"\((\w+)\) : "f"\(([\w.\[\]]+)\), "f"\(([\w.\[\]]+)\)\);', body)
    assert len(fmas) == 8
    assert fmas[0][1:] == ("v0", "v0")  # the chain's first FMA consumes the load
    assert all(f[0] == "a1_0" for f in fmas)  # one loop-carried accumulator
    assert all(f[1:] == ("fm", "fc") for f in fmas[1:])  # the rest read only the accumulator
    store = re.search(r'"st\.global[^;]*;" :: "l"\(\w+\), "f"\((\w+)\)', body)
    assert store.group(1) == "a1_0"  # the store reads the chain's result
    # accumulators and loaded values live outside the loop (loop-carried, never dead)
    pre = gen.source[: gen.source.index("for (u32 it = 0;")]
    assert "float a1_0 =" in pre and "float v0 = 0.f;" in pre


def test_ilp_chains_each_read_the_previous_step():
    gen = generate(scenario_with({"preset": "stream"}))
    body = loop_body(gen.source)
    fmas = re.findall(r'"\+f"\((a\d+_\d)\) : "f"\(([\w.]+)\), "f"\(([\w.]+)\)', body)
    assert [f[0] for f in fmas] == ["a1_0", "a1_1", "a1_2", "a1_3"]
    for acc, a, b in fmas:  # two 16-byte loads: every chain waits for both
        assert {a.split(".")[0], b.split(".")[0]} == {"v0", "v1"}


def test_mma_chains_and_fragments():
    gen = generate(scenario_with({"preset": "tensor-gemm"}, static_shared_bytes=32768))
    body = loop_body(gen.source)
    mmas = re.findall(r'mma\.sync\.aligned\.m16n8k16[^;]*;" : "\+f"\((m\d+_\d)\[0\]\)[^:]*: (.*?)\);', body)
    assert len(mmas) == 8
    assert [m[0] for m in mmas] == [f"m4_{c}" for c in (0, 1, 2, 3, 0, 1, 2, 3)]
    assert all("v" in m[1] for m in mmas[:4])  # first of each chain reads the shared loads
    assert all("fa0" in m[1] and not re.search(r"\bv\d", m[1]) for m in mmas[4:])


def test_sm75_uses_the_m16n8k8_mma():
    sc = scenario_with({"preset": "tensor-gemm"}, static_shared_bytes=32768).with_values(gpu="T4")
    assert "m16n8k8" in generate(sc).source


@needs_compiler
def test_sm75_mma_compiles():
    """m16n8k8's B fragment is one register, still a vector operand in PTX ({%n}); NVRTC
    refused the bare %n ("Vector expected for argument 2")."""
    from explorer.toolchain.compiler import compile_source

    sc = scenario_with({"preset": "tensor-gemm", "loop": 2}, static_shared_bytes=32768).with_values(gpu="T4")
    result = compile_source(generate(sc).source, KERNEL_NAME, "sm_75", filename="t4-mma.cu")
    assert result.resources.registers > 0


def test_hit_rates_draw_per_warp_instruction():
    plain = generate(scenario_with({"preset": "fma-global"}))
    assert "we_rng" not in plain.source and plain.hot_bytes == 0
    gen = generate(scenario_with({"preset": "fma-global", "l1_hit_rate": 0.25, "l2_hit_rate": 0.5}))
    body = loop_body(gen.source)
    assert body.count("we_rng = we_rng * 1664525u + 1013904223u;") == 2  # one ldg + one stg
    assert f"we_rng < {round(0.25 * 2**32)}u" in body  # L1 hit (loads only)
    assert f"we_rng < {round(0.625 * 2**32)}u" in body  # L1 or L2 hit: 0.25 + 0.75 x 0.5
    assert gen.hot_bytes > gen.l2_region_bytes > 0
    assert gen.l2_region_bytes == 1 << 23  # a quarter of H100's 50 MB L2, as a power of two


def test_streaming_buffer_layout_and_wrap():
    sc = scenario_with({"preset": "stream"})
    gen = generate(sc)
    per_iter = 2 * (4 * 4 * 32 * 16) + 4 * 4 * 32 * 16  # 2 loads + 1 store of 16 B, 16 warps
    assert gen.footprint == per_iter * sc.workload.loop and gen.buffer_bytes == gen.footprint
    assert gen.wrap_iterations == sc.workload.loop
    small = generate(sc, stream_cap_bytes=3 * per_iter)
    assert small.wrap_iterations == 3 and small.buffer_bytes == 3 * per_iter
    assert "restart" in small.source and small.notes


def test_records_per_warp_or_per_block():
    sc = scenario_with({"preset": "fma-global"})
    warp = generate(sc)
    assert warp.per_warp and warp.records == 4 * 4 and "atomicMax" not in warp.source
    block = generate(sc, per_warp=False)
    assert not block.per_warp and block.records == 4 and "atomicMax(r + 0, ~t_start)" in block.source
    for text in ("%globaltimer", "%clock64", "%smid", "%nsmid", "%warpid"):
        assert text in warp.source


def test_shared_memory_is_sized_for_the_traffic():
    sc = scenario_with({"body": [{"op": "lds", "bytes": 4, "conflict_ways": 4}, {"op": "ffma"}]})
    gen = generate(sc)
    assert gen.static_shared_bytes == 4 * 4 * 128  # 4 warps x 4 rows of 128 B
    assert any("needs" in n for n in gen.notes)
    big = scenario_with({"preset": "fma-global"}, static_shared_bytes=65536)
    gen = generate(big)
    assert gen.static_shared_bytes == 48 * 1024 and gen.dynamic_shared_bytes == 16 * 1024
    assert "we_smem[tib %" in gen.source  # declared shared memory is kept even when unused


@needs_compiler
@pytest.mark.parametrize("preset", ALL_WORKLOADS)
def test_every_workload_compiles_and_sass_matches(preset, tmp_path):
    from explorer.toolchain.compiler import compile_source

    sc = scenario_with({"preset": preset, "loop": 5}, static_shared_bytes=4096)
    gen = generate(sc)
    result = compile_source(gen.source, KERNEL_NAME, "sm_90", filename=f"{preset}.cu")
    assert result.resources.registers > 0 and result.resources.spill_bytes == 0
    if not sass_available():
        pytest.skip("SASS check needs cuobjdump and nvdisasm (pip install nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm)")
    path = tmp_path / "k.cubin"
    path.write_bytes(result.cubin)
    lines = sass(path, KERNEL_NAME)
    addr = [int(x.split()[0], 16) for x in lines]
    # the loop: from the target of the backward branch to the branch
    for i, line in enumerate(lines):
        m = re.search(r"BRA (?:`\(\.L_x_\d+\)|0x([0-9a-f]+))", line)
        if m and m.group(1) and int(m.group(1), 16) < addr[i]:
            loop = [x for x, a in zip(lines, addr) if int(m.group(1), 16) <= a <= addr[i]]
            break
    else:
        raise AssertionError("no loop in the SASS")
    ops = [re.sub(r"^@!?U?P\w+\s+", "", x.split(None, 1)[1]).split()[0] for x in loop]
    want = expected_counts(sc.workload)
    for op, sass_op in SASS_OF.items():
        got = sum(1 for o in ops if o.split(".")[0] == sass_op)
        assert got == want.get(op, 0), (preset, op, got, ops)


@needs_compiler
@pytest.mark.parametrize("name", preset_names())
def test_every_scenario_preset_compiles_for_its_gpu(name):
    from explorer.toolchain.prepare import prepare

    prepared = prepare(load_preset(name))
    r = prepared.compiled.resources
    assert r.registers > 0
    if "maxrregcount" not in prepared.steering:  # squeezed kernels may spill a little (and say so)
        assert r.spill_bytes == 0
    elif r.spill_bytes:
        assert any("spills" in n for n in prepared.notes)
    assert prepared.steering["actual"] == r.registers
    assert prepared.occupancy_compiled["active_blocks_per_sm"] > 0
    if prepared.steering["requested"] < prepared.steering["natural"]:
        assert prepared.steering["maxrregcount"] >= 16 and r.registers <= prepared.steering["maxrregcount"]
