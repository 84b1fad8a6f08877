"""Bad files through every way the window opens files: one message each, nothing changes, no exception escapes.

The ways in: File > Open (the dialog's path), Open Recent, drag-and-drop, and the
occupancy calculator's ``.cu`` row (its own dialog). The files: a FIFO (reading one
would block), ``/dev/zero`` behind a link, a folder, a symlink loop, an oversized
file, binary bytes, TOML nested thousands deep, a list and a table where the
workload preset's name belongs, a 5000-digit integer, and malformed ``.npz``
measurements. ``sys.excepthook`` fails the test if anything reaches the event loop.
"""

from __future__ import annotations

import io
import os
import sys
import threading
import traceback
import zipfile
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox

from tests.gui.support import wait_run

HAS_FIFO = hasattr(os, "mkfifo")


@pytest.fixture
def no_exception_escapes(monkeypatch):
    """An excepthook that records what reached the event loop; the test fails on any."""
    escaped: list[str] = []
    monkeypatch.setattr(sys, "excepthook", lambda kind, value, tb: escaped.append(
        "".join(traceback.format_exception(kind, value, tb))))
    yield escaped
    assert not escaped, "an exception reached the event loop:\n" + "\n".join(escaped)


def _fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


def _npz(path: Path, **arrays) -> Path:
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    path.write_bytes(buffer.getvalue())
    return path


def scenario_files(tmp: Path) -> dict[str, Path]:
    d = tmp / "toml"
    d.mkdir()
    files = {
        "deep arrays": "a = " + "[" * 3000 + "]" * 3000 + "\n",
        "deep tables": "a = " + "{b = " * 600 + "1" + "}" * 600 + "\n",
        "list preset": 'gpu = "H100"\n[workload]\npreset = ["stream"]\n',
        "table preset": 'gpu = "H100"\n[workload]\npreset = {a = 1}\n',
        "5000 digits": 'gpu = "H100"\nseed = ' + "9" * 5000 + "\n",
        "5000-digit grid": 'gpu = "H100"\n[launch]\ngrid = [' + "9" * 5000 + ", 1, 1]\n",
        "gpu list": 'gpu = ["H100"]\n',
        "bad TOML": "gpu = 'H100'\n[launch\n",
    }
    out = {}
    for i, (what, text) in enumerate(files.items()):
        out[what] = d / f"bad{i}.toml"
        out[what].write_text(text, encoding="utf-8")
    out["binary"] = d / "binary.toml"
    out["binary"].write_bytes(b"\xff\xfe\x00garbage\x80")
    out["oversized"] = d / "big.toml"
    with open(out["oversized"], "wb") as fh:
        fh.truncate(64 << 20)  # sparse: 64 MB of zeros, far over the 1 MB cap
    out["folder"] = d / "folder.toml"
    out["folder"].mkdir()
    out["loop"] = d / "loop.toml"
    out["loop"].symlink_to(d / "loop.toml")
    out["dev zero"] = d / "zero.toml"
    out["dev zero"].symlink_to("/dev/zero")
    if HAS_FIFO:
        out["fifo"] = _fifo(d / "pipe.toml")
    return out


def measurement_files(tmp: Path) -> dict[str, Path]:
    d = tmp / "npz"
    d.mkdir()
    out = {}
    out["not a zip"] = d / "broken.npz"
    out["not a zip"].write_bytes(b"PK\x03\x04 this is not really a zip")
    out["empty"] = d / "empty.npz"
    out["empty"].write_bytes(b"")
    out["no format"] = _npz(d / "noformat.npz", x=np.arange(3))
    out["pickled"] = _npz(d / "pickle.npz", format=np.array("warp-explorer-measurement"),
                          meta=np.array([{"a": 1}], dtype=object))
    out["bad meta"] = _npz(d / "meta.npz", format=np.array("warp-explorer-measurement"), version=np.array(float("inf")),
                           meta_json=np.array('{"device": "x", "nvml": [1, 2], "kernel": {"registers": "many"}}'))
    zbuf = io.BytesIO()
    with zipfile.ZipFile(zbuf, "w") as z:
        z.writestr("format.npy", b"\x93NUMPY garbage header")
    out["damaged member"] = d / "damaged.npz"
    out["damaged member"].write_bytes(zbuf.getvalue())
    out["folder"] = d / "folder.npz"
    out["folder"].mkdir()
    out["dev zero"] = d / "zero.npz"
    out["dev zero"].symlink_to("/dev/zero")
    return out


