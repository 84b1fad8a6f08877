"""The GEMM model's own sentences and names in the interface language.

The core (``explorer.gemm``) explains a plan: why the bound is what it is
(``GemmPlan.bound_reason``), why a simulation of its main loop differs
(``simulation_differences``), what it chose for the user (``notes``), what the
attention comparison assumes. Each is a :class:`explorer.texts.message.Message`:
the English sentence and the record (template code, figures) it was written from,
so the window renders the same record through its translator
(``explorer/texts/gemm.py`` holds the templates). Paths and schedules are names; a
boundary's traffic path is its place codes, worded by ``explorer.texts.gemm.path_text``.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from explorer.texts.gemm import path_text
from explorer.texts.message import translated


def path_names() -> dict[str, str]:
    """The main-loop paths (``Pipeline.path``) in a few words."""
    translate = QCoreApplication.translate
    return {"wgmma": translate("GemmModelTexts", "wgmma + TMA"), "mma.sync": "mma.sync",
            "simt": translate("GemmModelTexts", "SIMT (FFMA)")}


def schedule_names() -> dict[str, str]:
    """``Pipeline.schedule`` values."""
    translate = QCoreApplication.translate
    return {"cooperative": translate("GemmModelTexts", "cooperative"),
            "pingpong": translate("GemmModelTexts", "ping-pong"),
            "warp-specialized": translate("GemmModelTexts", "warp-specialized"),
            "multistage": translate("GemmModelTexts", "multistage")}


def _translate(context: str, text: str) -> str:
    return QCoreApplication.translate(context, text)


def model_text(sentence: str) -> str:
    """One of the GEMM or attention model's sentences (``GemmPlan.bound_reason``, ``simulation_differences``,
    ``notes``; ``AttentionComparison.assumptions``, ``notes``) in the interface language and number style: the
    record the core wrote it from, rendered with the window's translator. A plain string is shown as written."""
    return translated(sentence, _translate, None)


def traffic_path(places, via: str | None = None) -> str:
    """A boundary's path (``LevelTraffic.places`` and ``via``) in the interface language, with arrows:
    "L2 → shared memory (TMA)"."""
    return path_text(places, via, _translate, " → ")
