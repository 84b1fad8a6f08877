"""Light and dark themes, following the system colour scheme by default.

The app uses the Fusion style with an explicit palette on every platform, so a
lecture laptop, a Windows desktop and the offscreen test platform draw the same
colours. "System" reads ``QStyleHints.colorScheme()`` and follows its changes;
"light"/"dark" pin the palette (and, on Qt ≥ 6.8, ask the platform to match the
window frame). Plots take their background/foreground from the same theme:
pyqtgraph's config options cover plots created later, and ``ThemeManager.changed``
lets existing views recolour themselves.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication

from explorer.gui.common import palette as oi

MODES = ("system", "light", "dark")


@dataclass(frozen=True)
class Theme:
    """The colours of one theme; semantic names, Okabe–Ito values for meaning."""

    name: str
    dark: bool
    window: str
    window_text: str
    base: str
    alternate_base: str
    text: str
    button: str
    button_text: str
    mid: str
    disabled_text: str
    highlight: str
    highlighted_text: str
    link: str
    tooltip_base: str
    tooltip_text: str
    plot_background: str
    plot_foreground: str
    curve: str  # the occupancy curves
    marker: str  # the current configuration on a curve
    error: str  # invalid-field border
    error_text: str  # error messages (lighter on dark backgrounds, for contrast)
    limiter: str  # background tint of a limiting resource (text marks it too)

    def palette(self) -> QPalette:
        p = QPalette()
        roles = {
            QPalette.ColorRole.Window: self.window,
            QPalette.ColorRole.WindowText: self.window_text,
            QPalette.ColorRole.Base: self.base,
            QPalette.ColorRole.AlternateBase: self.alternate_base,
            QPalette.ColorRole.Text: self.text,
            QPalette.ColorRole.Button: self.button,
            QPalette.ColorRole.ButtonText: self.button_text,
            QPalette.ColorRole.BrightText: oi.VERMILLION,
            QPalette.ColorRole.Mid: self.mid,
            QPalette.ColorRole.Light: self.button if self.dark else "#FFFFFF",
            QPalette.ColorRole.Midlight: self.mid if self.dark else "#F4F4F4",
            QPalette.ColorRole.Dark: "#1A1A1A" if self.dark else "#A0A0A0",
            QPalette.ColorRole.Shadow: "#000000" if self.dark else "#707070",
            QPalette.ColorRole.Highlight: self.highlight,
            QPalette.ColorRole.HighlightedText: self.highlighted_text,
            QPalette.ColorRole.Link: self.link,
            QPalette.ColorRole.LinkVisited: self.link,
            QPalette.ColorRole.ToolTipBase: self.tooltip_base,
            QPalette.ColorRole.ToolTipText: self.tooltip_text,
            QPalette.ColorRole.PlaceholderText: self.disabled_text,
        }
        for role, color in roles.items():
            p.setColor(role, QColor(color))
        for role in (QPalette.ColorRole.WindowText, QPalette.ColorRole.Text, QPalette.ColorRole.ButtonText):
            p.setColor(QPalette.ColorGroup.Disabled, role, QColor(self.disabled_text))
        return p

    def style_sheet(self) -> str:
        """Rules keyed on dynamic properties, so a theme switch restyles every view."""
        return f"""
