"""The text layer: the core returns data (records, codes and figures); this renders them as sentences.

Qt-free, the lowest floor of the package: the simulator, the CLI and the window all write their
sentences through it, so a figure reads the same in each (one number formatter,
:mod:`explorer.texts.numbers`) and a sentence has one English template. The window plugs a
translator in (``QCoreApplication.translate``) and the current locale's number style; the core and
the CLI render in English. Templates are marked with :func:`QT_TRANSLATE_NOOP` so that
``scripts/update_translations.py`` (``pyside6-lupdate``) collects them from here into the Russian
catalogue, the one mechanism for every translatable text in the code. Texts that are data (a lesson's
narration, a scenario's description) carry their languages in their own file, ``{ en = ..., ru = ... }``,
and are looked up by language code: one rule, so the English is never written twice.
"""

from __future__ import annotations

from typing import Callable

# (context, English template) -> the template in the interface language
Translate = Callable[[str, str], str]


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # noqa: N802 - the name lupdate looks for
    """Marks ``text`` for the translation catalogue under ``context``; returns it unchanged."""
    return text


def english(context: str, text: str) -> str:
    """The :data:`Translate` of the core and the CLI: every template as written."""
    return text
