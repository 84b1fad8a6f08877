"""Hostile values: what a careless or malicious user types into a flag, a field or a file.

Valid values are mixed in (small ones: a fuzz run must not become a long
simulation), so hypothesis also reaches the code behind the validators.
"""

from __future__ import annotations

from hypothesis import strategies as st

from explorer.model.catalog import gpu_names

NASTY_TEXT = [
    "", " ", "\0", "a\0b", "\n", "x\ny", "\r", "\t", "\ufeff", "\u202e", "\udcff", "a\udcffb.toml", "-", "--", "-1", "0", "-0",
    "0x100", "0X1f", "0x", "-0x10", "0o17", "0b101", "1_000", "+5", " 7 ", "²", "١٢٨", "٣x٤", "1e3", "1e309", "nan",
    "inf", "-inf", "1.5", "9" * 5000, "[" * 700, "]" * 3, "{", "}", "'", '"', "\\", "${HOME}", "$(touch pwned)",
    "`touch pwned`", "; touch pwned", "../../evil", "/dev/zero", "/dev/null", "/proc/self/mem", "a" * 300,
    "[1,2,3]", "[[1]]", "{ a = 1 }", "true", "false", "[]", "[0,0,0]", "[1,1,1,1]", "2147483648", "65536", "-2",
    "😀", "ＨＩ００", "H100", "h100", "H 100", "rtx_5090",
]

SMALL_INTS = st.integers(min_value=-3, max_value=8)
HUGE_INTS = st.one_of(st.integers(min_value=2**31 - 3, max_value=2**31 + 3), st.integers(min_value=2**62, max_value=2**70),
                      st.integers(max_value=-(2**31)))


def mostly(common, rare, one_in: int = 4):
    """``rare`` in about one draw of ``one_in``, else ``common`` (``st.one_of`` would weigh its flattened branches)."""
    return st.integers(0, one_in - 1).flatmap(lambda i: rare if i == 0 else common)


def nasty_text(max_size: int = 30):
    return st.one_of(st.sampled_from(NASTY_TEXT), st.text(max_size=max_size))


def flag_value():
    """A value for a numeric or name flag: hostile text, an int in any spelling, or a small valid one."""
    return st.one_of(
        nasty_text(),
        SMALL_INTS.map(str),
        st.integers(min_value=1, max_value=1024).map(str),
        HUGE_INTS.map(str),
        st.integers(min_value=0, max_value=4096).map(hex),
        st.floats(allow_nan=True, allow_infinity=True).map(repr),
    )


def gpu_name():
    return st.one_of(st.sampled_from(gpu_names()), nasty_text())


def toml_scalar_text():
    """The right-hand side of ``--set key=VALUE``: TOML literals, bare words, garbage."""
    return st.one_of(
        nasty_text(),
        SMALL_INTS.map(str),
        HUGE_INTS.map(str),
        st.lists(SMALL_INTS, max_size=4).map(lambda v: "[" + ",".join(map(str, v)) + "]"),
        st.sampled_from(['"gto"', '"lrr"', '"stream"', '["stream"]', "{ preset = 'compute' }", "0.5", "1.5",
                         '[{ op = "ffma", count = 2 }]', '[{ op = "nope" }]', "[[1,1],[1]]", "1979-05-27",
                         '"""a"""', "'lit'", "[1,", "= 1"]),
    )


SET_KEYS = [
    "gpu", "seed", "name", "description", "launch.grid", "launch.block", "launch.registers_per_thread",
    "launch.static_shared_bytes", "launch.dynamic_shared_bytes", "launch.carveout", "launch.barriers",
    "workload.preset", "workload.loop", "workload.l1_hit_rate", "workload.l2_hit_rate", "workload.body",
    "scheduler.policy", "scheduler.active_warps", "launch", "workload", "launch.grid.x", "nope", "", " ",
    "program", "stream", "stream.kernels", "stream.graph", "stream.nope",
    "launch.", ".grid", "launch.nope", "a\0b",
    # keys into nested tables (issue 29): present, absent, unknown, through a value, into a list
    "workload.tiles", "workload.tiles.grid", "workload.tiles.a.base", "workload.tiles.a.nope", "workload.tiles.a.at",
    "kernel.args.x.count", "description.ru", "workload.body[0].count", "launch.grid.x.y", "workload . loop",
]


def set_assignment():
    key = st.one_of(st.sampled_from(SET_KEYS), nasty_text(12))
    return st.one_of(
        st.tuples(key, toml_scalar_text()).map(lambda kv: f"{kv[0]}={kv[1]}"),
        nasty_text(),  # no '=' at all, or a mess
    )


def toml_value(max_leaves: int = 12):
    """Any TOML-representable value, nested a little (what a scenario or lesson file may hold)."""
    scalars = st.one_of(
        st.booleans(), SMALL_INTS, HUGE_INTS, st.floats(allow_nan=True, allow_infinity=True),
        st.sampled_from(NASTY_TEXT), st.text(max_size=12),
    )
    return st.recursive(
        scalars,
        lambda children: st.one_of(st.lists(children, max_size=4),
                                   st.dictionaries(st.one_of(st.sampled_from(
                                       ["op", "count", "bytes", "stride", "ilp", "conflict_ways", "preset", "loop",
                                        "body", "grid", "block", "policy", "en", "ru", "narration", "set",
                                        "scenario", "view", "cycle", "highlight", "select_sm", "gemm"]),
                                       st.text(max_size=6)), children, max_size=4)),
        max_leaves=max_leaves,
    )


