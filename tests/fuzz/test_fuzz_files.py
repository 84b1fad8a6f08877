"""Fuzz: scenario, lesson, CSV and measurement files, and the loaders behind them (issue 12).

Loaders and validators may raise only :class:`InputError` (our one error type);
the commands that read the files keep the CLI contract of :mod:`tests.fuzz.harness`.
Files are drawn three ways: documents built from random values, the shipped
files with bytes flipped, cut or inserted, and raw bytes.
"""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from explorer.model.lessons import load_lesson_file, parse_lesson
from explorer.model.errors import InputError
from explorer.model.scenario import Scenario
from explorer.model.tomlio import dumps, load_toml, parse_value
from explorer.paths import resource
from tests.fuzz.harness import FAST, MEDIUM, check, run_main, workdir
from tests.fuzz.strategies import VALID_SETS, nasty_text, set_assignment, toml_value

SCENARIOS = sorted(resource("scenarios").glob("*.toml"))
LESSONS = sorted(resource("lessons").glob("*.toml"))
MEASUREMENT = Path(__file__).resolve().parents[1] / "data" / "measurement-v1-synthetic-example.npz"


def _only_input_errors(call, *args, **kwargs):
    try:
        return call(*args, **kwargs)
    except InputError:
        return None


@st.composite
def mutated(draw, data: bytes) -> bytes:
    """``data`` with a few bytes flipped, deleted, duplicated or inserted, or cut short."""
    out = bytearray(data)
    for _ in range(draw(st.integers(1, 4))):
        if not out:
            break
        i = draw(st.integers(0, len(out) - 1))
        kind = draw(st.sampled_from(["flip", "delete", "insert", "cut", "digit"]))
        if kind == "flip":
            out[i] = draw(st.integers(0, 255))
        elif kind == "delete":
            del out[i: i + draw(st.integers(1, 8))]
        elif kind == "insert":
            out[i:i] = draw(st.sampled_from([b"[", b"]", b"{", b'"', b"\n", b"\0", b"\xff", b"=", b"#", b"9" * 30,
                                             b"\xef\xbb\xbf", b"'''", b'"""', b"[[steps]]\n", b"-"]))
        elif kind == "cut":
            del out[i:]
        else:  # a digit run made longer: counts, grids and loops grow (capped below)
            out[i:i] = b"0"
    return bytes(out)


# -- the loaders and validators directly -----------------------------------------------------------

@FAST
@given(data=toml_value(max_leaves=20))
def test_scenario_from_any_value(data):
    _only_input_errors(Scenario.from_dict, data)
    if isinstance(data, dict):
        for section in ("launch", "workload", "scheduler"):
            _only_input_errors(Scenario.from_dict, {section: data})
        _only_input_errors(Scenario.from_dict, {"workload": {"preset": "compute", "body": [data]}})


@FAST
@given(key=st.one_of(st.sampled_from(list(VALID_SETS) + ["launch", "workload.body", "x.y.z"]), nasty_text(12)),
       value=toml_value())
def test_with_values_from_any_value(key, value):
    _only_input_errors(Scenario().with_values, **{key: value})


@FAST
@given(assignments=st.lists(set_assignment(), max_size=4))
def test_with_overrides_from_any_text(assignments):
    _only_input_errors(Scenario().with_overrides, assignments)


@FAST
@given(text=st.one_of(nasty_text(200), st.text(max_size=200)))
def test_parse_value_from_any_text(text):
    _only_input_errors(parse_value, text, "k")


@FAST
@given(data=toml_value(max_leaves=30), name=nasty_text(12))
def test_lesson_from_any_value(data, name):
    _only_input_errors(parse_lesson, data if isinstance(data, dict) else {"steps": [data]}, name)
    _only_input_errors(parse_lesson, {"title": {"en": "t", "ru": "t"}, "steps": [data]}, name)


# -- files on disk ---------------------------------------------------------------------------------

