"""Where the window keeps its state between runs (QSettings).

Views never create ``QSettings()`` themselves: the main window receives one (tests
pass an INI file under a temporary directory) or asks :func:`open_settings`, which
uses the organization/application names set by :func:`set_application_names`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QCoreApplication, QSettings

if TYPE_CHECKING:
    from PySide6.QtWidgets import QSplitter

ORGANIZATION = "WarpExplorer"
ORGANIZATION_DOMAIN = "warp-explorer.invalid"
APPLICATION = "Warp Explorer"


def set_application_names(app: QCoreApplication) -> None:
    """Names QSettings uses for its default location (and the OS for the window)."""
    app.setOrganizationName(ORGANIZATION)
    app.setOrganizationDomain(ORGANIZATION_DOMAIN)
    app.setApplicationName(APPLICATION)


def open_settings() -> QSettings:
    """The user's settings, in the platform's native place."""
    return QSettings(ORGANIZATION, APPLICATION)


def read_bytes(settings: QSettings, key: str) -> QByteArray | None:
    """Saved geometry/state blobs; None when absent or not bytes."""
    value = settings.value(key)
    if isinstance(value, (bytes, bytearray)):
        value = QByteArray(bytes(value))
    return value if isinstance(value, QByteArray) else None


def read_str(settings: QSettings, key: str, default: str) -> str:
    """A string setting; anything else stored under the key (a hand edit) gives the default."""
    value = settings.value(key, default)
    return value if isinstance(value, str) else default


def save_splitters(settings: QSettings, splitters: dict[str, QSplitter]) -> None:
    """Each splitter's sizes under its key (in the settings' current group)."""
    for key, splitter in splitters.items():
        settings.setValue(key, splitter.saveState())


def restore_splitters(settings: QSettings, splitters: dict[str, QSplitter]) -> bool:
    """Give each splitter its saved sizes; True when at least one was restored."""
    restored = False
    for key, splitter in splitters.items():
        state = read_bytes(settings, key)
        if state is not None and splitter.restoreState(state):
            restored = True
    return restored
