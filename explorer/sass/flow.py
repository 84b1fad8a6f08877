"""Which SASS instructions a warp executes, how often, and which are instrumentation.

The path. A warp walks the function from its first instruction to the EXIT that ends
it. Each branch is decided from what is known at launch:

- a backward branch is the loop: its body (target to branch) runs ``trip`` times (the
  caller knows the trip count: for the generated kernels, ``workload.loop``);
- a forward branch, a guarded EXIT or a guarded instruction is decided by evaluating its
  predicate over what the kernel computes before it, with the kernel parameters whose
  launch values are known (``KernelFacts.known_words``: the generated kernel's ``flag`` is
  always 0, so its "write the sink" branch is always taken and the sink store never
  runs);
- a predicate that depends on the thread (``SR_TID``, ``SR_LANEID``) diverges: under SIMT
  the warp runs both sides of a forward branch, and a lane-dependent EXIT lets some lanes
  leave while the warp goes on (the generated kernel's ``lane != 0`` exit before the
  record write: the rest runs with one active lane);
- a predicate that is the same for the warp but unknown here (it depends on loaded data
  or on the block) is taken as false, and the program's notes say so.

The evaluation is an abstract interpretation over three values per register: a known
32-bit constant, warp-uniform, or thread-varying; the loop body is iterated until the
values stop changing, so a loop-carried value is never mistaken for a constant.

Instrumentation (dimmed in views): reads of clocks, the global timer and SM/warp ids;
stores whose address derives from the record pointer (``KernelFacts.record_words``); any
instruction whose register inputs are all instrumentation values; any instruction
without side effects whose results only instrumentation reads; and a lane-dependent EXIT
followed only by instrumentation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from explorer.sass.errors import ProgramError
from explorer.sass.listing import Instruction, is_predicate_operand, operand_registers
from explorer.sass.semantics import LOADS, STORES, RegisterUse

CONST_BANK_RE = re.compile(r"^c\[0x0\]\[(0x[0-9a-fA-F]+)\]$")
VARYING_SR = re.compile(r"^SR_(TID|LANEID|LTMASK|LEMASK|GTMASK|GEMASK|EQMASK)")
INSTRUMENT_SR = re.compile(r"^SR_(GLOBALTIMER|CLOCK|SMID|VIRTUALSMID|NSMID|VIRTID|WARPID|GRIDID)")
MOVES = frozenset({"MOV", "MOV32I", "UMOV"})
SIDE_EFFECTS = STORES | {"ATOM", "ATOMG", "ATOMS", "LDGSTS", "BAR", "BRA", "BRX", "JMP", "CALL", "RET", "EXIT",
                         "BSSY", "BSYNC", "WARPSYNC", "MEMBAR", "DEPBAR", "NANOSLEEP"}
UNIFORM, VARYING = "u", "v"


@dataclass(frozen=True)
class KernelFacts:
    """What is known about a kernel's launch: parameter words in constant bank 0."""

    known_words: dict = field(default_factory=dict)  # c[0x0] byte offset -> 32-bit value at every launch
    record_words: frozenset = frozenset()  # c[0x0] byte offsets of the instrumentation record pointer


@dataclass
class Flow:
    """The result: the executed path in three segments and per-instruction marks."""

    path: list[int]  # static indices in execution order (the loop body once)
    loop_start: int  # position in ``path`` of the body's first instruction
    loop_end: int  # position after the body's last instruction (== loop_start: no loop)
    loop_static: tuple[int, int] | None  # (first, last) static index of the body
    executed: list[bool]
    predicated_off: list[bool]  # executed, but its guard is false for every thread
    partial_exit: list[bool]  # a lane-dependent EXIT that the warp survives
    single_lane: list[bool]  # executes with one active lane (after the generated kernel's lane-0 exit)
    instrumentation: list[bool]
    guard_consumed: list[bool]  # writes a predicate that a later guard or BRA.U reads
    notes: list[str]


# -- abstract values ------------------------------------------------------------------------
def _join(a, b):
    if a == b:
        return a
    if a == VARYING or b == VARYING:
        return VARYING
    return UNIFORM


def _uniformish(v):
    return v if v in (UNIFORM, VARYING) else UNIFORM


def _immediate(text: str):
    t = text.strip()
    neg = t.startswith("-")
    body = t[1:] if neg else t
    if re.fullmatch(r"0x[0-9a-fA-F]+", body):
        v = int(body, 16)
    elif re.fullmatch(r"\d+", body):
        v = int(body)
    else:
        return None
    return ("c", (-v if neg else v) & 0xFFFFFFFF)


