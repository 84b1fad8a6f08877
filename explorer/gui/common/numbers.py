"""Every number the window writes: grouped digits, percentages, bytes, seconds, FLOPs, counted nouns
("1 block", "2 blocks"; Russian "1 блок", "2 блока", "5 блоков"), in the interface's style.

Qt-free, so Qt-free code (the views' sessions, tests) formats exactly as the views
do. The window plugs in a *style source* (``explorer.gui.shell.i18n``): a function
giving, at the moment of formatting, the default locale's digit-group separator
and decimal point (Russian: ``1 024`` and ``97,5``) and a unit-symbol translator
(``ГБ/с``, ``мкс``). Without one, numbers are written the English way.

Rounding is to nearest with ties away from zero (``6.25`` -> ``6.3``), computed on
the exact binary value, which is what ``QLocale`` does: the numbers read the same
as Qt's own widgets (spin boxes, the export dialog) beside them. Integers of any
size are exact (a grid of 2,147,483,647 x 65,535 x 65,535 blocks is written, not
refused).
"""

from __future__ import annotations

import math
import re
from decimal import ROUND_HALF_UP, Context, Decimal
from typing import Callable

# () -> (group separator, decimal point, unit symbol -> its text); None: English
_source: Callable[[], tuple[str, str, Callable[[str], str]]] | None = None
_EXACT = Context(prec=400, rounding=ROUND_HALF_UP)  # enough digits for any float's integer part


def set_style_source(source: Callable[[], tuple[str, str, Callable[[str], str]]] | None) -> None:
    global _source
    _source = source


def _style() -> tuple[str, str, Callable[[str], str] | None]:
    if _source is None:
        return ",", ".", None
    return _source()


def localize(text: str) -> str:
    """A number Python formatted (``1,234.5``) in the current style."""
    group, decimal, _unit = _style()
    if (group, decimal) == (",", "."):
        return text
    return "".join(group if c == "," else decimal if c == "." else c for c in text)


def num(value: float, decimals: int = 0, group: bool = True) -> str:
    """``value`` with ``decimals`` digits after the point, digits grouped (or not), in the current style."""
    spec = f"{',' if group else ''}.{decimals}f"
    if isinstance(value, int) and not isinstance(value, bool):  # exact ("f" would go through a float)
        return localize(format(value, "," if group else "d") + ("." + "0" * decimals if decimals else ""))
    value = float(value)
    if not math.isfinite(value):
        return format(value, spec)
    rounded = Decimal(value).quantize(Decimal(1).scaleb(-decimals), context=_EXACT)
    if value == 0:
        rounded = abs(rounded)  # -0.0 is "0"; -0.4 rounds to "-0", as in QLocale
    return localize(format(rounded, spec))


def figures_in(text: str, english: bool = False) -> set[float]:
    """The numbers written in ``text`` in the current style (or the English one): "1,056 blocks, 1.33 waves"
    gives {1056.0, 1.33}; in Russian "1 056 блоков, 1,33 волны" gives the same. A number glued to a word
    or a name ("H100", "x8") is not a figure."""
    group, decimal, _unit = (",", ".", None) if english else _style()
    g, d = re.escape(group), re.escape(decimal)
    pattern = rf"(?<![\w.,])(\d{{1,3}}(?:{g}\d{{3}})+|\d+)(?:{d}(\d+))?(?!\w)"
    found = set()
    for whole, fraction in re.findall(pattern, text):
        found.add(float(whole.replace(group, "") + ("." + fraction if fraction else "")))
    return found


def pct(fraction: float, decimals: int = 1) -> str:
    """A fraction as a percentage with up to ``decimals`` decimals, a zero fraction dropped: 62.5%, 50%."""
    text = num(100.0 * fraction, decimals)
    zero = num(0.0, decimals)[1:] if decimals else ""
    if decimals and text.endswith(zero):
        text = text[: -len(zero)]
    return text + "%"


def plural(n: int, forms: str) -> str:
    """The word for ``n`` things, from ``forms`` as the interface language spells them (a translated text):
    "block|blocks" (English: one, other) or "блок|блока|блоков" (Russian: one, few, many — 1, 21 блок;
    2-4, 22 блока; 0, 5-20, 11-14 блоков). A text without "|" is the word for every ``n``."""
    parts = forms.split("|")
    n = abs(int(n))
    if len(parts) >= 3:  # East Slavic rules (CLDR "one", "few", "many")
        if n % 10 == 1 and n % 100 != 11:
            return parts[0]
        if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
            return parts[1]
        return parts[2]
    if len(parts) == 2:
        return parts[0] if n == 1 else parts[1]
    return parts[0]


def counted(n: int, forms: str) -> str:
    """``n`` in digits and the word that goes with it: "1 block", "8,448 warps", "21 блок"."""
    return f"{num(int(n))} {plural(n, forms)}"


def unit(symbol: str) -> str:
    """A unit symbol (``GB/s``, ``ms``, ``KiB``) in the current language."""
    translate = _style()[2]
    return translate(symbol) if translate is not None else symbol


# -- three significant figures, with units ------------------------------------------
def three(x: float) -> str:
    """Three significant digits, no trailing zeros after the point: 59, 1.53, 605."""
    if x >= 100:
        return num(x)
    text = f"{x:.1f}" if x >= 10 else f"{x:.2f}"
    return localize(text.rstrip("0").rstrip(".") if "." in text else text)


def figure(x: float) -> str:
    """Three significant figures for axis-like numbers: 0.54, 20.2, 605, 1,979 (trailing zeros kept)."""
    if x >= 100:
        return num(x)
    if x >= 10:
        return localize(f"{x:.1f}")
    if x >= 1:
        return localize(f"{x:.2f}")
    return localize(f"{x:.3g}")


def si_bytes(value: float) -> str:
    """Decimal units (traffic, as GB/s are): 59.0 MB, 1.53 GB."""
    value = float(value)
    for symbol, scale in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if abs(value) >= scale:
            return f"{three(value / scale)} {unit(symbol)}"
    return f"{value:.0f} {unit('B')}"


def binary_bytes(value: float) -> str:
    """Binary units (capacities): 256 KiB, 50 MiB, 80 GiB."""
    value = float(value)
    for symbol, scale in (("TiB", 2**40), ("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if abs(value) >= scale:
            return f"{three(value / scale)} {unit(symbol)}"
    return f"{num(value)} {unit('B')}"


def seconds_text(s: float) -> str:
    if s >= 1:
        return f"{three(s)} {unit('s')}"
    if s >= 1e-3:
        return f"{three(s * 1e3)} {unit('ms')}"
    if s >= 1e-6:
        return f"{three(s * 1e6)} {unit('µs')}"
    return f"{three(s * 1e9)} {unit('ns')}"


def count_text(x: float) -> str:
    """1.2 k, 8.72 M, 35.7 G (counts and FLOPs)."""
    x = float(x)
    for prefix, scale in (("P", 1e15), ("T", 1e12), ("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if abs(x) >= scale:
            return f"{three(x / scale)} {prefix}"
    return num(x)


def flops_text(x: float) -> str:
    """35.7 GFLOP, 512 FLOP."""
    text = count_text(x)
    return text + ("FLOP" if text[-1].isalpha() else " FLOP")


def tflops_text(x: float) -> str:
    return f"{figure(x)} TFLOPS"


def bandwidth_text(gbs: float) -> str:
    """605 GB/s, 3.35 TB/s."""
    return f"{figure(gbs / 1000)} {unit('TB/s')}" if gbs >= 1000 else f"{figure(gbs)} {unit('GB/s')}"
