"""The core's fixed texts, and the shipped data's, in the interface language.

Most core texts are marked where they are written (``explorer/texts``: scheduler policies, workload
presets, memory places, unit names) and translated here by context; a shipped data file carries its
languages itself (a scenario's description, ``Scenario.description_in``; a GEMM data type's label,
``DTypeSpec.label_in``: ``explorer/model/languages.py``), looked up by :func:`interface_language`.
The unit symbols are literal ``translate`` calls, so ``pyside6-lupdate`` finds them.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QLocale

from explorer.texts import bottleneck as bt
from explorer.texts.names import MODEL_CONTEXT, POLICY_DOC, WORKLOAD_DOC


def unit_labels() -> dict[str, str]:
    """The simulator's throughput units (``explorer.model.units.LABEL``, ``explorer.texts.bottleneck.LABEL``) and
    "latency" in the interface language: one name per unit in every view (Speed of Light, metrics, compare)."""
    return {key: QCoreApplication.translate(bt.CONTEXT, text) for key, text in bt.LABEL.items()}


def policy_doc(name: str) -> str:
    """A scheduler policy's one line (``explorer.texts.names.POLICY_DOC``) in the interface language."""
    text = POLICY_DOC.get(name)
    return QCoreApplication.translate(MODEL_CONTEXT, text) if text else ""


def workload_doc(preset: str) -> str:
    """A workload preset's one line (``explorer.texts.names.WORKLOAD_DOC``) in the interface language."""
    text = WORKLOAD_DOC.get(preset)
    return QCoreApplication.translate(MODEL_CONTEXT, text) if text else ""


def interface_language() -> str:
    """The interface language's two-letter code ("en", "ru"), from the default locale the language switch sets:
    what a data file's texts by language (a lesson's narration, a scenario's description) are looked up by."""
    return QLocale().name().split("_")[0].lower()


def limiter_names() -> dict[str, str]:
    """``explorer.occupancy.LIMITERS``: the resources that limit residency, as the metrics and GEMM views name them."""
    translate = QCoreApplication.translate
    return {
        "warps": translate("MetricsPanel", "warp slots"),
        "registers": translate("MetricsPanel", "registers"),
        "shared_memory": translate("MetricsPanel", "shared memory"),
        "blocks": translate("MetricsPanel", "block slots"),
        "barriers": translate("MetricsPanel", "named barriers"),
    }


def unit_symbols() -> dict[str, str]:
    """The unit symbols and SI prefixes the window writes (``explorer.texts.numbers.unit`` and ``si``)."""
    translate = QCoreApplication.translate
    return {
        "B": translate("Units", "B"), "kB": translate("Units", "kB"), "MB": translate("Units", "MB"),
        "GB": translate("Units", "GB"), "TB": translate("Units", "TB"), "KiB": translate("Units", "KiB"),
        "MiB": translate("Units", "MiB"), "GiB": translate("Units", "GiB"), "TiB": translate("Units", "TiB"),
        "s": translate("Units", "s"), "ms": translate("Units", "ms"), "µs": translate("Units", "µs"),
        "ns": translate("Units", "ns"), "GB/s": translate("Units", "GB/s"), "TB/s": translate("Units", "TB/s"),
        "pt": translate("Units", "pt"),  # percentage points (a share's error beside a measurement)
        # the SI prefixes and rate units of explorer.texts.numbers.si (the Speed-of-Light panel's peaks)
        "P": translate("SolTexts", "P"), "T": translate("SolTexts", "T"), "G": translate("SolTexts", "G"),
        "M": translate("SolTexts", "M"), "k": translate("SolTexts", "k"), "B/s": translate("SolTexts", "B/s"),
        "FLOP/s": translate("SolTexts", "FLOP/s"), "ops/s": translate("SolTexts", "ops/s"),
        "warp-instructions/s": translate("SolTexts", "warp-instructions/s"),
    }