class _Eval:
    """Abstract values of registers at one point of the walk."""

    def __init__(self, facts: KernelFacts):
        self.facts = facts
        self.val: dict = {}

    def reg(self, name: str):
        if name in ("RZ", "URZ"):
            return ("c", 0)
        if name in ("PT", "UPT"):
            return ("c", 1)
        return self.val.get(name, UNIFORM)

    def operand(self, text: str):
        """Value of a source operand: a register, an immediate, a constant-bank word, an expression."""
        t = text.replace(".reuse", "")
        neg_pred = t.startswith("!")
        core = t.lstrip("!")
        if is_predicate_operand(core):
            v = self.reg(core)
            if neg_pred and isinstance(v, tuple):
                return ("c", 0 if v[1] else 1)
            return v
        m = CONST_BANK_RE.match(core)
        if m:
            off = int(m.group(1), 16)
            if off in self.facts.known_words:
                return ("c", self.facts.known_words[off] & 0xFFFFFFFF)
            return UNIFORM
        imm = _immediate(core)
        if imm:
            return imm
        if re.fullmatch(r"U?R(Z|\d+)", core):
            return self.reg(core)
        regs = re.findall(r"(?<![A-Za-z0-9_])(URZ|UR\d+|RZ|R\d+)(?![A-Za-z0-9_])", core)
        out = UNIFORM
        for r in regs:
            out = _join(out, _uniformish(self.reg(r)))
        return out

    def step(self, ins: Instruction, use: RegisterUse) -> None:
        op = ins.opcode
        ops = list(ins.operands)
        values: list = []
        if op in ("S2R", "S2UR", "CS2R", "CS2UR"):
            sr = ops[-1] if ops else ""
            v = VARYING if VARYING_SR.match(sr) else UNIFORM
            values = [v] * len(use.dst)
        elif op in ("LDC", "ULDC", "LDCU") and len(ops) >= 2 and CONST_BANK_RE.match(ops[1]):
            off = int(CONST_BANK_RE.match(ops[1]).group(1), 16)
            values = [("c", self.facts.known_words[off + 4 * k] & 0xFFFFFFFF)
                      if off + 4 * k in self.facts.known_words else UNIFORM for k in range(len(use.dst))]
        elif op in LOADS:
            values = [VARYING] * len(use.dst)
        elif (op in MOVES and len(ops) == 2) or (op == "IMAD" and "MOV" in ins.modifiers and len(ops) == 4):
            values = [self.operand(ops[-1])] * len(use.dst)
        elif op in ("ISETP", "UISETP") and "EX" not in ins.modifiers and len(ops) >= 5:
            first, second = self._compare(ins, ops[2], ops[3], ops[4])
            values = [v for v, o in ((first, ops[0]), (second, ops[1])) if o not in ("PT", "UPT")]
        else:
            v = UNIFORM
            for r in use.src:
                if r != ins.guard:
                    v = _join(v, _uniformish(self.reg(r)))
            values = [v] * len(use.dst)
        g = self.guard(ins)
        for name, v in zip(use.dst, values):
            if g == ("c", 0):
                continue  # never written: the guard is false for every thread
            if g != ("c", 1):  # written where the guard holds: the old value elsewhere
                v = _join(_uniformish(self.val.get(name, UNIFORM)), _uniformish(v))
                if g == VARYING:
                    v = VARYING
            self.val[name] = v

    def _compare(self, ins: Instruction, a_text: str, b_text: str, c_text: str):
        """(first, second) predicate of ``ISETP.cmp.bop Pd, Pq, a, b, c``: Pd = (a cmp b) bop c, Pq = !(a cmp b) bop c."""
        a, b, c = self.operand(a_text), self.operand(b_text), self.operand(c_text)
        cmp = next((m for m in ins.modifiers if m in ("EQ", "NE", "LT", "LE", "GT", "GE")), None)
        bop = next((m for m in ins.modifiers if m in ("AND", "OR", "XOR")), "AND")
        raw = None
        if cmp and isinstance(a, tuple) and isinstance(b, tuple):
            x, y = a[1], b[1]
            if "U32" not in ins.modifiers:
                x = x - (1 << 32) if x & 0x80000000 else x
                y = y - (1 << 32) if y & 0x80000000 else y
            raw = {"EQ": x == y, "NE": x != y, "LT": x < y, "LE": x <= y, "GT": x > y, "GE": x >= y}[cmp]
        unknown = _join(_join(_uniformish(a), _uniformish(b)), _uniformish(c) if not isinstance(c, tuple) else UNIFORM)

        def combine(r):
            if isinstance(c, tuple):
                if r is not None:
                    return ("c", int({"AND": r and bool(c[1]), "OR": r or bool(c[1]), "XOR": r != bool(c[1])}[bop]))
                if (bop == "AND" and c[1] == 0) or (bop == "OR" and c[1] == 1):
                    return ("c", c[1])
                return unknown
            if r is not None and ((bop == "AND" and not r) or (bop == "OR" and r)):
                return ("c", int(r))
            return unknown

        return combine(raw), combine(None if raw is None else not raw)

    def guard(self, ins: Instruction):
        if not ins.guard:
            return ("c", 1)
        v = self.reg(ins.guard)
        if ins.guard_negated:
            return ("c", 1 - v[1]) if isinstance(v, tuple) else v
        return v

    def condition(self, ins: Instruction):
        """A branch's condition: its guard and, for BRA.U, its predicate operand."""
        g = self.guard(ins)
        if ins.opcode == "BRA" and ins.operands and is_predicate_operand(ins.operands[0]):
            p = self.operand(ins.operands[0])
            if isinstance(g, tuple) and isinstance(p, tuple):
                return ("c", g[1] & p[1])
            if (isinstance(g, tuple) and g[1] == 0) or (isinstance(p, tuple) and p[1] == 0):
                return ("c", 0)
            return _join(_uniformish(g) if not isinstance(g, tuple) else UNIFORM,
                         _uniformish(p) if not isinstance(p, tuple) else UNIFORM)
        return g