def _measurement_loader_refuses_fifos(folder: Path) -> bool:
    """Whether ``load_measurement`` refuses a FIFO rather than blocking on it (issue 12.3, a core fix).

    Tried in a thread that a writer unblocks, so a loader that still opens FIFOs costs a second, not a hang."""
    from explorer.gpu.measurement import load_measurement

    fifo = _fifo(folder / "probe.npz")
    result = []

    def attempt():
        try:
            load_measurement(fifo)
        except Exception as exc:  # noqa: BLE001 - any refusal counts
            result.append(exc)

    thread = threading.Thread(target=attempt, daemon=True)
    thread.start()
    thread.join(1.0)
    if thread.is_alive():  # blocked in open(): let it go
        fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        os.close(fd)
        thread.join(5)
    fifo.unlink()
    return bool(result) and "regular" in str(result[0])


def cuda_files(tmp: Path) -> dict[str, Path]:
    d = tmp / "cu"
    d.mkdir()
    out = {"binary": d / "binary.cu", "no kernel": d / "helpers.cu", "oversized": d / "big.cu",
           "folder": d / "folder.cu", "dev zero": d / "zero.cu"}
    out["binary"].write_bytes(b"\xff\xfe\x00\x80")
    out["no kernel"].write_text("__device__ int twice(int x) { return 2 * x; }\n", encoding="utf-8")
    with open(out["oversized"], "wb") as fh:
        fh.truncate(64 << 20)
    out["folder"].mkdir()
    out["dev zero"].symlink_to("/dev/zero")
    if HAS_FIFO:
        out["fifo"] = _fifo(d / "pipe.cu")
    return out


def _close_messages() -> None:
    for box in [w for w in QApplication.topLevelWidgets() if isinstance(w, QMessageBox) and w.isVisible()]:
        box.close()


def _drop(window, path: Path) -> None:
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path))])
    window.dropEvent(QDropEvent(QPointF(QPoint(40, 40)), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                                Qt.KeyboardModifier.NoModifier))


def _via_dialog(window, monkeypatch, path: Path) -> None:
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), ""))
    window.open_dialog()


def _via_recent(window, path: Path) -> None:
    """The file as an Open Recent entry (it was a good file once: the list holds its name as it was)."""
    from explorer.gui.files.scenario_files import RECENT_KEY

    files = window.feature("files")
    window.settings.setValue(RECENT_KEY, [str(path)])
    files.recent_menu.aboutToShow.emit()
    (entry,) = [a for a in files.recent_menu.actions() if a.data()]
    entry.trigger()


WAYS = ("dialog", "recent", "drop")


def _open(window, monkeypatch, way: str, path: Path) -> None:
    if way == "dialog":
        _via_dialog(window, monkeypatch, path)
    elif way == "recent":
        _via_recent(window, path)
    else:
        _drop(window, path)


@pytest.mark.parametrize("way", WAYS)
def test_bad_scenario_files(window, qtbot, tmp_path, monkeypatch, way, no_exception_escapes):
    page = window.explorer
    wait_run(qtbot, page)
    page.panel.fields["regs"].set_text("40")
    page.apply_edits()
    before, texts, steps = page.workspace.session.scenario, page.panel.texts(), len(page.workspace.commands.done)
    files = window.feature("files")
    for what, path in scenario_files(tmp_path).items():
        files.last_message = None
        _open(window, monkeypatch, way, path)
        QApplication.processEvents()
        box = files.last_message
        assert box is not None and box.isVisible(), f"{what}: no message"
        assert path.name in box.text() + box.windowTitle(), f"{what}: {box.text()!r}"
        assert sum(isinstance(w, QMessageBox) and w.isVisible() for w in QApplication.topLevelWidgets()) == 1, what
        _close_messages()
        assert page.workspace.session.scenario == before and page.panel.texts() == texts, what
        assert len(page.workspace.commands.done) == steps, what
    assert not page.workspace.session.simulating or page.workspace.session.pending == before


