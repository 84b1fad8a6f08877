"""How the views write numbers and unit symbols: English by default, else the interface language's.

Qt-free, so the Qt-free formatters (``gemm_session``) use it too. The window
plugs in a *style source* (``explorer.gui.shell.i18n``): a function giving, at the
moment of formatting, the default locale's digit-group separator and decimal
point (Russian: ``1 024`` and ``97,5``) and a unit-symbol translator (``ГБ/с``,
``мкс``). Without one, or with the English style, every function here returns
exactly what Python's own formatting gives.
"""

from __future__ import annotations

from typing import Callable

# () -> (group separator, decimal point, unit symbol -> its text); None: English
_source: Callable[[], tuple[str, str, Callable[[str], str]]] | None = None


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
    return localize(f"{value:{',' if group else ''}.{decimals}f}")


def unit(symbol: str) -> str:
    """A unit symbol (``GB/s``, ``ms``, ``KiB``) in the current language."""
    translate = _style()[2]
    return translate(symbol) if translate is not None else symbol
