"""The Speed-of-Light texts in the interface language: unit names, what each unit does, the bottleneck's sentence.

The simulator (``explorer.sim.bottleneck``) returns its answer to "what limits useful
work?" as a record (the unit, its share of the peak, a reason code and the figures it
cites); ``explorer.texts.bottleneck`` words that record, in English for the CLI and the
JSON contract, and here in the interface language with its number style: the same
templates through ``QCoreApplication.translate`` (``pyside6-lupdate`` collects them from
``explorer/texts``). Unit meanings are literal ``translate`` calls.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from explorer.sim.bottleneck import busy_code
from explorer.texts import bottleneck as bt
from explorer.texts.names import UNIT_CONTEXT, UNIT_MEANING


def _translate(context: str, text: str) -> str:
    return QCoreApplication.translate(context, text)


def short_labels() -> dict[str, str]:
    """Unit names short enough for the unit-use strip's rows."""
    translate = QCoreApplication.translate
    return {
        "issue": translate("SolTexts", "issue"), "fp32": translate("SolTexts", "fp32"), "int": translate("SolTexts", "int"),
        "sfu": translate("SolTexts", "sfu"), "tensor": translate("SolTexts", "tensor"), "lsu": translate("SolTexts", "lsu"),
        "l1": translate("SolTexts", "l1"), "shared": translate("SolTexts", "shared"), "l2": translate("SolTexts", "l2"),
        "dram": translate("SolTexts", "dram"), "latency": translate("SolTexts", "latency", "a short row name"),
    }


def unit_meanings() -> dict[str, str]:
    """``explorer.model.units.MEANING`` (what each unit does, one sentence) in the interface language."""
    return {key: _translate(UNIT_CONTEXT, text) for key, text in UNIT_MEANING.items()}


def busy_text(share: float) -> str:
    """How often a unit at ``share`` of its peak is busy, by the simulator's one rule (``busy_code``), in the
    interface language: what the CLI's sentence says of the same share."""
    return _translate(bt.CONTEXT, bt.BUSY[busy_code(share)])


def bottleneck_head(summary: dict) -> str:
    """The sentence's head alone ("DRAM at 85% of 3.35 TB/s", "no unit above 42% (DRAM)"): the short form a
    column too short for the whole sentence shows."""
    b = summary["bottleneck"]
    if "reason" not in b:  # a summary written before the record existed: its English head
        return str(b.get("why", "")).partition(": ")[0]
    return bt.head(b, _translate, None)


def bottleneck_text(summary: dict) -> str:
    """The run's bottleneck in one sentence, in the interface language, from the simulator's record."""
    b = summary["bottleneck"]
    if "reason" not in b:
        return str(b.get("why", ""))
    return bt.sentence(b, _translate, None)
