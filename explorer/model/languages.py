"""A text written in several languages in a data file, the way lessons write their narration.

``{ en = "...", ru = "..." }`` (or TOML's dotted ``key.en = ...``): English is required and is the text the core,
the CLI and the JSON use; the others are looked up by the interface's language code, English where one is
missing. Shipped data (a scenario's description, a GEMM data type's label) carries its translations this way,
next to the text itself, so the English is never written twice (the code's own texts go through the Qt
catalogue, ``explorer/texts``). A plain string is English alone.
"""

from __future__ import annotations

from typing import Callable

from explorer.model.errors import InputError, shown

Pairs = tuple[tuple[str, str], ...]


def texts_by_language(value, where: str, error: Callable[[str, str], Exception] = InputError) -> tuple[str, Pairs]:
    """(English, the other languages as sorted (code, text) pairs) of ``value``, a string or a table by language
    code; ``error(field, message)`` is raised for a table without English, a code that is not two lowercase
    letters, or a value that is not text."""
    if not isinstance(value, dict):
        if not isinstance(value, str):
            raise error(where, "must be text")
        return value, ()
    if "en" not in value:
        raise error(f"{where}.en", "missing: a table of texts by language needs the English one")
    texts = []
    for lang, text in value.items():
        if not (isinstance(lang, str) and len(lang) == 2 and lang.isascii() and lang.isalpha() and lang.islower()):
            raise error(f"{where}.{shown(lang)}", "is not a two-letter language code (en, ru)")
        if not isinstance(text, str):
            raise error(f"{where}.{lang}", "must be text")
        texts.append((lang, text))
    english = dict(texts)["en"]
    return english, tuple(sorted(pair for pair in texts if pair[0] != "en"))


def text_in(english: str, others: Pairs, lang: str) -> str:
    """The text in ``lang``; English where there is none in it."""
    return dict(others).get(lang, english)
