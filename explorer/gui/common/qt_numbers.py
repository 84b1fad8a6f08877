"""Numbers as Qt's default locale writes them: grouped digits in the interface language's style.

The views that format with ``QLocale`` (the Explorer's metrics, the transport's
cycle counter and speeds, the scenario panel's launch summary, the calculator's
limits, the measurement box) use these, so the locale is set up in one place;
``explorer.gui.common.numbers`` is the same for numbers Python formats. The locale is
read at every call, so a language switch applies at once.
"""

from __future__ import annotations

from PySide6.QtCore import QLocale


def grouping_locale() -> QLocale:
    """The default locale, grouping digits even where its options say not to (the C locale)."""
    loc = QLocale()
    loc.setNumberOptions(QLocale.NumberOption.DefaultNumberOptions)
    return loc


def n(value) -> str:
    """A whole number, digits grouped: 61,440 (61 440 in Russian)."""
    return grouping_locale().toString(int(value))


def fixed(value: float, digits: int) -> str:
    """``value`` with ``digits`` decimals, digits grouped: 1,234.57."""
    return grouping_locale().toString(value, "f", digits)


def pct(fraction: float, digits: int = 1) -> str:
    """A fraction as a percentage with up to ``digits`` decimals, a zero fraction dropped: 62.5%, 50%."""
    text = grouping_locale().toString(100.0 * fraction, "f", digits)
    zero = grouping_locale().toString(0.0, "f", digits)[1:] if digits else ""
    if digits and text.endswith(zero):
        text = text[: -len(zero)]
    return text + "%"
