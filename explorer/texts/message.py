"""A sentence the core writes as data: :class:`Message` is its English text *and* the record it was written from.

The core explains itself in sentences (why a GEMM's bound is what it is, what the mapper
chose for the user, what a model assumes). Written as plain strings, the window could only
translate them by recognising each sentence with a regular expression and re-stating it. A
:class:`Message` is a ``str`` (the English sentence, so JSON, the CLI and every caller that
joins or prints it need nothing else) that also carries its ``code`` and ``figures``; the
window renders the same record through its translator and number style
(:meth:`Message.translated`). A :class:`Catalog` holds one family of templates under one
translation context, with each figure's Python format spec: English is the template filled
as an f-string would fill it, so the core's sentences are what they were.
"""

from __future__ import annotations

import string
from typing import Any, Callable, Mapping

from explorer.texts import Translate, english
from explorer.texts.numbers import ENGLISH, Style, localize

_CATALOGS: dict[str, "Catalog"] = {}
# how a figure is written: a format spec, or (value, style) -> its text
Spec = str | Callable[[Any, Style | None], str]


class Catalog:
    """Templates of one context: ``templates`` code -> English template with ``{figure}`` fields; ``specs`` code ->
    figure -> format spec (``".1f"``, ``"g"``; an int's default ``"d"``, a float's ``"g"``) or a function
    ``(value, style) -> text`` where a format spec cannot say it (the number formatter's rounding, significant
    figures, an SI prefix); ``words`` figure -> value -> an English word (a code such as a term's key, translated
    under ``words_context``; a value the table lacks is shown as it is)."""

    def __init__(self, context: str, templates: Mapping[str, str], specs: Mapping[str, Mapping[str, Spec]] = None,
                 words: Mapping[str, Mapping[str, str]] = None, words_context: str | None = None):
        self.context = context
        self.templates = dict(templates)
        self.specs = {k: dict(v) for k, v in (specs or {}).items()}
        self.words = {k: dict(v) for k, v in (words or {}).items()}
        self.words_context = words_context or context
        for code, template in self.templates.items():
            fields = {f for _, f, _, _ in string.Formatter().parse(template) if f}
            extra = set(self.specs.get(code, {})) - fields
            if extra:
                raise ValueError(f"{context}.{code}: specs for fields the template lacks: {sorted(extra)}")
        _CATALOGS[context] = self

    def __call__(self, code: str, **figures) -> "Message":
        if code not in self.templates:
            raise KeyError(f"{self.context}: no template {code!r}")
        return Message(self, code, figures)

    def render(self, code: str, figures: Mapping, translate: Translate = english,
               style: Style | None = ENGLISH) -> str:
        specs = self.specs.get(code, {})
        shown = {}
        for name, value in figures.items():
            spec = specs.get(name)
            if name in self.words:
                table = self.words[name]
                shown[name] = translate(self.words_context, table[value]) if value in table else str(value)
            elif callable(spec):
                shown[name] = spec(value, style)
            elif isinstance(value, Message):
                shown[name] = value.translated(translate, style)
            elif isinstance(value, (list, tuple)):
                shown[name] = ", ".join(v.translated(translate, style) if isinstance(v, Message) else str(v)
                                        for v in value)
            elif isinstance(value, bool) or not isinstance(value, (int, float)):
                shown[name] = str(value)
            else:
                if spec is None:
                    spec = "d" if isinstance(value, int) else "g"
                shown[name] = localize(format(value, spec), style)
        return translate(self.context, self.templates[code]).format(**shown)


class Message(str):
    """The English sentence, with the record it was written from (``catalog``, ``code``, ``figures``)."""

    catalog: Catalog
    code: str
    figures: dict

    def __new__(cls, catalog: Catalog, code: str, figures: Mapping):
        text = catalog.render(code, figures)
        self = super().__new__(cls, text)
        self.catalog, self.code, self.figures = catalog, code, dict(figures)
        return self

    def translated(self, translate: Translate = english, style: Style | None = ENGLISH) -> str:
        """The sentence in ``translate``'s language and ``style``'s numbers (``style`` None: the current one)."""
        return self.catalog.render(self.code, self.figures, translate, style)

    def to_json(self) -> dict:
        return {"code": self.code, "figures": {k: (v.to_json() if isinstance(v, Message) else
                                                   [x.to_json() if isinstance(x, Message) else x for x in v]
                                                   if isinstance(v, (list, tuple)) else v)
                                               for k, v in self.figures.items()}}

    def __reduce__(self):  # pickles as its record (a str subclass would otherwise be rebuilt from its text)
        return _message, (self.catalog.context, self.code, self.figures)


def _message(context: str, code: str, figures: dict) -> Message:
    return Message(_CATALOGS[context], code, figures)


def translated(text: str, translate: Translate = english, style: Style | None = None) -> str:
    """``text`` in the interface language when the core wrote it as a :class:`Message`; as it is otherwise."""
    return text.translated(translate, style) if isinstance(text, Message) else text
