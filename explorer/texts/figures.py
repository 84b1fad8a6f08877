"""How each figure of a simulation's summary, and of a simulation beside a measurement, is written, for the CLI's
lines and the window's panels alike.

``simulate --json`` gives the figures as numbers; a person reads them in the CLI's text and in
the window, and a lecturer who shows both must see the same figure the same way (``1,920``
launched warps, ``21.9%`` achieved occupancy, not ``1920`` in one and ``22%`` in the other).
One table, keyed by the summary's JSON key, says how each is written; the CLI renders it in
English, the window in its locale's style (``style`` None). ``tests/gui/explore/test_figures_alike.py``
runs one simulation and finds every figure the two show, written alike, in both. A comparison's
figures (``explorer.gpu.compare.Figure``: ``measure --compare``'s table, the measurement panel) are
written by their unit (:func:`compared_text`), their error signed (:func:`error_text`).
"""

from __future__ import annotations

from typing import Callable, Mapping

from explorer.texts import QT_TRANSLATE_NOOP, Translate, english
from explorer.texts.message import Catalog, translated
from explorer.texts.numbers import ENGLISH, NOT_KNOWN, Style, num, pct, si_bytes, signed
from explorer.texts.numbers import unit as unit_symbol


def _count(value, style):
    return num(int(value), style=style)


def _share(value, style):  # a fraction in [0, 1], as a percentage with one decimal (a zero decimal dropped)
    return pct(float(value), 1, style=style)


def _two(value, style):
    return num(float(value), 2, style=style)


# summary key -> how it is written
FIGURES: Mapping[str, Callable] = {
    "launched_warps": _count,
    "total_blocks": _count,
    "warps_per_block": _count,
    "active_blocks_per_sm": _count,
    "cycles": _count,
    "store_tail_cycles": _count,
    "kernel_time_us": _two,
    "waves": _two,
    "theoretical_occupancy": _share,
    "achieved_occupancy": _share,
    "kernel_active_fraction": _share,
    "issue_slot_utilization": _share,
    "ipc": _two,
    "avg_eligible_per_scheduler": _two,
    "dram_bandwidth_gbs": _count,
}


def figure_text(key: str, value, style: Style | None = ENGLISH) -> str:
    """The summary's figure ``key`` (its value ``value``) as the CLI and the window write it; ``style`` None: the
    window's current number style."""
    return FIGURES[key](value, style)


def summary_figure(summary: Mapping, key: str, style: Style | None = ENGLISH) -> str:
    """:func:`figure_text` of ``summary[key]``."""
    return figure_text(key, summary[key], style)


# -- a simulation beside a measurement (explorer.gpu.compare.Figure) ------------------------------------------
def compared_text(value, unit: str, style: Style | None = ENGLISH) -> str:
    """A compared figure by its unit (``explorer.gpu.compare.Figure``'s): a ``fraction`` or a ``share`` as a
    percentage, ``warps`` under 100 with two decimals (a mean), ``bytes`` with an SI prefix, the rest (cycles,
    blocks, SMs) whole; None: :data:`NOT_KNOWN`."""
    if value is None:
        return NOT_KNOWN
    if unit in ("fraction", "share"):
        return pct(float(value), 1, style=style)
    if unit == "warps" and value < 100:
        return num(float(value), 2, style=style)
    if unit == "bytes":
        return si_bytes(value, style)
    return num(int(value) if unit == "sms" else float(value), style=style)


def error_text(error: float | None, unit: str, style: Style | None = ENGLISH) -> str:
    """A compared figure's error (``Figure.error``), signed: ``+3.2%`` (simulated / measured - 1), ``-1.5 pt``
    for a ``fraction`` (simulated - measured, in percentage points: the unit symbol ``pt`` in the style's
    language, ``п. п.`` in Russian); None: ''."""
    if error is None:
        return ""
    return f"{signed(100 * error, 1, style)}{' ' + unit_symbol('pt', style) if unit == 'fraction' else '%'}"


