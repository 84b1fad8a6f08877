"""Every preset's program lists exactly the SASS cuobjdump prints for the same cubin, and its
per-warp instruction count equals a count made independently from cuobjdump's text."""

from __future__ import annotations

import re

import pytest

from explorer.model.presets import preset_names
from tests.gpu.support import sass as cuobjdump_sass
from tests.sass.conftest import compiled
from tests.sass.support import CHECK_GPUS, needs_cuobjdump, needs_sass

pytestmark = [needs_sass, needs_cuobjdump]

BRANCH_RE = re.compile(r"\bBRA(?:\.U)?\s+(?:(!?U?P\d),\s*)?0x([0-9a-f]+)\s*$")


def cuobjdump_listing(cubin: bytes, tmp_path, function: str = "we_kernel") -> list[tuple[int, str]]:
    """(pc, text) per instruction of cuobjdump -sass, up to the last EXIT."""
    path = tmp_path / "k.cubin"
    path.write_bytes(cubin)
    rows = []
    for line in cuobjdump_sass(path, function):
        pc, text = line.split(" ", 1)
        rows.append((int(pc, 16), " ".join(text.split())))
    last = max(i for i, (_, t) in enumerate(rows) if re.search(r"(^|\s)EXIT$", t))
    return rows[: last + 1]


def independent_count(rows: list[tuple[int, str]], trip: int) -> tuple[int, int, int]:
    """(instructions per warp, loop body length, instructions skipped) counted from cuobjdump's text.

    The loop is the one branch to a lower address; the only code a warp skips is the sink
    write behind the generated kernel's flag test (``ISETP.NE ... 0x5eed5eed``: flag is 0 at
    launch, so the branch that follows it is taken); an if-converted test (``@!P0`` stores)
    skips nothing: those instructions issue.
    """
    pcs = [pc for pc, _ in rows]
    backs = []
    for i, (pc, text) in enumerate(rows):
        m = BRANCH_RE.search(text)
        if m and int(m.group(2), 16) < pc:
            backs.append((i, pcs.index(int(m.group(2), 16))))
    assert len(backs) <= 1, backs
    body = backs[0][0] - backs[0][1] + 1 if backs else 0
    skipped = 0
    for i, (pc, text) in enumerate(rows):
        if text.startswith("ISETP.NE") and "0x5eed5eed" in text:
            for pc2, text2 in rows[i + 1:]:
                m = BRANCH_RE.search(text2)
                if m and int(m.group(2), 16) > pc2:
                    target = int(m.group(2), 16)
                    skipped = sum(1 for p, _ in rows if pc2 < p < target)
                    assert any("STG" in t for p, t in rows if pc2 < p < target)  # the sink store
                    break
                if "EXIT" in text2:
                    break
    straight = len(rows) - body - skipped
    return straight + trip * body, body, skipped


@pytest.mark.parametrize("gpu", CHECK_GPUS)
@pytest.mark.parametrize("preset", preset_names())
def test_program_lists_what_cuobjdump_prints(preset, gpu, tmp_path):
    program, cubin, _ = compiled(preset, gpu)
    import hashlib

    assert program.meta["cubin_sha256"] == hashlib.sha256(cubin).hexdigest()  # the cubin measure launches
    ours = [(row.pc, " ".join(row.text.split())) for row in program.listing]
    theirs = cuobjdump_listing(cubin, tmp_path)
    assert ours == theirs
    assert program.listing[-1].opcode == "EXIT"


@pytest.mark.parametrize("gpu", CHECK_GPUS)
@pytest.mark.parametrize("preset", preset_names())
def test_dynamic_count_equals_an_independent_count(preset, gpu, tmp_path):
    program, cubin, scenario = compiled(preset, gpu)
    rows = cuobjdump_listing(cubin, tmp_path)
    expected, body, skipped = independent_count(rows, scenario.workload.loop)
    assert program.dynamic_instructions_per_warp == expected
    assert program.loop_end - program.loop_start == body
    assert program.trip == scenario.workload.loop
    assert sum(1 for row in program.listing if row.segment == "skipped") == skipped
    # the arrays follow the contract
    program.check()
    n = program.length
    assert n == len(rows) - skipped
