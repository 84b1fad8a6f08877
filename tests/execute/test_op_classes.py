"""The interpreter's opcode classes (explorer/sass/execute/interp.py ``OP_CLASS``): each operation the decoder
emits has the one part that executes it, and each ALU class's function handles exactly the operations its
module names (``OPS``), so that an operation added to a class's chain but not to its ``OPS`` (or the other way)
is found here rather than as an "unsupported" error on some kernel."""

from __future__ import annotations

import inspect
import re

import pytest

from explorer.sass.execute import interp, isa, ops_convert, ops_float, ops_half, ops_int, ops_pred, ops_warp

CLASSES = ((ops_int, "int_op", interp.CLS_INT), (ops_pred, "pred_op", interp.CLS_PRED),
           (ops_convert, "convert_op", interp.CLS_CONVERT), (ops_float, "float_op", interp.CLS_FLOAT),
           (ops_half, "half_op", interp.CLS_HALF), (ops_warp, "warp_op", interp.CLS_WARP))
OPERATIONS = {name: value for name, value in vars(isa).items() if name.startswith("E_") and isinstance(value, int)}


@pytest.mark.parametrize("module, function, cls", CLASSES, ids=[c[1] for c in CLASSES])
def test_a_class_handles_what_it_names(module, function, cls):
    fn = getattr(module, function)
    source = inspect.getsource(getattr(fn, "py_func", fn))
    handled = {OPERATIONS[name] for name in re.findall(r"\bop == (E_\w+)", source)}
    assert handled == set(module.OPS)
    assert all(interp.OP_CLASS[op] == cls for op in module.OPS)


def test_every_operation_has_its_part():
    named = [op for module, _, _ in CLASSES for op in module.OPS]
    assert len(named) == len(set(named))  # no operation in two classes
    for name, op in OPERATIONS.items():
        cls = interp.OP_CLASS[op]
        if op >= isa.FIRST_MEMORY_OP or op == isa.E_LDC:
            assert cls == interp.CLS_MEMORY, name
        elif op >= isa.E_BRA or op == isa.E_B2R:
            assert cls == interp.CLS_CONTROL, name
        elif op == isa.E_NOP:
            assert cls == interp.CLS_NOP
        elif op in (isa.E_UNSUPPORTED, isa.E_HSET2):  # no part executes them: an error when a lane does
            assert cls == interp.CLS_NONE, name
        else:
            assert interp.CLS_NOP < cls < interp.CLS_NONE, f"{name} has no ALU class"
