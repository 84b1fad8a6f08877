"""Load the interface translation (``--lang``, else the saved choice, else the system language).

Source strings are English; a language other than English loads Qt's own
``qtbase_<lang>.qm`` (standard buttons, dialogs) and ours from
``resources/translations/warp_explorer_<lang>.qm`` when it exists. Numbers are
formatted in the same locale (``QLocale.setDefault``, and ``explorer.texts.numbers`` for the
views that format numbers in Python).

Calling :func:`install_translators` again replaces what an earlier call
installed, so the language can change while the app runs (View > Language
rebuilds the main window in the new language: ``explorer.gui.shell.language``).
The sources are kept up to date by ``scripts/update_translations.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

from explorer.gui.common.core_texts import interface_language
from explorer.texts import numbers
from explorer.paths import resource

# Languages the interface is shipped in: code -> its own name (menus show each in itself).
LANGUAGES = {"en": "English", "ru": "Русский"}
CATALOGUE = "warp_explorer"
SETTINGS_KEY = "view/language"  # "en", "ru"; absent: the system language

_installed: list[QTranslator] = []  # what the last install_translators call installed


def translations_dir():
    return resource("translations")


def saved_language(settings=None) -> str | None:
    """The language chosen in View > Language (None: never chosen, follow the system)."""
    if settings is None:
        if QCoreApplication.instance() is None:
            return None
        from explorer.gui.common.settings import open_settings

        settings = open_settings()
    value = settings.value(SETTINGS_KEY, "")
    return value if isinstance(value, str) and value in LANGUAGES else None


def current_language() -> str:
    """The interface language now: "ru" when the default locale is Russian, else "en"."""
    code = interface_language()
    return code if code in LANGUAGES else "en"


def _qt_translation_dirs() -> list[str]:
    """Where Qt's own catalogues are: Qt's configured path, then PySide6's folder (a frozen bundle)."""
    dirs = [QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)]
    try:
        import PySide6

        dirs.append(str(Path(PySide6.__file__).resolve().parent / "Qt" / "translations"))
    except (ImportError, TypeError):
        pass
    return dirs


def remove_translators(app: QCoreApplication) -> None:
    """Uninstall what :func:`install_translators` installed (the interface goes back to English)."""
    while _installed:
        translator = _installed.pop()
        try:
            app.removeTranslator(translator)
            translator.deleteLater()
        except RuntimeError:  # already deleted by someone else (a test tidying the app)
            pass


def install_translators(app: QCoreApplication, lang: str | None) -> list[str]:
    """Install what exists for the language; returns the catalogues loaded.

    ``lang`` None means the choice saved in the user's settings, else the system language.
    """
    remove_translators(app)
    if not lang:
        lang = saved_language()
    locale = QLocale(lang) if lang else QLocale.system()
    QLocale.setDefault(locale)
    if locale.language() == QLocale.Language.English:
        return []
    loaded = []
    qt = QTranslator(app)
    if any(qt.load(locale, "qtbase", "_", folder) for folder in _qt_translation_dirs()):
        app.installTranslator(qt)
        _installed.append(qt)
        loaded.append("qtbase")
    else:
        qt.deleteLater()
    ours = QTranslator(app)
    if ours.load(locale, CATALOGUE, "_", str(translations_dir())):
        app.installTranslator(ours)
        _installed.append(ours)
        loaded.append(CATALOGUE)
    else:
        ours.deleteLater()
        if lang:  # asked for explicitly: say why the window is still English
            sys.stderr.write(f"warp-explorer: no '{lang}' translation of the interface is installed; using English\n")
    return loaded


def number_style() -> tuple[str, str, object]:
    """The default locale's separators and the unit symbols in the interface language (explorer.texts.numbers)."""
    from explorer.gui.common.core_texts import unit_symbols

    locale = QLocale()
    return locale.groupSeparator(), locale.decimalPoint(), lambda symbol: unit_symbols().get(symbol, symbol)


numbers.set_style_source(number_style)
