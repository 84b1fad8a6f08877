"""Where the window keeps its state between runs (QSettings), and reading it back safely.

Views never create ``QSettings()`` themselves: the main window receives one (tests
pass an INI file under a temporary directory) or asks :func:`open_settings`, which
uses the organization/application names set by :func:`set_application_names`.

A feature's state is a dict (``capture_state``); :func:`write_state` stores its
plain values under the feature's group and :func:`read_state` gives them back.
What comes back from a settings file is whatever the file says (an INI file turns
numbers and booleans into strings; a hand edit can put anything anywhere), so the
``as_*`` readers turn a value into the wanted type or give the default.
"""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QCoreApplication, QDataStream, QIODevice, QSettings

ORGANIZATION = "WarpExplorer"
ORGANIZATION_DOMAIN = "warp-explorer.invalid"
APPLICATION = "Warp Explorer"
PLAIN = (str, int, float, bool, bytes, bytearray, QByteArray)


def set_application_names(app: QCoreApplication) -> None:
    """Names QSettings uses for its default location (and the OS for the window)."""
    app.setOrganizationName(ORGANIZATION)
    app.setOrganizationDomain(ORGANIZATION_DOMAIN)
    app.setApplicationName(APPLICATION)


def open_settings() -> QSettings:
    """The user's settings, in the platform's native place."""
    return QSettings(ORGANIZATION, APPLICATION)


# -- values, whatever the file held ------------------------------------------------
def as_bytes(value) -> QByteArray | None:
    """Saved geometry/state blobs; None when absent or not bytes."""
    if isinstance(value, (bytes, bytearray)):
        value = QByteArray(bytes(value))
    return value if isinstance(value, QByteArray) else None


SPLITTER_MAGIC = 0xFF  # QSplitter::saveState()'s first word; version 1 follows, then the sizes
MAX_PANES = 64  # a splitter state claiming more panes than this is not one of ours


def splitter_sizes(value) -> list[int] | None:
    """The pane sizes a ``QSplitter.saveState()`` blob holds, or None when it is not such a blob.

    A splitter that was never laid out saves -1 for every pane; restoring that
    collapses the panes, so the caller checks the sizes before restoring them.
    """
    blob = as_bytes(value)
    if blob is None or blob.size() < 12:
        return None
    stream = QDataStream(blob, QIODevice.OpenModeFlag.ReadOnly)
    if stream.readUInt32() != SPLITTER_MAGIC or stream.readInt32() != 1:
        return None
    count = stream.readInt32()
    if not 0 <= count <= MAX_PANES:
        return None
    sizes = [stream.readInt32() for _ in range(count)]
    return sizes if stream.status() == QDataStream.Status.Ok else None


def as_str(value, default: str) -> str:
    return value if isinstance(value, str) else default


def as_int(value, default: int) -> int:
    if isinstance(value, bool):
        return int(value)
    try:
        return int(value)
    except (TypeError, ValueError, OverflowError):
        return default


def as_bool(value, default: bool) -> bool:
    if isinstance(value, str):
        return value.strip().lower() in ("true", "1", "yes")
    return bool(value) if value is not None else default


def read_bytes(settings: QSettings, key: str) -> QByteArray | None:
    return as_bytes(settings.value(key))


def read_str(settings: QSettings, key: str, default: str) -> str:
    """A string setting; anything else stored under the key (a hand edit) gives the default."""
    return as_str(settings.value(key, default), default)


# -- a feature's state as a group ----------------------------------------------------
def write_state(settings: QSettings, group: str, state: dict) -> None:
    """Store the plain values of ``state`` under ``group`` (nested dicts as subgroups; objects skipped)."""
    settings.beginGroup(group)
    try:
        for key, value in state.items():
            if isinstance(value, dict):
                write_state(settings, key, value)
            elif isinstance(value, PLAIN):
                settings.setValue(key, value)
    finally:
        settings.endGroup()


def read_state(settings: QSettings, group: str) -> dict:
    """What :func:`write_state` stored under ``group`` (values as the settings file gives them)."""
    settings.beginGroup(group)
    try:
        state = {key: settings.value(key) for key in settings.childKeys()}
        for sub in settings.childGroups():
            state[sub] = read_state(settings, sub)
        return state
    finally:
        settings.endGroup()
