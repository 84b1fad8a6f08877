"""Load the interface translation (``--lang``, else the system language).

Source strings are English; a language other than English loads Qt's own
``qtbase_<lang>.qm`` (standard buttons, dialogs) and ours from
``resources/i18n/warp_explorer_<lang>.qm`` when it exists. Numbers are formatted
in the same locale (``QLocale.setDefault``).
"""

from __future__ import annotations

import sys

from PySide6.QtCore import QLibraryInfo, QLocale, QTranslator
from PySide6.QtWidgets import QApplication

from explorer.paths import resource


def install_translators(app: QApplication, lang: str | None) -> list[str]:
    """Install what exists for the language; returns the catalogues loaded."""
    locale = QLocale(lang) if lang else QLocale.system()
    QLocale.setDefault(locale)
    if locale.language() == QLocale.Language.English:
        return []
    loaded = []
    qt = QTranslator(app)
    if qt.load(locale, "qtbase", "_", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
        app.installTranslator(qt)
        loaded.append("qtbase")
    ours = QTranslator(app)
    if ours.load(locale, "warp_explorer", "_", str(resource("i18n"))):
        app.installTranslator(ours)
        loaded.append("warp_explorer")
    elif lang:  # asked for explicitly: say why the window is still English
        sys.stderr.write(f"warp-explorer: no '{lang}' translation of the interface is installed; using English\n")
    return loaded
