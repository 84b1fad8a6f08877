"""Themes and the Okabe–Ito palette."""

from __future__ import annotations

import pyqtgraph as pg
import pytest
from PySide6.QtGui import QPalette

from explorer.gui.common import palette
from explorer.gui.common.theme import DARK, LIGHT, ThemeManager, set_app_theme


def test_okabe_ito_constants():
    assert palette.OKABE_ITO == (
        "#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#000000",
    )
    assert palette.VERMILLION == "#D55E00" and palette.BLUE == "#0072B2"


def test_meaningful_colours_come_from_the_palette():
    for theme in (LIGHT, DARK):
        assert theme.curve in palette.OKABE_ITO
        assert theme.marker in palette.OKABE_ITO
        assert theme.error in palette.OKABE_ITO


def test_manager_applies_modes(qapp, light_theme):
    manager = ThemeManager(qapp, "dark")
    seen = []
    manager.changed.connect(seen.append)
    assert manager.theme is DARK
    assert qapp.palette().color(QPalette.ColorRole.Base).name().upper() == DARK.base
    assert pg.getConfigOption("background") == DARK.plot_background
    manager.set_mode("light")
    assert seen == [LIGHT]
    assert qapp.palette().color(QPalette.ColorRole.Base).name().upper() == LIGHT.base
    manager.set_mode("system")  # the offscreen platform reports no preference: light
    assert manager.theme is LIGHT
    with pytest.raises(ValueError):
        manager.set_mode("sepia")
    manager.deleteLater()


def test_unknown_mode_from_settings_means_system(qapp, light_theme):
    manager = ThemeManager(qapp, "purple")
    assert manager.mode == "system"
    manager.deleteLater()


def test_setting_the_theme_in_effect_again_sets_nothing(qapp, light_theme, monkeypatch):
    """Each palette or style-sheet set re-polishes every widget the app has (~0.45 s for a window): the theme
    in effect set again must not set either, a different one sets both."""
    set_app_theme(qapp, LIGHT)
    calls = []
    monkeypatch.setattr(qapp, "setPalette", lambda p: calls.append("palette"))
    monkeypatch.setattr(qapp, "setStyleSheet", lambda s: calls.append("sheet"))
    set_app_theme(qapp, LIGHT)
    assert calls == []
    set_app_theme(qapp, DARK)
    assert calls == ["palette", "sheet"]
