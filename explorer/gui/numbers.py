"""How the views write numbers and unit symbols: English by default, else the interface language's.

Qt-free, so the Qt-free formatters (``gemm_session``) use it too. The window's
language sets the style (``explorer.gui.i18n.install_translators``): the locale's
digit-group separator and decimal point (Russian: ``1 024`` and ``97,5``) and
the unit symbols in that language (``ГБ/с``, ``мкс``). With the English style
every function here returns exactly what Python's own formatting gives.
"""

from __future__ import annotations

_style = {"group": ",", "decimal": "."}
_units: dict[str, str] = {}


def set_style(group: str = ",", decimal: str = ".", units: dict[str, str] | None = None) -> None:
    """The separators and unit symbols to write from now on (no arguments: English)."""
    _style["group"], _style["decimal"] = group or ",", decimal or "."
    _units.clear()
    _units.update(units or {})


def localize(text: str) -> str:
    """A number Python formatted (``1,234.5``) in the current style."""
    group, decimal = _style["group"], _style["decimal"]
    if (group, decimal) == (",", "."):
        return text
    return "".join(group if c == "," else decimal if c == "." else c for c in text)


def num(value: float, decimals: int = 0, group: bool = True) -> str:
    """``value`` with ``decimals`` digits after the point, digits grouped (or not), in the current style."""
    return localize(f"{value:{',' if group else ''}.{decimals}f}")


def unit(symbol: str) -> str:
    """A unit symbol (``GB/s``, ``ms``, ``KiB``) in the current language."""
    return _units.get(symbol, symbol)
