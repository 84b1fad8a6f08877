"""Every number the app writes: grouped digits, percentages, bytes, seconds, FLOPs, rates with SI prefixes,
counted nouns ("1 block", "2 blocks"; Russian "1 блок", "2 блока", "5 блоков"), in one style.

The one number formatter of the core, the CLI and the window (it was the window's
alone, and the simulator and the CLI each kept an SI formatter of their own). Qt-free,
so Qt-free code (the core's sentences, the views' sessions, tests) formats exactly as
the views do. The window plugs in a *style source* (``explorer.gui.shell.i18n``): a
function giving, at the moment of formatting, the default locale's digit-group
separator and decimal point (Russian: ``1 024`` and ``97,5``) and a unit-symbol
translator (``ГБ/с``, ``мкс``). Without one, numbers are written the English way.
Code that must write English whatever the window's language (the core's JSON and CLI
sentences, which may be made on a worker thread while the window shows Russian)
passes ``style=ENGLISH`` instead of reading the source.

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

Style = tuple[str, str, "Callable[[str], str] | None"]  # (group separator, decimal point, unit symbol -> its text)
ENGLISH: Style = (",", ".", None)
# () -> a Style; None: English
_source: Callable[[], Style] | None = None
_EXACT = Context(prec=400, rounding=ROUND_HALF_UP)  # enough digits for any float's integer part


def set_style_source(source: Callable[[], tuple[str, str, Callable[[str], str]]] | None) -> None:
    global _source
    _source = source


def _style(style: Style | None = None) -> Style:
    if style is not None:
        return style
    if _source is None:
        return ENGLISH
    return _source()


def localize(text: str, style: Style | None = None) -> str:
    """A number Python formatted (``1,234.5``) in ``style`` (default: the current one)."""
    group, decimal, _unit = _style(style)
    if (group, decimal) == (",", "."):
        return text
    return "".join(group if c == "," else decimal if c == "." else c for c in text)


def num(value: float, decimals: int = 0, group: bool = True, style: Style | None = None) -> str:
    """``value`` with ``decimals`` digits after the point, digits grouped (or not), in ``style`` (default: the
    current one)."""
    spec = f"{',' if group else ''}.{decimals}f"
    if isinstance(value, int) and not isinstance(value, bool):  # exact ("f" would go through a float)
        return localize(format(value, "," if group else "d") + ("." + "0" * decimals if decimals else ""), style)
    value = float(value)
    if not math.isfinite(value):
        return format(value, spec)
    rounded = Decimal(value).quantize(Decimal(1).scaleb(-decimals), context=_EXACT)
    if value == 0:
        rounded = abs(rounded)  # -0.0 is "0"; -0.4 rounds to "-0", as in QLocale
    return localize(format(rounded, spec), style)


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


def pct(fraction: float, decimals: int = 1, style: Style | None = None) -> str:
    """A fraction as a percentage with up to ``decimals`` decimals, a zero fraction dropped: 62.5%, 50%."""
    return percent(100.0 * fraction, decimals, style)


def percent(value: float, decimals: int = 1, style: Style | None = None) -> str:
    """:func:`pct` of a figure already in percent (NVML's utilization, 0-100): 45.3%, 90%."""
    text = num(value, decimals, style=style)
    zero = num(0.0, decimals, style=style)[1:] if decimals else ""
    if decimals and text.endswith(zero):
        text = text[: -len(zero)]
    return text + "%"


NOT_KNOWN = "n/a"  # a figure that is not known: one side of a comparison lacks it, a driver or NVML did not say


def known(value, write: Callable[..., str] = num, *args, **kwargs) -> str:
    """``write(value, *args, **kwargs)`` (:func:`num`, :func:`pct`, ...), or :data:`NOT_KNOWN` where ``value`` is
    None: ``known(None, pct, 1)`` is "n/a", not "n/a%"."""
    return NOT_KNOWN if value is None else write(value, *args, **kwargs)


def signed(value: float, decimals: int = 0, style: Style | None = None) -> str:
    """:func:`num` with its sign always written (``+1.5``, ``-0.3``, ``+0.0``): a difference, an error."""
    text = num(value, decimals, style=style)
    return text if text.startswith("-") else "+" + text


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


def unit(symbol: str, style: Style | None = None) -> str:
    """A unit symbol (``GB/s``, ``ms``, ``KiB``) in the current language (or ``style``'s)."""
    translate = _style(style)[2]
    return translate(symbol) if translate is not None else symbol


_PREFIXES = ((1e15, "P"), (1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k"))


def significant(x: float, digits: int = 3, style: Style | None = None) -> str:
    """``x`` to ``digits`` significant figures as Python's ``g`` writes it (``3.35``, ``0.75``, ``120``), never in
    exponent form (``1.2e+02`` is written ``120``), in ``style``."""
    text = f"{x:.{digits}g}"
    if "e" in text:
        return num(float(text), 0, style=style) if abs(x) >= 1 else localize(f"{float(text):f}".rstrip("0"), style)
    return localize(text, style)


def si(value: float, units: str, style: Style | None = None) -> str:
    """A quantity with an SI prefix, three significant figures: 3.35e12, "B/s" -> "3.35 TB/s"; 8.67e9, "FLOP" ->
    "8.67 GFLOP"; 1.05e12, "warp-instructions/s" -> "1.05 T warp-instructions/s" (a prefix is glued to a unit
    symbol, spaced from a word); 1.2e3, "" -> "1.2 k". The unit and the prefix go through the style's unit
    translator (Russian: "3,35 ТБ/с")."""
    value = float(value)
    sep = "" if units[:1].isupper() else " "
    for scale, prefix in _PREFIXES:
        if abs(value) >= scale:
            head = f"{significant(value / scale, style=style)} {unit(prefix, style)}"
            return head + (sep + unit(units, style) if units else "")
    return f"{significant(value, style=style)} {unit(units, style)}".rstrip()


# -- three significant figures, with units ------------------------------------------
def three(x: float, style: Style | None = None) -> str:
    """Three significant digits, no trailing zeros after the point: 59, 1.53, 605 (in ``style``, default: the
    current one)."""
    if x >= 100:
        return num(x, style=style)
    text = f"{x:.1f}" if x >= 10 else f"{x:.2f}"
    return localize(text.rstrip("0").rstrip(".") if "." in text else text, style)


def figure(x: float) -> str:
    """Three significant figures for axis-like numbers: 0.54, 20.2, 605, 1,979 (trailing zeros kept)."""
    if x >= 100:
        return num(x)
    if x >= 10:
        return localize(f"{x:.1f}")
    if x >= 1:
        return localize(f"{x:.2f}")
    return localize(f"{x:.3g}")


def si_bytes(value: float, style: Style | None = None) -> str:
    """Decimal units (traffic, as GB/s are): 59 MB, 1.53 GB (in ``style``, default: the current one)."""
    value = float(value)
    for symbol, scale in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if abs(value) >= scale:
            return f"{three(value / scale, style)} {unit(symbol, style)}"
    return f"{value:.0f} {unit('B', style)}"


def binary_bytes(value: float) -> str:
    """Binary units (capacities): 256 KiB, 50 MiB, 80 GiB."""
    value = float(value)
    for symbol, scale in (("TiB", 2**40), ("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if abs(value) >= scale:
            return f"{three(value / scale)} {unit(symbol)}"
    return f"{num(value)} {unit('B')}"


def seconds_text(s: float, style: Style | None = None) -> str:
    """A duration in s, ms, µs or ns, three significant digits: 1.5 s, 190 µs (the window's and the CLI's; the
    CLI passes ``style=ENGLISH``)."""
    if s >= 1:
        return f"{three(s, style)} {unit('s', style)}"
    if s >= 1e-3:
        return f"{three(s * 1e3, style)} {unit('ms', style)}"
    if s >= 1e-6:
        return f"{three(s * 1e6, style)} {unit('µs', style)}"
    return f"{three(s * 1e9, style)} {unit('ns', style)}"


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
