"""Running a suite case through the executor and comparing with numpy (shared by the tests)."""

from __future__ import annotations

from functools import cache

import numpy as np

from explorer.model.kernel_spec import parse_kernel
from explorer.model.scenario import parse_launch


@cache
def built(path: str, name: str, arch: str):
    from explorer.sass.execute.kernel import build_kernel

    return build_kernel(path, name, arch)


def run_case(case, arch: str, **kw):
    """(ExecutionResult, inputs: buffers before + scalars) of a case on ``arch``."""
    from explorer.sass.execute.session import execute

    kernel = built(str(case.path), case.name, arch)
    spec = parse_kernel({"file": str(case.path), "name": case.name, "args": case.args})
    launch = parse_launch({"grid": list(case.grid), "block": list(case.block),
                           "dynamic_shared_bytes": case.dynamic_shared})
    result = execute(kernel, launch, spec, keep_inputs=True, **kw)
    inputs = dict(result.inputs)
    for k, v in case.args.items():
        if not isinstance(v, dict):
            inputs[k] = v
    return result, inputs


def mismatch(case, result, inputs) -> str:
    """'' when every expected buffer matches, else what differs first."""
    expected = case.expect(inputs)
    for name, want in expected.items():
        got = result.outputs[name]
        want = np.asarray(want)
        if got.shape != want.shape:
            return f"{name}: shape {got.shape} != {want.shape}"
        if case.tol and got.dtype.kind == "f":
            ok = np.isclose(got.astype(np.float64), want.astype(np.float64), rtol=case.tol, atol=case.tol)
        else:
            ok = got == want
        if not np.all(ok):
            k = int(np.argmin(ok))
            return f"{name}[{k}] = {got[k]!r}, numpy says {want[k]!r} ({int((~ok).sum())} of {ok.size} differ)"
    return ""


# -- one instruction on one warp (the opcode unit tests) -------------------------------------------
FULL = 0xFFFFFFFF


class Warp:
    """One warp's registers for executing single decoded instructions through the interpreter."""

    def __init__(self):
        from explorer.sass.execute import records

        self.R = np.zeros((1, 256, 32), dtype=np.uint32)
        self.P = np.zeros((1, 8, 32), dtype=np.uint8)
        self.P[0, 7] = 1
        self.UR = np.zeros((1, 64), dtype=np.uint32)
        self.UP = np.zeros((1, 8), dtype=np.uint8)
        self.UP[0, 7] = 1
        self.sc = np.zeros((records.SC_ROWS, 32), dtype=np.int64)
        self.ctx = np.zeros(16, dtype=np.int64)
        self.ctx[3:6] = (32, 1, 1)
        self.wcount = np.zeros(1, dtype=np.int64)

    def set(self, reg: str, value) -> "Warp":
        """``R4`` = int or 32 per-lane ints; ``P0`` = bool(s); ``UR4``; ``UP0``; a float sets its FP32 bits."""
        v = np.asarray(value)
        if v.dtype.kind == "f":
            v = v.astype(np.float32).view(np.uint32)
        if v.dtype.kind == "b":
            v = v.astype(np.uint8)
        if reg.startswith("UR"):
            self.UR[0, int(reg[2:])] = np.uint32(int(v) & 0xFFFFFFFF)
        elif reg.startswith("UP"):
            self.UP[0, int(reg[2:])] = int(v)
        elif reg.startswith("P"):
            self.P[0, int(reg[1:])] = v
        else:
            self.R[0, int(reg[1:])] = (v.astype(np.int64) & 0xFFFFFFFF).astype(np.uint32)
        return self

    def set64(self, reg: str, value) -> "Warp":
        v = np.asarray(value)
        bits = v.astype(np.float64).view(np.uint64) if v.dtype.kind == "f" else v.astype(np.uint64)
        k = int(reg[1:])
        self.R[0, k] = (bits & 0xFFFFFFFF).astype(np.uint32)
        self.R[0, k + 1] = (bits >> 32).astype(np.uint32)
        return self

    def run(self, text: str, mask: int = FULL) -> "Warp":
        """Execute one instruction (its guard included) for the lanes in ``mask``."""
        from explorer.sass.execute import interp, isa
        from explorer.sass.execute.decode import decode, link
        from explorer.sass.execute.ops_warp import special_registers
        from explorer.sass.execute.records import Context, Regs
        from explorer.sass.listing import parse_instruction

        dec = decode([parse_instruction(0, text)])
        assert not dec.unsupported, dec.unsupported
        code = link(dec, {})
        g, neg = int(code[0, isa.C_GUARD]), int(code[0, isa.C_GNEG])
        E = 0
        for lane in range(32):
            if (mask >> lane) & 1:
                on = True if g in (7, 15) else bool(self.UP[0, g - 8] if g >= 8 else self.P[0, g, lane])
                if on != bool(neg):
                    E |= 1 << lane
        if code[0, isa.C_UNIF] and E and code[0, isa.C_OP] != isa.E_VOTE:
            E = E & -E
        regs = Regs(self.R, self.P, self.UR, self.UP)
        context = Context(self.ctx, special_registers(self.ctx, 1))
        rc = interp.alu(code, 0, int(code[0, isa.C_OP]), np.int64(E), 0, regs, context, int(self.wcount[0]), 0,
                        self.sc)
        assert rc == 0, f"{text}: error {rc}"
        return self

    def r(self, reg: str, lane: int | None = None):
        """A register's 32 lanes (uint32), or one lane's value."""
        a = self.R[0, int(reg[1:])] if not reg.startswith("UR") else np.full(32, self.UR[0, int(reg[2:])],
                                                                                dtype=np.uint32)
        return int(a[lane]) if lane is not None else a.copy()

    def f(self, reg: str, lane: int = 0) -> float:
        return float(np.uint32(self.r(reg, lane)).view(np.float32))

    def r64(self, reg: str, lane: int = 0) -> int:
        k = int(reg[1:])
        return int(self.R[0, k, lane]) | (int(self.R[0, k + 1, lane]) << 32)

    def f64(self, reg: str, lane: int = 0) -> float:
        return float(np.uint64(self.r64(reg, lane)).view(np.float64))

    def p(self, pred: str, lane: int | None = None):
        a = self.P[0, int(pred[1:])] if not pred.startswith("UP") else np.full(32, self.UP[0, int(pred[2:])])
        return bool(a[lane]) if lane is not None else a.astype(bool)


