"""The kernel form's texts and the ``[kernel]`` scenario they make, Qt-free.

The form is generated from the compiled kernel's signature (``UserKernel.params``): a
scalar parameter is one text (a number of its type, ``true``/``false`` for ``bool``, a
list for a vector such as ``float2``), a pointer is a buffer: its dtype fixed by the
pointee (``float*`` -> ``f32``; ``void*`` or a struct: any), a count and an initialiser.
Launch fields: grid, block and dynamic shared memory; registers, static shared memory
and barriers are the cubin's and never typed in.

Every text is judged by the core, never here: the launch and the ``[kernel]`` table by
``Scenario.from_dict`` (what a scenario file gets), the arguments against the signature
by ``arguments.bind`` (what ``execute`` does), so the form refuses exactly what the CLI
refuses, in the same words, every bad field at once (``common.field_check``).
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field

from explorer.gui.common.dims import format_dims, parse_dims
from explorer.gui.common.field_check import judge_fields
from explorer.model.kernel_spec import DTYPES, BufferArg
from explorer.model.scenario import KERNEL_LAUNCH_FIELDS, Scenario
from explorer.model.tomlio import parse_value

LAUNCH_KEYS = {"grid": "launch.grid", "block": "launch.block", "smem_dynamic": "launch.dynamic_shared_bytes"}
DEFAULT_COUNT = 1024  # elements of a new buffer: a launch of 4 blocks of 256 threads covers it
DEFAULT_LAUNCH = {"grid": "4", "block": "256", "smem_dynamic": "0"}
SMALL_INTS = ("i8", "u8", "b8")


@dataclass(frozen=True)
class ParamRow:
    """One parameter as the form shows it."""

    name: str
    type_text: str  # as the signature reads (``const float* __restrict__``)
    pointer: bool
    dtype: str | None  # the scalar's or the pointee's dtype; None: the user picks (void*, a struct)
    lanes: int  # a vector's lanes, or the pointee's (float4*: a count that is a multiple of 4)
    const: bool  # a pointer to const: an input buffer (a random fill is the better default)

    @property
    def dtypes(self) -> tuple[str, ...]:
        """The dtypes the form offers for a buffer (one when the signature fixes it)."""
        if not self.pointer:
            return ()
        if self.dtype is None:
            return tuple(DTYPES)
        if self.dtype == "i8" and "char" in self.type_text and "signed" not in self.type_text:
            return ("i8", "u8")  # plain char: its sign is the compiler's
        return (self.dtype,)


def param_rows(kernel) -> list[ParamRow]:
    return [ParamRow(name=p.name, type_text=p.type.text, pointer=p.type.pointer, dtype=p.type.dtype,
                     lanes=max(p.type.lanes, 1), const="const" in p.type.text.split("*")[0].split())
            for p in kernel.params]


def default_texts(rows: list[ParamRow], count: int = DEFAULT_COUNT) -> dict[str, str]:
    """Values every parameter accepts: buffers of ``count`` elements (inputs random, outputs zeros),
    integers named as lengths (``is_length``) = ``count``, other integers 1, floats 1.0, bools false, vectors of
    zeros."""
    texts: dict[str, str] = {}
    for r in rows:
        if r.pointer:
            texts[f"{r.name}.dtype"] = r.dtypes[0]
            texts[f"{r.name}.count"] = str(count * r.lanes)
            texts[f"{r.name}.init"] = "random" if r.const else "zeros"
        elif r.lanes > 1:
            texts[r.name] = ", ".join(["0"] * r.lanes)
        elif r.dtype == "b8":
            texts[r.name] = "false"
        elif r.dtype in ("f16", "bf16", "f32", "f64"):
            texts[r.name] = "1.0"
        elif r.dtype in SMALL_INTS:
            texts[r.name] = "1"
        elif is_length(r.name):
            texts[r.name] = str(count)
        else:
            texts[r.name] = "1"  # a stride, a step, a scale: 1 is the value every kernel accepts (issue 31 item 13)
    return texts


LENGTH_NAME = re.compile(r"(?i)^(n\d*|n_\w+|num\w*|nelem\w*|len|length|size|count|total|\w+_(n|len|length|size|count|elems?"
                         r"|elements))$")


def is_length(name: str) -> bool:
    """Whether an integer parameter's name says it is a length (``n``, ``N``, ``len``, ``num_items``,
    ``in_size``...): the form then gives it the buffers' element count."""
    return bool(LENGTH_NAME.match(name))