def _doc_text():
    """TOML text: a random document written by our emitter, or raw text."""
    documents = st.dictionaries(st.sampled_from(["name", "gpu", "seed", "launch", "workload", "scheduler", "x"]),
                                toml_value(), max_size=5)

    def emit(doc):
        try:
            return dumps(doc)
        except (TypeError, ValueError):  # our emitter writes what we write (no NaN, no None)
            return json.dumps(doc, default=str)

    return st.one_of(documents.map(emit), st.text(max_size=300))


@FAST
@given(data=st.one_of(_doc_text().map(lambda t: t.encode("utf-8", "surrogatepass")),
                      st.sampled_from(SCENARIOS).flatmap(lambda p: mutated(p.read_bytes())),
                      st.binary(max_size=300)))
def test_scenario_files(data):
    with workdir() as folder:
        path = folder / "s.toml"
        path.write_bytes(data)
        _only_input_errors(load_toml, path)
        _only_input_errors(Scenario.load, path)


@MEDIUM
@given(data=st.sampled_from(SCENARIOS).flatmap(lambda p: mutated(p.read_bytes())))
def test_simulate_mutated_scenario_files(data):
    with workdir() as folder:
        (folder / "s.toml").write_bytes(data)
        scenario = _only_input_errors(Scenario.load, folder / "s.toml")
        if scenario is not None and scenario.launch.launched_warps() * scenario.workload.instructions_per_warp > 5e6:
            return  # a valid but long run (a digit added to the grid): the memory budget's business
        check(run_main(["simulate", "s.toml", "--json"]), outputs=())


@FAST
@given(data=st.one_of(st.sampled_from(LESSONS).flatmap(lambda p: mutated(p.read_bytes())),
                      _doc_text().map(lambda t: t.encode("utf-8", "surrogatepass")), st.binary(max_size=200)),
       stem=st.sampled_from(["01-intro", "x", "99-", "٣٣-y", "-"]))
def test_lesson_files(data, stem):
    with workdir() as folder:
        path = folder / f"{stem}.toml"
        path.write_bytes(data)
        _only_input_errors(load_lesson_file, path)


# -- occupancy --batch: one output line per row, whatever the bytes ----------------------------

HEADERS = [b"gpu,threads,regs,smem_static,smem_dynamic,carveout", b"gpu,threads,regs,smem_static,smem_dynamic,carveout,"
           b"barriers", b"carveout,smem_dynamic,smem_static,regs,threads,gpu", b"\xef\xbb\xbfgpu,threads,regs,"
           b"smem_static,smem_dynamic,carveout"]
FIELDS = st.one_of(st.sampled_from([b"H100", b"A100", b"T4", b"256", b"32", b"0", b"-1", b"0x100", b"1024", b"",
                                    b" 7 ", b"\xff", b"\xc3", b"\"", b"\"a,b\"", b"\r", b"\0", b"1e3", "²".encode()]),
                   st.binary(max_size=6))
ROWS = st.one_of(st.lists(FIELDS, min_size=1, max_size=8).map(b",".join), st.binary(max_size=40),
                 st.sampled_from([b"", b"   ", b"H100,256,32,0,0,-1", b"H100,256,32,0,0,-1\r", b"\xef\xbb\xbf"]))


def _expected_row_numbers(data: bytes) -> list[int]:
    """Line numbers of the rows (an independent reading: split on \\n, blank lines are not rows)."""
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    numbers, header_seen = [], False
    for number, line in enumerate(lines, start=1):
        if number == 1 and line.startswith(b"\xef\xbb\xbf"):
            line = line[3:]
        try:
            blank = not line.decode("utf-8").strip()
        except UnicodeDecodeError:
            blank = False
        if blank:
            continue
        if not header_seen:
            header_seen = True
            continue
        numbers.append(number)
    return numbers