def _is_branch(ins: Instruction) -> bool:
    return ins.opcode == "BRA"


def analyse(instrs: list[Instruction], uses: list[RegisterUse], facts: KernelFacts) -> Flow:
    """The executed path and the marks of a function's instructions (up to its last EXIT)."""
    n = len(instrs)
    index_of = {ins.pc: i for i, ins in enumerate(instrs)}
    notes: list[str] = []
    for ins in instrs:
        if ins.opcode in ("BRX", "BRXU", "JMX", "JMP", "CALL", "RET"):
            raise ProgramError(f"the instruction at 0x{ins.pc:04x} ({ins.mnemonic}) is an indirect jump, call or "
                               "return; only loops and forward branches are followed")
    backs = [i for i, ins in enumerate(instrs) if _is_branch(ins) and ins.target is not None
             and ins.target <= ins.pc]
    if len(backs) > 1:
        raise ProgramError(f"the SASS has {len(backs)} backward branches (at "
                           f"{', '.join(f'0x{instrs[i].pc:04x}' for i in backs)}); only one loop is followed")
    loop_static = None
    if backs:
        b = backs[0]
        tgt = instrs[b].target
        if tgt not in index_of:
            raise ProgramError(f"the loop branch at 0x{instrs[b].pc:04x} jumps to 0x{tgt:04x}, not an instruction")
        loop_static = (index_of[tgt], b)
    for ins in instrs:
        if _is_branch(ins) and ins.target is not None and ins.target > ins.pc and ins.target not in index_of:
            raise ProgramError(f"the branch at 0x{ins.pc:04x} jumps to 0x{ins.target:04x}, beyond the last EXIT")

    # -- abstract values at each instruction (loop body iterated to a fixed point) ------------
    ev = _Eval(facts)
    queried = [bool(ins.guard) or _is_branch(ins) for ins in instrs]  # the walk asks these for their predicate
    at: list = [None] * n  # a copy of the state before each queried instruction
    i = 0
    while i < n:
        if loop_static and i == loop_static[0]:
            start, end = loop_static
            state_in = dict(ev.val)
            for _ in range(8):  # values only move up the lattice (constant, uniform, varying)
                ev.val = dict(state_in)
                for k in range(start, end + 1):
                    if queried[k]:
                        at[k] = dict(ev.val)
                    ev.step(instrs[k], uses[k])
                joined = {r: _join(state_in.get(r, UNIFORM), ev.val.get(r, UNIFORM))
                          for r in set(state_in) | set(ev.val)}
                if joined == state_in:
                    break
                state_in = joined
            i = end + 1
            continue
        if queried[i]:
            at[i] = dict(ev.val)
        ev.step(instrs[i], uses[i])
        i += 1

    def value_at(k: int, fn):
        if at[k] is None:
            return ("c", 1)  # not guarded, not a branch
        saved = ev.val
        ev.val = at[k]
        try:
            return fn(instrs[k])
        finally:
            ev.val = saved

    # -- walk the path ---------------------------------------------------------------------
    path: list[int] = []
    executed = [False] * n
    predicated_off = [False] * n
    partial_exit = [False] * n
    single_lane = [False] * n
    lanes_one = False
    loop_pos = None
    i = 0
    steps = 0
    while True:
        steps += 1
        if steps > 4 * n + 16:
            raise ProgramError("the control flow does not reach an EXIT")
        if i >= n:
            raise ProgramError("the control flow runs past the last EXIT")
        ins = instrs[i]
        if loop_static and i == loop_static[0] and loop_pos is None:
            loop_pos = len(path)
        path.append(i)
        executed[i] = True
        single_lane[i] = lanes_one
        g = value_at(i, lambda x: ev.guard(x))
        if ins.opcode == "EXIT":
            if i == n - 1 or g == ("c", 1):
                if i != n - 1:
                    notes.append(f"the warp exits at 0x{ins.pc:04x}, before the last EXIT")
                break
            if g == ("c", 0):
                predicated_off[i] = True
            else:
                partial_exit[i] = True
                if g == UNIFORM:
                    notes.append(f"the EXIT at 0x{ins.pc:04x} depends on a warp-uniform value unknown here; "
                                 "timed as if the warp goes on")
                else:
                    lanes_one = True
            i += 1
            continue
        if _is_branch(ins) and ins.target is not None:
            cond = value_at(i, lambda x: ev.condition(x))
            if loop_static and i == loop_static[1]:
                i += 1  # the back edge: the body is on the path once; `trip` repeats it
                continue
            tgt = index_of[ins.target]
            if cond == ("c", 1):
                if loop_static:
                    s, e = loop_static
                    inside = s <= i <= e
                    if inside != (s <= tgt <= e) or (not inside and i < s and tgt > e):
                        raise ProgramError(f"the branch at 0x{ins.pc:04x} jumps into, out of or over the loop")
                i = tgt
                continue
            if cond == ("c", 0):
                predicated_off[i] = True
            elif cond == UNIFORM:
                notes.append(f"the branch at 0x{ins.pc:04x} depends on a warp-uniform value unknown here; "
                             "timed as not taken")
            i += 1
            continue
        if ins.guard and g == ("c", 0):
            predicated_off[i] = True
        i += 1
    if loop_static and loop_pos is None:
        raise ProgramError("the path never enters the loop")
    loop_start = loop_pos if loop_static else len(path)
    loop_end = loop_start
    if loop_static:
        loop_end = loop_start + sum(1 for k in path[loop_start:] if loop_static[0] <= k <= loop_static[1])
    guard_consumed = _guard_consumers(instrs, uses, path)
    instrumentation = _instrumentation(instrs, uses, path, loop_start, loop_end, facts, partial_exit)
    return Flow(path=path, loop_start=loop_start, loop_end=loop_end, loop_static=loop_static, executed=executed,
                predicated_off=predicated_off, partial_exit=partial_exit, single_lane=single_lane,
                instrumentation=instrumentation, guard_consumed=guard_consumed, notes=notes)


