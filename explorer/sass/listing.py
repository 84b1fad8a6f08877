"""Parse a SASS listing (``nvdisasm -c -hex`` or ``cuobjdump -sass``) into instructions.

A listing line looks like::

    /*03b0*/               @P0 BRA `(.L_x_4) ;     /* 0xfffffffc00bc0947 */
                                                   /* 0x000fea000383ffff */

i.e. the byte offset, an optional guard predicate, the opcode with its modifiers, the
operands, and the 128-bit encoding as two 64-bit words (Volta and newer). nvdisasm
names branch targets by labels (``.L_x_4:`` lines); cuobjdump prints addresses. Here
every label reference is replaced by its address, so an instruction's ``text`` reads
the same from both tools (the tests compare them).

The upper word's top bits are the compiler's control information (Jia et al. 2018,
"Dissecting the NVIDIA Volta GPU Architecture via Microbenchmarking", section 2.1):
stall cycles (4 bits), yield (1), the write and read scoreboard barriers it sets (3 + 3
bits, 7 = none), the barriers it waits on (6-bit mask) and operand-reuse flags (4).
A variable-latency instruction sets a write barrier for its consumers; fixed-latency
ones are covered by stall counts. The opcode table is checked against this.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from explorer.model.errors import InputError

LINE_RE = re.compile(r"^\s*/\*([0-9a-fA-F]{4,})\*/\s*(.*?)\s*;\s*(?:/\*\s*(0x[0-9a-fA-F]+)\s*\*/)?\s*$")
HEX_ONLY_RE = re.compile(r"^\s*/\*\s*(0x[0-9a-fA-F]+)\s*\*/\s*$")
# labels: nvdisasm's .L_x_N, and the subroutines it appends to a function after its last
# EXIT ($__internal_0_$__cuda_sm20_rcp_rn_f32_slowpath), which CALL instructions name
LABEL_DEF_RE = re.compile(r"^\s*(\.L\w+|\$[\w$.]+):\s*$")
LABEL_REF_RE = re.compile(r"`\((\.L\w+|\$[\w$.]+)\)")
ANNOTATION_RE = re.compile(r"\s*\(\*\s*\"?([^*\"]*)\"?\s*\*\)")  # nvdisasm's (*"SpillRefill"*) remarks
GUARD_RE = re.compile(r"^@(!?)(U?P[0-7T])\s+")
# one register reference: general R0..R254/RZ, uniform UR0..UR62/URZ, predicates P0..P6/PT,
# uniform predicates UP0..UP6/UPT, and PR (all predicates at once, in P2R/R2P)
REG_RE = re.compile(r"(?<![A-Za-z0-9_])(URZ|UR\d+|RZ|R\d+|UPT|UP[0-7]|PT|P[0-7]|PR)(?![A-Za-z0-9_])")
ZERO_REGS = frozenset({"RZ", "URZ", "PT", "UPT"})
MAX_LISTING_CHARS = 64 << 20  # a disassembly larger than this is not a kernel we generate


class ListingError(InputError):
    """A listing we cannot read (not SASS, a missing function, an unknown label)."""

    def __init__(self, message: str, where: str = "sass"):
        super().__init__(where, message)


@dataclass(frozen=True)
class Control:
    """The control bits of one instruction (Volta+ encodings)."""

    stall: int
    yield_: bool
    write_barrier: int | None  # scoreboard barrier set when the result is written (None: none)
    read_barrier: int | None  # barrier set when the sources have been read (None: none)
    wait_mask: int  # barriers waited on before issue (bit i = barrier i)
    reuse: int  # operand reuse-cache flags

    @classmethod
    def decode(cls, high_word: int) -> "Control":
        bits = high_word >> 41  # bits 105.. of the 128-bit instruction = bits 41.. of its upper word
        wb = (bits >> 5) & 7
        rb = (bits >> 8) & 7
        return cls(stall=bits & 0xF, yield_=bool((bits >> 4) & 1), write_barrier=None if wb == 7 else wb,
                   read_barrier=None if rb == 7 else rb, wait_mask=(bits >> 11) & 0x3F, reuse=(bits >> 17) & 0xF)

    def to_json(self) -> dict:
        return {"stall": self.stall, "yield": self.yield_, "write_barrier": self.write_barrier,
                "read_barrier": self.read_barrier,
                "wait": [i for i in range(6) if self.wait_mask >> i & 1], "reuse": self.reuse}


@dataclass(frozen=True)
class Instruction:
    """One SASS instruction: ``@guard OPCODE.MOD.MOD operand, operand, ...``."""

    pc: int  # byte offset in the function
    text: str  # the instruction as printed, label references replaced by addresses
    opcode: str  # base mnemonic, e.g. "LDG"
    modifiers: tuple[str, ...]  # e.g. ("E", "64")
    operands: tuple[str, ...]  # raw operand texts, in order
    guard: str | None = None  # "P0", "UP1" (None: always executes)
    guard_negated: bool = False
    target: int | None = None  # branch target pc
    encoding: tuple[int, int] | None = None  # (low word, high word)
    control: Control | None = None
    annotations: tuple[str, ...] = ()  # nvdisasm's remarks, e.g. "SpillRefill" on a spill

    @property
    def mnemonic(self) -> str:
        return ".".join((self.opcode, *self.modifiers))

    def has(self, modifier: str) -> bool:
        return modifier in self.modifiers


@dataclass
class Function:
    """A function's instructions in program order and its labels."""

    name: str
    instructions: list[Instruction] = field(default_factory=list)
    labels: dict[str, int] = field(default_factory=dict)  # label -> pc

    def up_to_last_exit(self) -> list[Instruction]:
        """The instructions up to and including the last EXIT (the padding after it is not code)."""
        last = max((i for i, ins in enumerate(self.instructions) if ins.opcode == "EXIT"), default=None)
        if last is None:
            raise ListingError(f"function {self.name} has no EXIT instruction")
        return self.instructions[: last + 1]