@pytest.mark.parametrize("way", WAYS)
def test_bad_measurement_files(window, qtbot, tmp_path, monkeypatch, way, no_exception_escapes):
    page = window.explorer
    wait_run(qtbot, page)
    gpu = window.feature("gpu")
    before = page.workspace.session.scenario
    for what, path in measurement_files(tmp_path).items():
        gpu.last_message = ("", "")
        _open(window, monkeypatch, way, path)
        qtbot.waitUntil(lambda: not gpu.opening, timeout=15_000)  # read in a worker: the window never waits
        kind, text = gpu.last_message
        assert kind == "error" and path.name in text, f"{what}: {text!r}"
        assert gpu.message_box is not None and gpu.message_box.isVisible(), what
        gpu.message_box.close()
        QApplication.processEvents()
        assert gpu.measurement is None and page.workspace.session.scenario == before, what


@pytest.mark.skipif(not HAS_FIFO, reason="no FIFOs on this system")
def test_a_fifo_measurement_is_refused_not_waited_for(window, qtbot, tmp_path, no_exception_escapes):
    if not _measurement_loader_refuses_fifos(tmp_path):
        pytest.skip("explorer.gpu.measurement.load_measurement still opens FIFOs (issue 12.3: the core's fix); "
                    "the window stays responsive meanwhile, the loader's worker waits")
    gpu = window.feature("gpu")
    path = _fifo(tmp_path / "pipe.npz")
    assert window.open_path(path)
    qtbot.waitUntil(lambda: not gpu.opening, timeout=15_000)
    assert gpu.last_message[0] == "error" and "pipe.npz" in gpu.last_message[1]
    gpu.message_box.close()


@pytest.mark.parametrize("way", ("row", "dialog", "drop"))
def test_bad_cuda_sources(window, qtbot, tmp_path, monkeypatch, way, no_exception_escapes):
    panel = window.occupancy
    row = window.feature("gpu").cu_row
    kernel = window.feature("kernel")
    before = panel.inputs.raw_values()
    for what, path in cuda_files(tmp_path).items():
        row.error = ""
        window.show_view("explorer" if way == "drop" else "occupancy")  # a drop brings "Your kernel" forward
        if way == "row":
            monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, p=path, **k: (str(p), ""))
            row.open_dialog()
        else:
            _open(window, monkeypatch, way, path)
        assert window.tabs.currentWidget() is (kernel if way == "drop" else panel), what
        assert row.error and path.name in row.error, f"{what}: {row.error!r}"
        if way != "row":  # the "Your kernel" tab got it too: one line, no kernel to run
            qtbot.waitUntil(lambda: not kernel.busy, timeout=60_000)
            assert kernel.message_role == "error" and path.name in kernel.message, f"{what}: {kernel.message!r}"
            assert kernel.kernel is None and not kernel.simulate_button.isEnabled(), what
        assert row.info.text() == row.error and not row.busy, what
        assert panel.inputs.raw_values() == before, what


def test_an_unreadable_kind_and_a_handler_bug_are_messages(window, qtbot, tmp_path, no_exception_escapes):
    unknown = tmp_path / "x.unknown"
    unknown.write_text("?")
    assert window.open_path(unknown) is False
    assert "not a file kind" in window.statusBar().currentMessage()

    def broken(_path):
        raise RuntimeError("a handler with a bug")

    window.register_file_handler((".broken",), "Broken", broken)
    path = tmp_path / "a.broken"
    path.write_text("x")
    assert window.open_path(path) is True
    assert window.file_message is not None and "a handler with a bug" in window.file_message.text()
    window.file_message.close()