def basic_blocks(instrs: list[Instruction]) -> list[tuple[int, int, tuple[int, ...]]]:
    """(first, last, successors) per basic block, as static indices.

    Leaders: the first instruction, every branch target, and the instruction after a
    branch or an EXIT. Successors: the branch target and, unless the branch or EXIT is
    unconditional, the next block.
    """
    index_of = {ins.pc: i for i, ins in enumerate(instrs)}
    leaders = {0}
    for i, ins in enumerate(instrs):
        if _is_branch(ins) and ins.target in index_of:
            leaders.add(index_of[ins.target])
        if (_is_branch(ins) or ins.opcode == "EXIT") and i + 1 < len(instrs):
            leaders.add(i + 1)
    starts = sorted(leaders)
    out = []
    for k, first in enumerate(starts):
        last = (starts[k + 1] - 1) if k + 1 < len(starts) else len(instrs) - 1
        end = instrs[last]
        always = not end.guard or end.guard == "PT" and not end.guard_negated
        if _is_branch(end) and end.operands and is_predicate_operand(end.operands[0]):
            always = False  # BRA.U UPn: conditional
        succ = []
        if _is_branch(end) and end.target in index_of:
            succ.append(index_of[end.target])
        falls = not ((_is_branch(end) or end.opcode == "EXIT") and always)
        if falls and last + 1 < len(instrs):
            succ.append(last + 1)
        out.append((first, last, tuple(dict.fromkeys(succ))))
    return out