def split_operands(text: str, opening: str = "[{(", closing: str = "]})") -> list[str]:
    """Operands at the top level of ``text`` (commas inside [], {} and () do not split; other
    bracket pairs on request: C parameter lists also nest <>)."""
    out, depth, cur = [], 0, []
    for ch in text:
        if ch in opening:
            depth += 1
        elif ch in closing:
            depth -= 1
        if ch == "," and depth == 0:
            out.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    tail = "".join(cur).strip()
    if tail:
        out.append(tail)
    return out


def parse_instruction(pc: int, text: str, labels: dict[str, int] | None = None,
                      encoding: tuple[int, int] | None = None) -> Instruction:
    """One instruction from its text (as nvdisasm or cuobjdump prints it, without ``;``)."""
    labels = labels or {}
    target = None

    def resolve(m: re.Match) -> str:
        nonlocal target
        name = m.group(1)
        if name not in labels:
            raise ListingError(f"instruction at 0x{pc:04x} refers to an unknown label {name}")
        target = labels[name]
        return f"0x{target:x}"

    annotations = tuple(m.group(1).strip() for m in ANNOTATION_RE.finditer(text))
    text = " ".join(ANNOTATION_RE.sub("", text).split())
    resolved = LABEL_REF_RE.sub(resolve, text)
    body = resolved
    guard, negated = None, False
    g = GUARD_RE.match(body)
    if g:
        negated, guard = g.group(1) == "!", g.group(2)
        body = body[g.end():]
    head, _, rest = body.partition(" ")
    if not head or not re.match(r"^[A-Z][A-Z0-9_]*(\.[A-Za-z0-9_]+)*$", head):
        raise ListingError(f"cannot read the instruction at 0x{pc:04x}: {text!r}")
    opcode, *mods = head.split(".")
    operands = split_operands(rest)
    if target is None and opcode in ("BRA", "BRX", "JMP", "CALL", "BSSY", "BREAK") and operands:
        m = re.fullmatch(r"(0x[0-9a-fA-F]+)", operands[-1])
        if m:  # cuobjdump prints the target as an address
            target = int(m.group(1), 16)
    control = Control.decode(encoding[1]) if encoding else None
    return Instruction(pc=pc, text=resolved, opcode=opcode, modifiers=tuple(mods), operands=tuple(operands),
                       guard=guard, guard_negated=negated, target=target, encoding=encoding, control=control,
                       annotations=annotations)


def _scan(lines: list[str]) -> tuple[list[tuple[int, str, tuple[int, int] | None]], dict[str, int]]:
    """(pc, text, encoding) per instruction line and the label -> pc map of one function's lines."""
    raw: list[tuple[int, str, int | None, int | None]] = []
    labels: dict[str, int] = {}
    pending: list[str] = []
    for line in lines:
        m = LINE_RE.match(line)
        if m:
            pc = int(m.group(1), 16)
            for name in pending:
                labels[name] = pc
            pending = []
            raw.append((pc, m.group(2), int(m.group(3), 16) if m.group(3) else None, None))
            continue
        h = HEX_ONLY_RE.match(line)
        if h and raw and raw[-1][3] is None and raw[-1][2] is not None:
            pc, text, lo, _ = raw[-1]
            raw[-1] = (pc, text, lo, int(h.group(1), 16))
            continue
        lab = LABEL_DEF_RE.match(line)
        if lab:
            pending.append(lab.group(1))
    if pending and raw:  # a label after the last instruction (end of the function)
        end = raw[-1][0] + 16
        for name in pending:
            labels[name] = end
    out = [(pc, text, (lo, hi) if lo is not None and hi is not None else None) for pc, text, lo, hi in raw]
    return out, labels