# -- a comparison's table (explorer.gpu.compare.Comparison): measure --compare's lines, the window's tooltip -----
COMPARED_LABELS: Mapping[str, str] = {  # Figure.key -> its label (Figure.label, translated by comparison_lines)
    "warp_span_cycles": QT_TRANSLATE_NOOP("CompareTexts", "duration (first warp to last, cycles)"),
    "mean_block_cycles": QT_TRANSLATE_NOOP("CompareTexts", "mean block (cycles)"),
    "achieved_occupancy": QT_TRANSLATE_NOOP("CompareTexts", "achieved occupancy"),
    "max_resident_warps_per_sm": QT_TRANSLATE_NOOP("CompareTexts", "most warps resident on an SM"),
    "max_blocks_per_sm": QT_TRANSLATE_NOOP("CompareTexts", "most blocks live on an SM"),
    "sm_active_fraction": QT_TRANSLATE_NOOP("CompareTexts", "SMs busy (share of the kernel)"),
    "sms_alike": QT_TRANSLATE_NOOP("CompareTexts", "SMs that ran as many blocks as measured"),
    "kernel_cycles": QT_TRANSLATE_NOOP("CompareTexts", "kernel, stores complete (cycles)"),
}
VERDICT_WORDS = (  # Figure.word's verdicts
    QT_TRANSLATE_NOOP("CompareTexts", "within 5%"), QT_TRANSLATE_NOOP("CompareTexts", "within 15%"),
    QT_TRANSLATE_NOOP("CompareTexts", "within 2 points"), QT_TRANSLATE_NOOP("CompareTexts", "within 5 points"),
    QT_TRANSLATE_NOOP("CompareTexts", "off"),
)
TABLE_WORDS = (  # the table's headings and line starts
    QT_TRANSLATE_NOOP("CompareTexts", "simulated"), QT_TRANSLATE_NOOP("CompareTexts", "measured"),
    QT_TRANSLATE_NOOP("CompareTexts", "error"), QT_TRANSLATE_NOOP("CompareTexts", "dispatch:"),
    QT_TRANSLATE_NOOP("CompareTexts", "note:"),
    QT_TRANSLATE_NOOP("CompareTexts", "n/a"),  # NOT_KNOWN: a figure one side lacks
)
COMPARE_NOTES = Catalog("CompareTexts", {
    "placed": QT_TRANSLATE_NOOP("CompareTexts", "the first {n} blocks placed on the SMs the measured launch put them "
                                                "on ({placed} as measured); later blocks where the simulated "
                                                "dispatcher found room"),
    "no_first_wave": QT_TRANSLATE_NOOP("CompareTexts", "no first wave could be read from the records; the GPU's "
                                                       "order: {source}"),
    "l2_dirty": QT_TRANSLATE_NOOP("CompareTexts", "L2 starts full of dirty lines, as the launch's flush left it "
                                                  "({bytes} B written back by the kernel's first allocations)"),
}, specs={"placed": {"n": ",d", "placed": ",d"}, "l2_dirty": {"bytes": ",d"}})


def comparison_table(comparison, translate: Translate = english, style: Style | None = ENGLISH):
    """A comparison's table as words: (the column heads, a row per figure: label, simulated, measured, error,
    verdict; then the lines below it: how the blocks were placed and the notes), for a reader to lay out
    (:func:`comparison_lines` in columns of spaces, the window as a table)."""
    def word(text: str) -> str:  # not named tr: lupdate would take its calls for messages of a context
        return translate("CompareTexts", text)

    def value(x, unit: str) -> str:
        text = compared_text(x, unit, style)
        return word(text) if x is None else text

    heads = ("", word("simulated"), word("measured"), word("error"), "")
    rows = [(word(f.label), value(f.simulated, f.unit), value(f.measured, f.unit), error_text(f.error, f.unit, style),
             word(f.word) if f.word else "") for f in comparison.figures]
    below = [f"{word('dispatch:')} {translated(comparison.dispatch_note, translate, style)}"]
    below += [f"{word('note:')} {translated(n, translate, style)}" for n in comparison.notes]
    return heads, rows, below


def comparison_lines(comparison, translate: Translate = english, style: Style | None = ENGLISH) -> list[str]:
    """A comparison's table as ``measure --compare`` prints it (English, ``style`` ENGLISH): a row per figure
    (label, simulated, measured, error, verdict) in columns of spaces, then how the blocks were placed and the
    notes."""
    heads, rows, below = comparison_table(comparison, translate, style)
    w = max(len(r[0]) for r in rows)
    out = [f"    {'':{w}}  {heads[1]:>12}  {heads[2]:>12}  {heads[3]:>8}"]
    out += [f"    {a.ljust(w)}  {b:>12}  {c:>12}  {d:>8}  {e}".rstrip() for a, b, c, d, e in rows]
    out += [f"    {line}" for line in below]
    return out