QLineEdit[invalid="true"] {{ border: 2px solid {self.error}; border-radius: 3px; padding: 1px 3px; }}
QLabel[role="error"] {{ color: {self.error_text}; }}
QLabel[role="big-number"] {{ font-size: 28pt; font-weight: bold; }}
QLabel[role="limit"] {{ padding: 1px 4px; }}
QLabel[role="limiter"] {{ font-weight: bold; background: {self.limiter}; padding: 1px 4px; }}
QLabel[role="muted"] {{ color: {self.disabled_text}; }}
"""


LIGHT = Theme(
    name="light",
    dark=False,
    window="#EFEFEF",
    window_text="#1A1A1A",
    base="#FFFFFF",
    alternate_base="#F5F5F5",
    text="#1A1A1A",
    button="#E6E6E6",
    button_text="#1A1A1A",
    mid="#B8B8B8",
    disabled_text="#6E6E6E",
    highlight=oi.BLUE,
    highlighted_text="#FFFFFF",
    link=oi.BLUE,
    tooltip_base="#FFFFF0",
    tooltip_text="#1A1A1A",
    plot_background="#FFFFFF",
    plot_foreground="#333333",
    curve=oi.BLUE,
    marker=oi.VERMILLION,
    error=oi.VERMILLION,
    error_text="#B34F00",  # Okabe–Ito vermillion, darkened for text contrast on white
    limiter="rgba(213, 94, 0, 40)",
)

DARK = Theme(
    name="dark",
    dark=True,
    window="#2B2B2B",
    window_text="#E6E6E6",
    base="#1E1E1E",
    alternate_base="#262626",
    text="#E6E6E6",
    button="#3A3A3A",
    button_text="#E6E6E6",
    mid="#555555",
    disabled_text="#9A9A9A",
    highlight=oi.BLUE,
    highlighted_text="#FFFFFF",
    link=oi.SKY_BLUE,
    tooltip_base="#3A3A3A",
    tooltip_text="#E6E6E6",
    plot_background="#1E1E1E",
    plot_foreground="#D0D0D0",
    curve=oi.SKY_BLUE,
    marker=oi.ORANGE,
    error=oi.VERMILLION,
    error_text="#F3935A",  # vermillion, lightened for text contrast on dark grey
    limiter="rgba(213, 94, 0, 90)",
)

THEMES = {"light": LIGHT, "dark": DARK}


def system_prefers_dark(app: QApplication) -> bool:
    """The platform's colour scheme (Qt ≥ 6.5); unknown counts as light."""
    hints = app.styleHints()
    scheme = getattr(hints, "colorScheme", None)
    return scheme is not None and scheme() == Qt.ColorScheme.Dark


def set_app_theme(app: QApplication, theme: Theme) -> None:
    """The app's palette, style sheet and plot colours to ``theme``, setting only what differs: the app
    re-polishes every widget it has on each set (~0.45 s for a whole window here), and a language switch
    builds its new window while the old one, with every widget, is still there (1.1 of its 2.1 s)."""
    import pyqtgraph as pg  # the window needs it anyway; keep this module light to import

    palette = theme.palette()
    if app.palette() != palette:
        app.setPalette(palette)
    sheet = theme.style_sheet()
    if app.styleSheet() != sheet:
        app.setStyleSheet(sheet)
    pg.setConfigOptions(background=theme.plot_background, foreground=theme.plot_foreground, antialias=True)


def restyle(widget) -> None:
    """Re-evaluate style-sheet rules after a dynamic property changed."""
    style = widget.style()
    style.unpolish(widget)
    style.polish(widget)
    widget.update()


class ThemeManager(QObject):
    """Owns the app's theme mode; applies palette, style sheet and plot colours."""

    changed = Signal(object)  # the Theme now in effect

    def __init__(self, app: QApplication, mode: str = "system", parent: QObject | None = None):
        super().__init__(parent)
        self._app = app
        self._mode = mode if mode in MODES else "system"
        self._theme = LIGHT
        # once per app: a rebuilt window (a language switch) finds it set (the style sheet's proxy style hides
        # the name, so the app remembers it), and a set re-polishes every widget of the window still open
        if app.property("warp_explorer_style") != "Fusion":
            app.setStyle("Fusion")
            app.setProperty("warp_explorer_style", "Fusion")
        hints = app.styleHints()
        if hasattr(hints, "colorSchemeChanged"):
            hints.colorSchemeChanged.connect(self._on_system_scheme_changed)
        self.apply()

    @property
    def mode(self) -> str:
        return self._mode

    @property
    def theme(self) -> Theme:
        return self._theme

    def set_mode(self, mode: str) -> None:
        if mode not in MODES:
            raise ValueError(f"theme mode must be one of {MODES}, not {mode!r}")
        if mode != self._mode:
            self._mode = mode
            self._pin_platform_scheme()
            self.apply()

    def resolve(self) -> Theme:
        if self._mode == "system":
            return DARK if system_prefers_dark(self._app) else LIGHT
        return THEMES[self._mode]

    def apply(self) -> None:
        theme = self.resolve()
        self._theme = theme
        set_app_theme(self._app, theme)
        self.changed.emit(theme)

    def _pin_platform_scheme(self) -> None:
        """Ask the platform (Qt ≥ 6.8) for a matching window frame; harmless where unsupported."""
        hints = self._app.styleHints()
        if self._mode == "system":
            if hasattr(hints, "unsetColorScheme"):
                hints.unsetColorScheme()
        elif hasattr(hints, "setColorScheme"):
            hints.setColorScheme(Qt.ColorScheme.Dark if self._mode == "dark" else Qt.ColorScheme.Light)

    def _on_system_scheme_changed(self, _scheme) -> None:
        if self._mode == "system" and self.resolve() is not self._theme:
            self.apply()