def texts_of_spec(rows: list[ParamRow], spec) -> dict[str, str]:
    """The texts for a scenario's ``[kernel.args]`` (parameters it does not give keep their defaults)."""
    texts = default_texts(rows)
    for r in rows:
        value = spec.arg(r.name)
        if value is None:
            continue
        if isinstance(value, BufferArg):
            texts[f"{r.name}.dtype"] = value.dtype
            texts[f"{r.name}.count"] = str(value.count)
            texts[f"{r.name}.init"] = value.init
        elif isinstance(value, tuple):
            texts[r.name] = ", ".join(_number_text(v) for v in value)
        else:
            texts[r.name] = _number_text(value)
    return texts


def _number_text(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value) if isinstance(value, float) else str(value)


def launch_texts(scenario: Scenario) -> dict[str, str]:
    la = scenario.launch
    return {"grid": format_dims(la.grid.to_list()), "block": format_dims(la.block.to_list()),
            "smem_dynamic": str(la.dynamic_shared_bytes)}


def _scalar(text: str, row: ParamRow, where: str):
    raw = text.strip()
    if row.lanes > 1 and not raw.startswith("["):
        raw = f"[{raw}]"
    return parse_value(raw, where) if raw else ""


def _buffer(texts: dict, row: ParamRow) -> dict:
    count = texts[f"{row.name}.count"].strip()
    return {"dtype": texts[f"{row.name}.dtype"], "count": count or "", "init": texts[f"{row.name}.init"]}


@dataclass(frozen=True)
class FormInput:
    """What the form holds besides its texts: the kernel it was generated for and the scenario's rest."""

    file: str  # the .cu file, absolute (saved relative to the scenario file: Scenario.save)
    name: str  # the kernel as list_kernels names it
    kernel: object  # the compiled UserKernel the rows came from
    gpu: str
    seed: int = 1
    scenario_name: str = ""
    base: dict = field(default_factory=dict)  # a loaded scenario's table: what the form does not show is kept


def _judge(form: FormInput, rows: list[ParamRow], texts: dict) -> Scenario:
    from explorer.sass.execute.arguments import bind

    base = copy.deepcopy(form.base)
    given = base.get("kernel", {}).get("args", {})
    args = {}
    for r in rows:
        where = f"kernel.args.{r.name}"
        if r.pointer:
            buf = _buffer(texts, r)
            count = buf["count"]
            buf["count"] = parse_value(count, f"{where}.count") if count else ""
            old = given.get(r.name) if isinstance(given.get(r.name), dict) else {}
            for key in ("seed", "low", "high"):  # a random fill's seed and range, as the file had them
                if key in old and (key == "seed" or buf["init"] == "random"):
                    buf[key] = old[key]
            args[r.name] = buf
        else:
            args[r.name] = _scalar(texts[r.name], r, where)
    for key in ("workload", "program"):
        base.pop(key, None)
    launch = {k: v for k, v in base.get("launch", {}).items() if k not in KERNEL_LAUNCH_FIELDS}
    launch.update({"grid": parse_dims(texts["grid"], "launch.grid"),
                   "block": parse_dims(texts["block"], "launch.block"),
                   "dynamic_shared_bytes": texts["smem_dynamic"].strip()})
    kernel = base.get("kernel", {})  # max_instructions and the like, as the file had them
    kernel.update({"file": form.file, "name": form.name, "args": args})
    data = base | {"gpu": form.gpu, "launch": launch, "kernel": kernel}
    data.setdefault("seed", form.seed)
    if form.scenario_name and not data.get("name"):
        data["name"] = form.scenario_name
    scenario = Scenario.from_dict(data)
    bind(form.kernel, scenario.kernel, scenario.seed)  # types, ranges, dtypes: the executor's own check
    return scenario


def key_of(rows: list[ParamRow]):
    """The form key an InputError's field belongs to (``kernel.args.x.count`` -> ``x.count``)."""
    names = {r.name: r for r in rows}

    def key(field: str) -> str | None:
        for key_, dotted in LAUNCH_KEYS.items():
            if field == dotted or field.startswith(dotted + "."):
                return key_
        if not field.startswith("kernel.args."):
            return None
        rest = field[len("kernel.args."):]
        name, _, sub = rest.partition(".")
        name = name.split("[")[0]
        row = names.get(name)
        if row is None:
            return None
        if row.pointer:
            return f"{name}.{sub}" if sub in ("count", "dtype", "init") else f"{name}.count"
        return name

    return key


def build(form: FormInput, rows: list[ParamRow], texts: dict[str, str]) -> tuple[Scenario | None, dict[str, str]]:
    """(the [kernel] scenario, {}) when every field is valid, else (None, {form key: the core's message}).

    A parameter whose type the executor cannot take (a struct by value) is an InputError
    that no text fixes: it goes up, for the page's one line."""
    good = DEFAULT_LAUNCH | default_texts(rows)
    scenario, errors = judge_fields(texts, good, lambda values: _judge(form, rows, values), key_of(rows))
    return (None, errors) if errors else (scenario, {})
