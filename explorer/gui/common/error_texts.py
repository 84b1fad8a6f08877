"""The core's validation messages in the interface language.

The core (``explorer.model``, ``explorer.occupancy``, ``explorer.gemm``, the kernel
executor's arguments) writes each ``InputError`` message from a template of
``explorer/texts/errors.py``: the message is a :class:`~explorer.texts.message.Message`,
the English line the CLI prints and the record (code, figures) it was written from.
The window renders that record through ``QCoreApplication.translate`` and the
current number style, so a Russian lecture shows "300 больше максимума 255" with
the same figures. A message written as a plain string (a rare one, or one cut
because it quoted a very long input) is shown as the core wrote it: correct, only
untranslated. ``tests/gui/common/test_error_texts.py`` produces every template
from the real validators.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from explorer.texts.message import Message


def _translate(context: str, text: str) -> str:
    return QCoreApplication.translate(context, text)


def core_message(message: str | None) -> str | None:
    """``message`` (an ``InputError.message``) in the interface language; a plain string unchanged."""
    if not isinstance(message, Message):
        return message
    try:
        return message.translated(_translate, None)
    except (KeyError, IndexError, ValueError):  # a translation that dropped or renamed a placeholder
        return str(message)


def core_error(field: str, message: str) -> str:
    """``field: message`` with the message translated (the field is a scenario key, kept as is)."""
    text = core_message(message) or ""
    return f"{field}: {text}" if field else text