# -- def-use over the path -------------------------------------------------------------------
def _unrolled(path: list[int], loop_start: int, loop_end: int) -> list[int]:
    """Prologue, the body twice, epilogue: every def-use pair of the loop appears in it."""
    body = path[loop_start:loop_end]
    return path[:loop_start] + body + body + path[loop_end:]


def _consumers(instrs, uses, order: list[int]) -> dict:
    """static index -> set of static indices that read a value it wrote (along ``order``)."""
    last_def: dict = {}
    out: dict = {k: set() for k in order}
    for k in order:
        for r in uses[k].src:
            d = last_def.get(r)
            if d is not None:
                out[d].add(k)
        for r in uses[k].dst:
            last_def[r] = k
    return out


def _guard_consumers(instrs, uses, path) -> list[bool]:
    out = [False] * len(instrs)
    last_def: dict = {}
    for k in path + path:
        ins = instrs[k]
        reads = []
        if ins.guard:
            reads.append(ins.guard)
        if ins.opcode == "BRA" and ins.operands and is_predicate_operand(ins.operands[0]):
            reads.append(ins.operands[0].lstrip("!"))
        for r in reads:
            d = last_def.get(r)
            if d is not None:
                out[d] = True
        for r in uses[k].dst:
            last_def[r] = k
    return out


def _instrumentation(instrs, uses, path, loop_start, loop_end, facts: KernelFacts, partial_exit) -> list[bool]:
    n = len(instrs)
    order = _unrolled(path, loop_start, loop_end)
    consumers = _consumers(instrs, uses, order)
    on_path = set(path)
    # values derived from the record pointer
    record_regs: set = set()
    seeds: set = set()
    for k in order:
        ins = instrs[k]
        u = uses[k]
        src = set(u.src)
        reads_record = any((m := CONST_BANK_RE.match(o.lstrip("-~"))) and int(m.group(1), 16) in facts.record_words
                           for o in ins.operands)
        if reads_record and not src & record_regs:  # LDC of the pointer, or an ALU op with it as c[0x0][...] operand
            record_regs.update(u.dst)
            continue
        if src & record_regs:
            if ins.opcode in STORES or ins.opcode in ("ATOM", "ATOMG", "RED", "REDG"):
                addr = {r for o in ins.operands if "[" in o for r, _ in operand_registers(o)}
                if addr & record_regs:
                    seeds.add(k)
            record_regs.update(u.dst)
        else:
            record_regs.difference_update(u.dst)
        if ins.opcode in ("S2R", "S2UR", "CS2R", "CS2UR") and ins.operands and INSTRUMENT_SR.match(ins.operands[-1]):
            seeds.add(k)
    mark = [False] * n
    for k in seeds:
        mark[k] = True
    producers: dict = {}  # static index -> {register: set of defining static indices}
    last_def: dict = {}
    for k in order:
        producers.setdefault(k, {})
        for r in uses[k].src:
            if r in last_def:
                producers[k].setdefault(r, set()).add(last_def[r])
        for r in uses[k].dst:
            last_def[r] = k
    last_exit = n - 1
    position = {k: pos for pos, k in enumerate(path)}  # the body's first visit
    inputs = {k: [d for r, ds in producers.get(k, {}).items() if r != instrs[k].guard for d in ds] for k in path}
    changed = True
    while changed:
        changed = False
        for k in path:
            if mark[k]:
                continue
            ins = instrs[k]
            side_effect = ins.opcode in SIDE_EFFECTS
            # forward: every register input comes from instrumentation
            fwd = not side_effect and bool(inputs[k]) and all(mark[d] for d in inputs[k])
            # backward: no side effect, and only instrumentation reads what it writes
            cons = consumers.get(k, ())
            bwd = not side_effect and bool(uses[k].dst) and bool(cons) and all(mark[c] for c in cons)
            # a lane-dependent EXIT followed only by instrumentation (the lane-0 record write)
            ex = partial_exit[k] and all(mark[j] or j == last_exit for j in path[position[k] + 1:])
            if fwd or bwd or ex:
                mark[k] = True
                changed = True
    return [m and (k in on_path) for k, m in enumerate(mark)]