def function_lines(text: str, name: str) -> list[str] | None:
    """The lines of function ``name`` in an nvdisasm listing (its ``.text.<name>`` section)."""
    lines = text.splitlines()
    start = None
    for i, line in enumerate(lines):
        s = line.strip()
        if re.match(rf"^\.section\s+\.text\.{re.escape(name)}\s*,", s):
            start = i + 1
            break
    if start is None:
        return None
    end = len(lines)
    for j in range(start, len(lines)):
        s = lines[j].strip()
        if re.match(r"^\.section\s", s) or s.startswith("//----"):
            end = j
            break
    return lines[start:end]


def function_names(text: str) -> list[str]:
    return re.findall(r"^\s*\.section\s+\.text\.([A-Za-z_$][\w$.]*)\s*,", text, flags=re.MULTILINE)


def parse_function(text: str, name: str) -> Function:
    """Function ``name`` of an nvdisasm listing (``nvdisasm -c -hex`` output)."""
    if len(text) > MAX_LISTING_CHARS:
        raise ListingError(f"the listing has {len(text)} characters, more than the limit of {MAX_LISTING_CHARS}")
    lines = function_lines(text, name)
    if lines is None:
        names = function_names(text)
        raise ListingError(f"no function {name!r} in the listing; functions: {', '.join(names) or 'none'}")
    return parse_lines(lines, name)


def parse_lines(lines: list[str], name: str = "") -> Function:
    """Instructions of one function's listing lines (nvdisasm or cuobjdump format)."""
    scanned, labels = _scan(lines)
    if not scanned:
        raise ListingError(f"function {name or '?'} has no instructions in the listing")
    fn = Function(name=name, labels=labels)
    fn.instructions = [parse_instruction(pc, t, labels, enc) for pc, t, enc in scanned]
    return fn


def cuobjdump_function(text: str, name: str) -> Function:
    """Function ``name`` of a ``cuobjdump -sass`` listing (branch targets are addresses there)."""
    lines = text.splitlines()
    start = None
    for i, line in enumerate(lines):
        m = re.match(r"^\s*Function\s*:\s*(\S+)\s*$", line)
        if m and m.group(1) == name:
            start = i + 1
            break
    if start is None:
        raise ListingError(f"no function {name!r} in the cuobjdump listing")
    end = len(lines)
    for j in range(start, len(lines)):
        if re.match(r"^\s*(Function\s*:|\.{4,}|code for sm_)", lines[j]):
            end = j
            break
    return parse_lines(lines[start:end], name)


# -- registers -------------------------------------------------------------------------------
def register_file(name: str) -> str:
    """``R``, ``UR``, ``P`` or ``UP`` for a register name."""
    if name.startswith("UR"):
        return "UR"
    if name.startswith("UP"):
        return "UP"
    if name.startswith("P"):
        return "P"
    return "R"


def expand(name: str, width: int) -> list[str]:
    """``R4`` x 2 -> R4, R5 (a 64-bit pair); zero registers read nothing and write nowhere."""
    if name in ZERO_REGS:
        return []
    if name == "PR":
        return [f"P{i}" for i in range(7)]
    m = re.match(r"^(U?R|U?P)(\d+)$", name)
    if not m or width <= 1:
        return [name]
    base, idx = m.group(1), int(m.group(2))
    return [f"{base}{idx + k}" for k in range(width)]


def operand_registers(operand: str) -> list[tuple[str, int]]:
    """(register, width) pairs an operand mentions.

    Inside an address ``R14.64`` is a 64-bit pair and ``desc[UR6]`` a 64-bit uniform
    descriptor; elsewhere the width comes from the instruction (see ``semantics``).
    Returns width 0 for registers whose width the instruction decides.
    """
    out = []
    is_address = "[" in operand
    for m in REG_RE.finditer(operand):
        name = m.group(1)
        after = operand[m.end():m.end() + 3]
        before = operand[max(0, m.start() - 5):m.start()]
        if after.startswith(".64"):
            out.append((name, 2))
        elif before.endswith("desc["):
            out.append((name, 2))
        elif is_address:
            out.append((name, 1))
        else:
            out.append((name, 0))
    return out


def is_predicate_operand(operand: str) -> bool:
    return bool(re.fullmatch(r"!?U?P[0-7T]", operand))


def is_register_operand(operand: str) -> bool:
    """A plain general or uniform register (maybe negated, absolute, with a sub-word or reuse flag)."""
    return bool(re.fullmatch(r"[-~|]*(?:URZ|UR\d+|RZ|R\d+)(?:\.[A-Za-z0-9_]+)*\|?", operand))
