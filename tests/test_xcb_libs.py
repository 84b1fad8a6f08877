"""The xcb plugin's missing libraries, from ldd's own output (issue 14 item 3).

The outputs below are ldd's format ("NAME => PATH (ADDR)", "NAME => not found");
the package names are Debian's and Ubuntu's as their archives spell them.
"""

from __future__ import annotations

import types

import pytest

from explorer.gui.shell import xcb_libs

LDD_TWO_MISSING = """\
\tlinux-vdso.so.1 (0x00007ffd3b5f2000)
\tlibQt6XcbQpa.so.6 => /venv/PySide6/Qt/lib/libQt6XcbQpa.so.6 (0x00007f0c7a000000)
\tlibxcb-cursor.so.0 => /lib/x86_64-linux-gnu/libxcb-cursor.so.0 (0x00007f0c79e00000)
\tlibxcb-icccm.so.4 => not found
\tlibxcb-keysyms.so.1 => not found
\tlibxkbcommon-x11.so.0 => /lib/x86_64-linux-gnu/libxkbcommon-x11.so.0 (0x00007f0c79c00000)
\tlibxcb-icccm.so.4 => not found
\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f0c79800000)
"""
LDD_ALL_FOUND = "\tlibxcb-cursor.so.0 => /lib/x86_64-linux-gnu/libxcb-cursor.so.0 (0x00007f0c79e00000)\n"


@pytest.fixture
def plugin(tmp_path):
    path = tmp_path / "Qt" / "plugins" / "platforms" / "libqxcb.so"
    path.parent.mkdir(parents=True)
    path.write_bytes(b"\x7fELF")
    return path


@pytest.mark.parametrize("soname, package", [
    ("libxcb-icccm.so.4", "libxcb-icccm4"), ("libxcb-keysyms.so.1", "libxcb-keysyms1"),
    ("libxcb-cursor.so.0", "libxcb-cursor0"), ("libxkbcommon-x11.so.0", "libxkbcommon-x11-0"),
    ("libxcb-render-util.so.0", "libxcb-render-util0"), ("libEGL.so.1", "libegl1"), ("libX11-xcb.so.1", "libx11-xcb1"),
    ("libdbus-1.so.3", "libdbus-1-3"), ("libglib-2.0.so.0", "libglib2.0-0"),
])
def test_package_names(soname, package):
    assert xcb_libs.package_of(soname) == package


def test_names_only_what_ldd_cannot_find(plugin):
    seen = []

    def fake_ldd(path):
        seen.append(path)
        return LDD_TWO_MISSING

    assert xcb_libs.missing_libraries(plugin, fake_ldd) == ["libxcb-icccm.so.4", "libxcb-keysyms.so.1"]
    assert seen == [plugin]  # the plugin's path, as given: one plain argument
    line = xcb_libs.missing_line(plugin, fake_ldd)
    assert "\n" not in line and "libxcb-cursor" not in line  # not Qt's guess: it is installed
    assert line.endswith("sudo apt-get install libxcb-icccm4 libxcb-keysyms1")
    assert "libxcb-icccm.so.4, libxcb-keysyms.so.1" in line


def test_nothing_missing_or_no_ldd_or_no_plugin(plugin, tmp_path):
    assert xcb_libs.missing_line(plugin, lambda _p: LDD_ALL_FOUND) is None
    assert xcb_libs.missing_line(plugin, lambda _p: None) is None
    assert xcb_libs.missing_line(tmp_path / "absent.so", lambda _p: LDD_TWO_MISSING) is None


def test_ldd_gets_the_path_as_one_argument_without_a_shell(monkeypatch, tmp_path):
    odd = tmp_path / "dir with space; $(touch pwned)" / "libqxcb.so"
    calls = []

    def fake_run(args, **kwargs):
        calls.append((args, kwargs))
        return types.SimpleNamespace(returncode=0, stdout=LDD_TWO_MISSING)

    monkeypatch.setattr(xcb_libs.subprocess, "run", fake_run)
    assert xcb_libs.not_found(xcb_libs.run_ldd(odd)) == ["libxcb-icccm.so.4", "libxcb-keysyms.so.1"]
    (args, kwargs), = calls
    assert args == ["ldd", str(odd)] and not kwargs.get("shell") and kwargs["timeout"] > 0


def test_ldd_absent_is_no_answer(monkeypatch, tmp_path):
    def absent(*_a, **_k):
        raise FileNotFoundError("ldd")

    monkeypatch.setattr(xcb_libs.subprocess, "run", absent)
    assert xcb_libs.run_ldd(tmp_path / "libqxcb.so") is None


def test_the_real_plugin_on_this_machine():
    """ldd itself on the installed wheel's plugin: whatever it lists is what the line would name."""
    from explorer.gui.shell.app import xcb_plugin_path

    path = xcb_plugin_path()
    if not path.is_file():
        pytest.skip("this PySide6 has no xcb plugin")
    output = xcb_libs.run_ldd(path)
    if output is None:
        pytest.skip("no ldd here")
    assert xcb_libs.missing_libraries(path) == xcb_libs.not_found(output)
