"""The opcode table: complete for every opcode the presets compile to, consistent with the
compiler's own control bits, and refused when a figure lacks its source.

The control bits are ptxas's view of each instruction (JIA18 section 2.1): a variable-latency
instruction sets a write scoreboard barrier its consumers wait on; a fixed-latency one never
does, and ptxas stalls the issue of a dependent neighbour for exactly its latency. These are
read from cubins compiled here (every preset, plus tests/sass/probe.cu with conversions,
special functions, FP64, shuffles and atomics), for every family.
"""

from __future__ import annotations

import collections
from functools import cache
from pathlib import Path

import pytest

from explorer.model.presets import preset_names
from explorer.sass.listing import Instruction, parse_function
from explorer.sass.opcodes import OpcodeTableError, load_table, parse_table
from explorer.sass.semantics import register_use
from tests.sass.conftest import compiled
from tests.sass.support import ALL_FAMILY_GPUS, CHECK_GPUS, needs_sass

PROBE = Path(__file__).with_name("probe.cu")


def _program(preset, gpu):
    return compiled(preset, gpu)[0]


@needs_sass
@pytest.mark.parametrize("gpu", CHECK_GPUS)
@pytest.mark.parametrize("preset", preset_names())
def test_every_opcode_of_every_preset_is_in_the_table(preset, gpu):
    program = _program(preset, gpu)
    missing = sorted({row.opcode for row in program.listing if not row.known})
    assert not missing, f"{preset} on {gpu} ({program.arch}): not in resources/sass/opcodes.toml: {missing}"
    assert not any("not in the table" in n for n in program.notes)


@cache
def probe_instructions(gpu: str) -> tuple[str, list[Instruction]]:
    from explorer.toolchain.compiler import compile_source
    from explorer.model.catalog import get_gpu
    from explorer.sass.disasm import disassemble

    arch = get_gpu(gpu).arch.sm_arch
    result = compile_source(PROBE.read_text(), "probe", arch, filename="probe.cu")
    return arch, parse_function(disassemble(result.cubin), "probe").up_to_last_exit()


def family_instructions(gpu: str) -> tuple[str, list[Instruction]]:
    """Every instruction of every preset's kernel and of the probe, compiled for ``gpu``."""
    from explorer.sass.listing import parse_instruction

    arch, out = probe_instructions(gpu)
    out = list(out)
    for preset in preset_names():
        program = compiled(preset, gpu)[0]
        out += [_with_control(parse_instruction(row.pc, row.text), row.control) for row in program.listing]
    return arch, out


def _with_control(ins: Instruction, control: dict | None) -> Instruction:
    from dataclasses import replace

    from explorer.sass.listing import Control

    if control is None:
        return ins
    c = Control(stall=control["stall"], yield_=control["yield"], write_barrier=control["write_barrier"],
                read_barrier=control["read_barrier"], wait_mask=sum(1 << b for b in control["wait"]),
                reuse=control["reuse"])
    return replace(ins, control=c)


@needs_sass
@pytest.mark.parametrize("gpu", ALL_FAMILY_GPUS)
def test_probe_and_presets_use_only_known_opcodes(gpu):
    arch, instrs = family_instructions(gpu)
    table = load_table()
    missing = sorted({i.opcode for i in instrs if table.lookup(i.opcode, i.modifiers, arch) is None})
    assert not missing, f"{arch}: not in resources/sass/opcodes.toml: {missing}"


@needs_sass
@pytest.mark.parametrize("gpu", ALL_FAMILY_GPUS)
def test_scoreboard_kinds_agree_with_the_control_bits(gpu):
    arch, instrs = family_instructions(gpu)
    table = load_table()
    for ins in instrs:
        info = table.lookup(ins.opcode, ins.modifiers, arch)
        if info is None or ins.control is None:
            continue
        if info.scoreboard in ("fixed", "none"):
            assert ins.control.write_barrier is None, (
                f"{arch}: {ins.text} sets a write scoreboard barrier, but the table says {info.scoreboard}")


@needs_sass
def test_variable_latency_opcodes_set_a_barrier_somewhere():
    """Results of one unit return in order, so one barrier can cover several instructions:
    not every instance sets its own, but each variable-latency opcode does somewhere."""
    table = load_table()
    sets_barrier = collections.defaultdict(list)
    for gpu in ALL_FAMILY_GPUS:
        arch, instrs = family_instructions(gpu)
        for ins in instrs:
            info = table.lookup(ins.opcode, ins.modifiers, arch)
            if info and ins.control and info.scoreboard in ("short", "long"):
                sets_barrier[info.key].append(ins.control.write_barrier is not None)
    assert sets_barrier
    for key, flags in sets_barrier.items():
        assert any(flags), f"no {key} sets a write barrier on any family; the table says variable latency"