@MEDIUM
@given(header=st.sampled_from(HEADERS), rows=st.lists(ROWS, max_size=12), end=st.sampled_from([b"", b"\n", b"\r\n"]))
def test_batch_rows_are_never_lost(header, rows, end):
    data = b"\n".join([header] + rows) + end
    with workdir() as folder:
        (folder / "b.csv").write_bytes(data)
        from_file = run_main(["occupancy", "--batch", "b.csv", "--json"])
        from_stdin = run_main(["occupancy", "--batch", "-", "--json"], stdin=data)
    check(from_file)
    assert (from_file.code, from_file.out, from_file.err) == (from_stdin.code, from_stdin.out, from_stdin.err)
    expected = _expected_row_numbers(data)
    out = [json.loads(line) for line in from_file.out.splitlines()]
    assert len(out) == len(expected), (out, expected)
    for number, result in zip(expected, out):
        if "error" in result:
            assert result["error"].startswith(f"line {number}: "), (number, result)
        else:
            assert 0 <= result["occupancy"] <= 1


# -- measurement files (measure --from) --------------------------------------------------------

@st.composite
def measurement_files(draw) -> bytes:
    """The shipped example with members changed, dropped or added, or raw and mutated bytes."""
    kind = draw(st.sampled_from(["members", "mutated", "raw", "zip"]))
    if kind == "mutated":
        return draw(mutated(MEASUREMENT.read_bytes()))
    if kind == "raw":
        return draw(st.binary(max_size=200))
    if kind == "zip":
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as z:
            for name in draw(st.lists(st.sampled_from(["format.npy", "version.npy", "meta_json.npy", "x.npy",
                                                       "../evil.npy", "block.npy"]), max_size=4, unique=True)):
                z.writestr(name, draw(st.binary(max_size=64)))
        return buffer.getvalue()
    with np.load(MEASUREMENT, allow_pickle=False) as npz:
        members = {k: npz[k] for k in npz.files}
    meta = json.loads(str(members["meta_json"]))
    for _ in range(draw(st.integers(1, 3))):
        change = draw(st.sampled_from(["drop", "scalar", "shape", "dtype", "meta", "meta_key", "extra"]))
        key = draw(st.sampled_from(sorted(members)))
        if change == "drop":
            members.pop(key, None)
        elif change == "scalar":
            members[key] = np.array(draw(st.one_of(st.integers(-2**40, 2**40), st.floats(), st.text(max_size=8))))
        elif change == "shape":
            members[key] = np.zeros(draw(st.sampled_from([(0,), (3,), (2, 2), (1, 1, 1)])), dtype=np.int64)
        elif change == "dtype":
            try:
                members[key] = np.asarray(members.get(key, 0)).astype(draw(st.sampled_from(["f8", "U3", "u1", "b1"])))
            except ValueError:  # text that is no number: store it as bytes (UTF-8: it may not be ASCII)
                text = np.asarray(members.get(key, 0))
                members[key] = np.char.encode(text.astype("U"), "utf-8")
        elif change == "extra":
            members[draw(st.text(min_size=1, max_size=8).filter(str.isidentifier))] = np.zeros(4)
        else:
            target = draw(st.sampled_from(sorted(meta))) if change == "meta" and meta else draw(st.text(max_size=8))
            meta[target] = draw(toml_value(max_leaves=4))
            members["meta_json"] = np.array(json.dumps(meta, default=str, allow_nan=True))
    buffer = io.BytesIO()
    np.savez(buffer, **members)
    return buffer.getvalue()


@MEDIUM
@given(data=measurement_files(), flags=st.sampled_from([[], ["--json"], ["--compare"], ["--calibrate"]]))
def test_measurement_files(data, flags):
    """Every file ``measure --from`` opens is one line and exit 2 when it is bad (needs the gpu hardening)."""
    with workdir() as folder:
        (folder / "m.npz").write_bytes(data)
        check(run_main(["measure", "--from", "m.npz", *flags]), outputs=())