def with_faults(valid: dict, hostile, max_faults: int = 2, optional: tuple[str, ...] = ()):
    """Flags as ``[flag, value, ...]``: every flag valid, then up to ``max_faults`` of them hostile.

    One bad value among good ones reaches the checks behind the first validator;
    ``optional`` flags may also be left out. ``hostile`` is a strategy or a dict
    of per-flag strategies.
    """
    names = list(valid)

    @st.composite
    def build(draw):
        values = {name: draw(strategy) for name, strategy in valid.items()}
        for name in optional:
            if draw(st.booleans()):
                values.pop(name)
        faults = draw(st.sampled_from([0, 0] + list(range(1, max_faults + 1))))  # often none: the run goes deep
        bad = draw(st.lists(st.sampled_from(names), min_size=faults, max_size=faults, unique=True))
        for name in bad:
            values[name] = draw(hostile[name] if isinstance(hostile, dict) else hostile)
        return [x for name, value in values.items() for x in (name, value)]

    return build()


# Valid-but-small values for simulate's --set (a fuzz run must stay short).
VALID_SETS = {
    "gpu": st.sampled_from(gpu_names()),
    "seed": st.integers(min_value=0, max_value=2**63 - 1).map(str),
    "launch.grid": st.tuples(st.integers(1, 4), st.integers(1, 2)).map(lambda g: f"[{g[0]},{g[1]},1]"),
    "launch.block": st.sampled_from(["[32,1,1]", "[64,1,1]", "[96,1,1]", "[128,1,1]", "[16,4,1]", "33", "[1024,1,1]"]),
    "launch.registers_per_thread": st.integers(0, 300).map(str),
    "launch.static_shared_bytes": st.sampled_from(["0", "1024", "49152", "100000", "250000"]),
    "launch.dynamic_shared_bytes": st.sampled_from(["0", "4096", "50000", "240000"]),
    "launch.carveout": st.integers(-1, 100).map(str),
    "launch.barriers": st.integers(0, 16).map(str),
    "workload.preset": st.sampled_from(['"fma-global"', '"stream"', '"compute"', '"latency"', '"strided"',
                                        '"tiled-shared"', '"tensor-gemm"', '"sfu"']),
    "workload.loop": st.integers(1, 3).map(str),
    "workload.l2_hit_rate": st.floats(0, 1).map(repr),
    "scheduler.policy": st.sampled_from(['"gto"', '"lrr"', '"oldest"', '"two_level"']),
    "scheduler.active_warps": st.integers(1, 64).map(str),
    "name": st.text(max_size=20).map(lambda t: '"' + t.replace("\\", "\\\\").replace('"', '\\"') + '"'),
    "program": st.sampled_from(['"sass"', '"model"']),
    "stream.kernels": st.integers(1, 1_000_000).map(str),
    "stream.launch_gap_us": st.floats(0, 1e6).map(repr),
    "stream.graph": st.sampled_from(["true", "false"]),
    "stream.sync_every": st.integers(0, 100).map(str),
    "stream.nvml_period_ms": st.floats(1, 60000).map(repr),
}


# Values of launch.grid / workload.loop that are refused: the last word on the run's length is
# either small and valid or one of these (a valid 65535 x 65535 grid would be a very long run).
INVALID_GRID = ["0", "[0,1,1]", "-1", "[1,1,1,1]", '"x"', "[2147483648,1,1]", "[1,65536,1]", "[1.5,1,1]", "[]",
                "[[1],1,1]", "{ x = 1 }", "true"]
INVALID_LOOP = ["0", "-1", "1000001", "1.5", '"16"', "[16]", "nan", "inf"]


def set_flags(max_faults: int = 2):
    """``--set k=v`` pairs: valid values for some keys, up to ``max_faults`` hostile ones anywhere.

    The grid and the loop are set last, small or invalid, so no example becomes a long run.
    """

    @st.composite
    def build(draw):
        keys = draw(st.lists(st.sampled_from([k for k in VALID_SETS if k not in ("launch.grid", "workload.loop")]),
                             max_size=6, unique=True))
        pairs = [f"{k}={draw(VALID_SETS[k])}" for k in keys]
        for _ in range(draw(st.sampled_from([0, 0, 0] + list(range(1, max_faults + 1))))):  # often none
            pairs.insert(draw(st.integers(0, len(pairs))), draw(set_assignment()))
        for key, bad in (("launch.grid", INVALID_GRID), ("workload.loop", INVALID_LOOP)):
            refused = draw(st.integers(0, 5)) == 0
            pairs.append(f"{key}=" + draw(st.sampled_from(bad) if refused else VALID_SETS[key]))
        return [x for p in pairs for x in ("--set", p)]

    return build()