@needs_sass
# 9-14 s a family (compiling every preset and the probe): Hopper's in the main set, the others with the slow set
@pytest.mark.parametrize("gpu", [g if g == "H100" else pytest.param(g, marks=pytest.mark.slow(expect_s=40))
                                 for g in ALL_FAMILY_GPUS])
def test_fixed_latencies_agree_with_the_stall_counts(gpu):
    """A fixed-latency producer directly followed by a dependent ALU instruction: ptxas stalls
    it for the latency. The table's figure must lie in the observed range (the consumer's pipe
    can add a cycle) and within a cycle of the most common stall."""
    from explorer.model.catalog import get_gpu

    arch, instrs = family_instructions(gpu)
    table = load_table()
    spec = get_gpu(gpu)
    stalls = collections.defaultdict(list)
    for a, b in zip(instrs, instrs[1:]):
        ia = table.lookup(a.opcode, a.modifiers, arch)
        ib = table.lookup(b.opcode, b.modifiers, arch)
        if not (ia and ib and a.control and b.control) or ia.scoreboard != "fixed" or b.pc != a.pc + 16:
            continue
        if ib.scoreboard != "fixed" or b.guard or b.control.wait_mask or ib.op_class in ("branch", "sync"):
            continue
        ua = register_use(a, table.destination_rule(a.opcode), int(arch[3:]))
        ub = register_use(b, table.destination_rule(b.opcode), int(arch[3:]))
        if set(ua.dst) & set(ub.src) and not all(r.startswith(("P", "UP")) for r in ua.dst):
            stalls[ia.key].append(a.control.stall)
    assert stalls, "no dependent pairs found"
    for key, seen in stalls.items():
        info = table.lookup(key.split(".")[0], tuple(key.split(".")[1:]), arch)
        want = info.cycles(spec)
        mode = collections.Counter(seen).most_common(1)[0][0]
        assert min(seen) - 1 <= want <= max(seen) and abs(mode - want) <= 1, (arch, key, want, sorted(seen))


def _table_data():
    import tomllib

    from explorer.paths import resource

    return tomllib.loads(resource("sass", "opcodes.toml").read_text())


def test_the_shipped_table_loads_and_every_group_names_its_source():
    table = load_table()
    assert {"FFMA", "IMAD", "LDG", "HMMA", "EXIT", "BRA"} <= table.keys
    for info in table.entries.values():
        assert info.source.strip()
    assert table.family("sm_90") == "sm_90" and table.family("sm_87") == "sm_86" and table.family("sm_70") is None


@pytest.mark.parametrize("breakage", ["no source", "unknown class", "unknown unit", "twice", "bad family",
                                      "bad latency", "override without source"])
def test_the_loader_refuses_a_broken_table(breakage):
    data = _table_data()
    group = data["group"][0]
    if breakage == "no source":
        del group["source"]
    elif breakage == "unknown class":
        group["class"] = "quantum"
    elif breakage == "unknown unit":
        group["unit"] = "warp-drive"
    elif breakage == "twice":
        data["group"][1]["opcodes"].append(group["opcodes"][0])
    elif breakage == "bad family":
        group["by_family"] = {"sm_99": {"latency": 3, "source": "x"}}
    elif breakage == "bad latency":
        group["latency"] = "lat_warp"
    else:
        group["by_family"] = {"sm_90": {"latency": 3}}
    with pytest.raises(OpcodeTableError):
        parse_table(data)


def test_family_overrides_apply_only_to_their_family():
    table = load_table()
    assert table.lookup("DFMA", (), "sm_90").scoreboard == "fixed"
    assert table.lookup("DFMA", (), "sm_80").scoreboard == "short"
    assert table.lookup("IMAD", ("WIDE",), "sm_80").unit == "fma"
    assert table.lookup("IMAD", (), "sm_90").unit == "fmaheavy"
    assert table.lookup("HFMA2", ("MMA",), "sm_90").key == "HFMA2.MMA"
    assert table.lookup("HFMA2", (), "sm_90").key == "HFMA2"
    assert table.lookup("VIADD", (), "sm_80") is None  # Hopper and newer only
    assert table.lookup("NOTANOPCODE", (), "sm_90") is None