# -- hand-written SASS programs (control flow, barriers) --------------------------------------------
def sass_kernel(lines: list[str], params=(("out", "u32"),), name: str = "hand", frame: int = 0, shared: int = 0,
                arch: str = "sm_90", banks: dict | None = None, param_base: int = 0x210):
    """A UserKernel from SASS text lines ("LABEL:" lines name branch targets, written `(LABEL)).

    Parameters are pointers (their dtype given) at 8-byte steps from c[0x0][param_base] (sm_90's
    0x210 by default; sm_100's is 0x380); ``banks`` the constant banks other than 0.
    """
    from explorer.sass.execute.decode import decode
    from explorer.sass.execute.kernel import Parameter, UserKernel
    from explorer.sass.execute.signature import ParamType
    from explorer.sass.listing import parse_lines

    text, pc = [], 0
    for line in lines:
        if line.endswith(":"):
            text.append(line)
        else:
            text.append(f"        /*{pc:04x}*/                   {line} ;")
            pc += 16
    fn = parse_lines(text, name)
    params_ = tuple(Parameter(name=n, type=ParamType(text=f"{dt}*", pointer=True, dtype=dt, size=8),
                              offset=param_base + 8 * k, size=8) for k, (n, dt) in enumerate(params))
    return UserKernel(name=name, symbol=name, demangled=name, arch=arch, source_file="hand.sass", params=params_,
                      decoded=decode(fn.instructions), banks=dict(banks or {}), param_base=param_base, registers=32,
                      static_shared_bytes=shared, shared_section_bytes=shared, frame_bytes=frame, barriers=1,
                      compiler="hand-written")


def execute_kernel(kernel, args: dict, grid=(1, 1, 1), block=(32, 1, 1), **kw):
    from explorer.sass.execute.session import execute

    spec = parse_kernel({"file": "hand.cu", "name": kernel.name, "args": args})
    launch = parse_launch({"grid": list(grid), "block": list(block)})
    return execute(kernel, launch, spec, keep_inputs=True, **kw)


def collect_streams(kernel, args, grid=(1, 1, 1), block=(32, 1, 1), **kw):
    """(result, [ExecutedStream, ...]) with the streams recorded."""
    chunks = []
    result = execute_kernel(kernel, args, grid, block, on_chunk=chunks.append, **kw)
    return result, chunks
