"""File > Export: a picture of a view, a panel or the whole window, and cycle animations.

Two dialogs: **Export Picture…** (Ctrl+E: what, PNG 1x/2x/3x, SVG or PDF, where)
and **Export Animation…** (Ctrl+Shift+E: what, cycle range, frames per second,
GIF or MP4, where). The work itself is :mod:`explorer.gui.files.export`. What must
happen in the GUI thread happens there (drawing the widgets, one frame per event-
loop turn); encoding and writing the file is a task in a worker
(``common.tasks``), so the window stays live. An animation shows a progress dialog
that can cancel it, and a cancelled or failed export leaves no file. A missing
optional package (Pillow for GIF, imageio-ffmpeg for MP4) is said in the dialog
before anything runs.
"""

from __future__ import annotations

import math
import queue
from contextlib import contextmanager
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QObject, Qt, QTimer
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QMessageBox,
    QProgressDialog,
    QPushButton,
    QSpinBox,
    QWidget,
)

from explorer.gui.common.messages import warn
from explorer.texts.numbers import num
from explorer.gui.common.tasks import TaskError, TaskRunner
from explorer.gui.files import export as ex

PANEL_NAMES = ("sm_grid", "timeline", "counts", "metrics", "dram", "legend", "scenario", "occupancy", "occupancy_graphs",
               "gemm", "roofline", "memory", "sol", "unit_strip")


class ExportFeature(QObject):
    """The Export submenu and its dialogs for one main window."""

    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self.last_dir = str(window.settings.value("export/folder", "") or Path.home())
        self.last_message: QMessageBox | None = None
        self.tasks = TaskRunner(self, threads=1)
        self.pump: FramePump | None = None  # the animation's frames on their way to the encoder
        menu = self.menu = QMenu(self.tr("&Export"), window)
        window.file_menu.insertMenu(window.file_menu_end, menu)
        self.picture_action = QAction(self.tr("&Picture of a View…"), window)
        self.picture_action.setShortcut(QKeySequence("Ctrl+E"))
        self.picture_action.setStatusTip(self.tr("PNG (1×, 2×, 3×), SVG or PDF of the current view, a panel "
                                                 "or the whole window."))
        self.picture_action.triggered.connect(self.picture_dialog)
        self.animation_action = QAction(self.tr("&Animation of Cycles…"), window)
        self.animation_action.setShortcut(QKeySequence("Ctrl+Shift+E"))
        self.animation_action.setStatusTip(self.tr("A range of the Explorer's cycles as an animated GIF or an MP4."))
        self.animation_action.triggered.connect(self.animation_dialog)
        menu.addAction(self.picture_action)
        menu.addAction(self.animation_action)
        window.addAction(self.picture_action)
        window.addAction(self.animation_action)

    # -- subjects ---------------------------------------------------------------------
    def names(self) -> dict[str, str]:
        w = self.window
        return {
            "view": self.tr("The current view (tab)"), "window": self.tr("The whole window"),
            "sm_grid": self.tr("SM grid"), "timeline": self.tr("Timeline"), "counts": self.tr("Counts plot"),
            "metrics": self.tr("Metrics"), "dram": self.tr("DRAM bandwidth"), "legend": self.tr("State legend"),
            "scenario": self.tr("Scenario panel"),
            "occupancy": self.tr("Occupancy calculator"), "occupancy_graphs": self.tr("Occupancy graphs"),
            "gemm": self.tr("GEMM view"), "roofline": self.tr("Roofline"), "memory": self.tr("Memory hierarchy"),
            "sol": self.tr("Speed of Light (what limits useful work)"), "unit_strip": self.tr("Unit-use strip"),
        } | {k: k for k in w.lesson_targets if k not in PANEL_NAMES}

    def subjects(self, explorer_only: bool = False) -> list[str]:
        """What can be exported now: the current tab, the window, each panel on screen."""
        w = self.window
        out = ["view", "window"]
        for key, widget in w.lesson_targets.items():
            on_screen = widget is not None and widget.isVisible() and widget.width() > 0
            if on_screen and (not explorer_only or w.explorer.isAncestorOf(widget)):
                out.append(key)
        return out

    def widget_for(self, subject: str) -> QWidget:
        w = self.window
        if subject == "window":
            return w
        if subject == "view":  # a page may name the part of itself that its picture shows (``picture_widget``)
            page = w.tabs.currentWidget()
            part = getattr(page, "picture_widget", None)
            return part() if callable(part) else page
        widget = w.lesson_targets.get(subject)
        if widget is None:
            raise ex.ExportError(self.tr("there is no {subject} panel in this window").format(subject=repr(subject)))
        return widget

    # -- doing it (also what tests call) ----------------------------------------------
    def prepare_picture(self, subject: str, path: str | Path, scale: float = 1.0):
        """Draw ``subject`` now; (the path, the function that writes it)."""
        widget = self.widget_for(subject)
        with self._no_laser():  # laser dots are for the room, not for the slide
            return ex.prepare_image(widget, path, scale, title=self.window.windowTitle())

    def export_picture(self, subject: str, path: str | Path, scale: float = 1.0) -> Path:
        """Draw and write the picture here and now (tests, scripts); the dialog uses :meth:`start_picture`."""
        _path, write = self.prepare_picture(subject, path, scale)
        return write()

    def start_picture(self, subject: str, path: str | Path, scale: float = 1.0) -> None:
        """Draw ``subject`` now and write the file in a worker; a bad target raises ExportError at once."""
        path, write = self.prepare_picture(subject, path, scale)
        self.tasks.start("picture", lambda _task: write(),
                         on_done=lambda written: self._wrote(self.tr("Wrote {path}").format(path=str(written))),
                         on_error=lambda error: self._write_failed(path, error))

    def _animation_widget(self, subject: str) -> QWidget:
        w = self.window
        page = w.explorer
        if w.workspace.run is None:
            raise ex.ExportError(self.tr("there is no simulation on screen yet"))
        if subject == "view":
            w.show_view("explorer")
        widget = self.widget_for(subject)
        if subject not in ("window", "view") and not page.isAncestorOf(widget):
            raise ex.ExportError(self.tr("animations show the Explorer: choose the window, the Explorer or one of its "
                                         "panels"))
        return widget

    def export_animation(self, subject: str, path: str | Path, cycle_range: ex.CycleRange, fps: float = 10,
                         scale: float = 1.0) -> int:
        """Draw and encode the animation here and now (tests, scripts); the dialog uses :meth:`run_animation`."""
        widget = self._animation_widget(subject)
        with self._no_laser():
            return ex.export_animation(self.window.workspace, widget, path, cycle_range, fps, scale)

    def _show_laser(self, on: bool) -> None:
        """The lecture overlay's laser dots (feature "overlay", when installed) are for the room, not the file."""
        overlay = self.window.feature("overlay")
        if overlay is not None:
            overlay.show_laser = on

    @contextmanager
    def _no_laser(self):
        self._show_laser(False)
        try:
            yield
        finally:
            self._show_laser(True)

    def _remember_folder(self, path: Path) -> None:
        self.last_dir = str(path.parent)
        self.window.settings.setValue("export/folder", self.last_dir)

    def _fail(self, text: str) -> None:
        self.last_message = warn(self.window, self.tr("Export failed"), text)

    def _wrote(self, text: str) -> None:
        self.window.statusBar().showMessage(text, 8000)

    def _write_failed(self, path: Path, error: TaskError) -> None:
        if error.kind == "input":
            self._fail(error.message)
        else:
            self._fail(self.tr("Cannot write {path}: {err}").format(path=str(path), err=error.message))

    # -- dialogs ----------------------------------------------------------------------
    def picture_dialog(self) -> PictureDialog:
        dialog = PictureDialog(self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        return dialog

    def animation_dialog(self) -> AnimationDialog | None:
        if self.window.workspace.run is None:
            self._fail(self.tr("There is no simulation to animate yet; wait until the Explorer shows one."))
            return None
        dialog = AnimationDialog(self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        return dialog

    def run_animation(self, subject: str, path: Path, cycle_range: ex.CycleRange, fps: float, scale: float) -> bool:
        """Frames drawn here, one per event-loop turn, encoded in a worker; a progress dialog can cancel.

        False (with a message) when the export cannot start; the outcome is said in the status bar."""
        try:
            kind = ex.check_animation(path, fps)
            widget = self._animation_widget(subject)
        except ex.ExportError as exc:
            self._fail(str(exc))
            return False
        workspace = self.window.workspace
        cycles = cycle_range.cycles
        self._show_laser(False)
        sample = ex.palette_sample(workspace, widget, cycles, scale) if kind == "gif" else None
        total = len(cycles)
        progress = QProgressDialog(self.tr("Drawing {n} frames…").format(n=total), self.tr("Cancel"), 0, total,
                                   self.window)
        progress.setWindowModality(Qt.WindowModality.WindowModal)
        progress.setMinimumDuration(300)
        pump = self.pump = FramePump(ex.explorer_frames(workspace, widget, cycles, scale), self)

        def work(task):
            return ex.write_animation(kind, pump.frames(task, total), path, fps, sample)

        def finish() -> None:
            pump.stop()
            self._show_laser(True)
            progress.close()
            progress.deleteLater()
            if self.pump is pump:
                self.pump = None

        def done(count: int) -> None:
            finish()
            self._wrote(self.tr("Wrote {path} ({n} frames)").format(path=str(path), n=count))

        def failed(error: TaskError) -> None:
            finish()
            if error.kind == "cancelled":
                self._wrote(self.tr("Export cancelled; {path} was not written.").format(path=str(path)))
            else:
                self._write_failed(path, error)

        task = self.tasks.start("animation", work, on_done=done, on_error=failed,
                                on_progress=lambda _text, fraction: progress.setValue(round(total * (fraction or 0))))
        progress.canceled.connect(task.cancel)
        pump.start()
        return True

    def shutdown(self) -> None:
        if self.pump is not None:
            self.pump.stop()
        self.tasks.shutdown()


class FramePump(QObject):
    """Draws an animation's frames in the GUI thread, one per event-loop turn, for an encoder in a worker.

    At most ``AHEAD`` frames wait in the queue, so memory stays bounded however long
    the animation; the encoder's generator (:meth:`frames`) takes them in order.
    """

    AHEAD = 4
    DONE = object()

    def __init__(self, frames, parent: QObject | None = None):
        super().__init__(parent)
        self.source = frames
        self.queue: queue.Queue = queue.Queue(maxsize=self.AHEAD)
        self.timer = QTimer(self)
        self.timer.setInterval(0)
        self.timer.timeout.connect(self._draw)

    def start(self) -> None:
        self.timer.start()

    def stop(self) -> None:
        """No more frames (the source puts the Explorer's cycle back)."""
        self.timer.stop()
        self.source.close()

    def _draw(self) -> None:
        if self.queue.full():
            return
        try:
            image = next(self.source)
        except StopIteration:
            self.timer.stop()
            self.queue.put(self.DONE)
            return
        self.queue.put(image)

    def frames(self, task, total: int):
        """The frames as they are drawn (worker side); a cancelled task ends the file unwritten."""
        done = 0
        while True:
            try:
                item = self.queue.get(timeout=0.05)
            except queue.Empty:
                item = None
            if task.cancelled:
                raise ex.ExportError("cancelled")
            if item is None:
                continue
            if item is self.DONE:
                return
            done += 1
            task.progress("", done / max(total, 1))
            yield item


def _buddy_label(text: str, buddy: QWidget, parent: QWidget) -> QLabel:
    """A form label for a row that is a layout: its Alt+letter goes to ``buddy`` (and no '&' shows)."""
    label = QLabel(text, parent)
    label.setBuddy(buddy)
    return label


class _ExportDialog(QDialog):
    def __init__(self, feature: ExportFeature, title: str, subjects: list[str]):
        super().__init__(feature.window)
        self.feature = feature
        self.setWindowTitle(title)
        self.setWindowModality(Qt.WindowModality.WindowModal)
        names = feature.names()
        self.subject = QComboBox(self)
        for key in subjects:
            self.subject.addItem(names.get(key, key), key)
        self.format = QComboBox(self)
        self.path = QLineEdit(self)
        self.browse = QPushButton(self.tr("Browse…"), self)
        self.browse.clicked.connect(self._browse)
        self.note = QLabel(self)
        self.note.setWordWrap(True)
        self.note.setProperty("role", "error")
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel,
                                        self)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.form = QFormLayout(self)
        self.form.addRow(self.tr("&What:"), self.subject)
        self.form.addRow(self.tr("&Format:"), self.format)
        self.path_row = QHBoxLayout()
        self.path_row.addWidget(self.path, 1)
        self.path_row.addWidget(self.browse)

    def finish_layout(self) -> None:
        self.form.addRow(_buddy_label(self.tr("&File:"), self.path, self), self.path_row)
        self.form.addRow(self.note)
        self.form.addRow(self.buttons)
        self.format.currentIndexChanged.connect(self._format_changed)
        self._format_changed()

    def suffix(self) -> str:
        return self.format.currentData()

    def _format_changed(self, *_args) -> None:
        text = self.path.text().strip()
        if text:
            self.path.setText(str(Path(text).with_suffix("." + self.suffix())))

    def _browse(self) -> None:
        suffix = self.suffix()
        start = self.path.text() or str(Path(self.feature.last_dir) / f"warp-explorer.{suffix}")
        name, _ = QFileDialog.getSaveFileName(self, self.windowTitle(), start, f"{suffix.upper()} (*.{suffix})")
        if name:
            path = Path(name)
            if path.suffix.lower() != "." + suffix:
                path = path.with_name(path.name + "." + suffix)
            self.path.setText(str(path))

    def target(self) -> Path | None:
        text = self.path.text().strip()
        if not text:
            self.note.setText(self.tr("Choose a file to write."))
            return None
        path = Path(text).expanduser()
        if path.suffix.lower() != "." + self.suffix():
            path = path.with_name(path.name + "." + self.suffix())
        return path


class PictureDialog(_ExportDialog):
    def __init__(self, feature: ExportFeature):
        super().__init__(feature, QCoreApplication.translate("PictureDialog", "Export Picture"), feature.subjects())
        for label, key in ((self.tr("PNG image"), "png"), (self.tr("SVG drawing"), "svg"), (self.tr("PDF document"), "pdf")):
            self.format.addItem(label, key)
        self.scale = QComboBox(self)
        for s in ex.SCALES:
            self.scale.addItem(self.tr("{s}× ({w} × {h} pixels)").format(s=s, w="…", h="…"), s)
        self.scale.setCurrentIndex(1)  # 2x: sharp on a slide
        self.form.addRow(self.tr("&Resolution:"), self.scale)
        self.subject.currentIndexChanged.connect(self._sizes)
        self.path.setText(str(Path(feature.last_dir) / "warp-explorer.png"))
        self.finish_layout()
        self._sizes()

    def _sizes(self, *_args) -> None:
        try:
            widget = self.feature.widget_for(self.subject.currentData())
        except ex.ExportError:
            return
        for i, s in enumerate(ex.SCALES):
            self.scale.setItemText(i, self.tr("{s}× ({w} × {h} pixels)").format(
                s=s, w=widget.width() * s, h=widget.height() * s))

    def _format_changed(self, *_args) -> None:
        super()._format_changed()
        self.scale.setEnabled(self.suffix() == "png")

    def accept(self) -> None:
        path = self.target()
        if path is None:
            return
        try:
            self.feature.start_picture(self.subject.currentData(), path, float(self.scale.currentData()))
        except ex.ExportError as exc:
            self.note.setText(str(exc))
            return
        except OSError as exc:
            self.note.setText(self.tr("Cannot write {path}: {err}").format(path=str(path), err=exc.strerror or str(exc)))
            return
        self.feature._remember_folder(path)
        super().accept()


class AnimationDialog(_ExportDialog):
    def __init__(self, feature: ExportFeature):
        super().__init__(feature, QCoreApplication.translate("AnimationDialog", "Export Animation"),
                         feature.subjects(explorer_only=True))
        self.subject.setItemText(0, self.tr("The Explorer tab"))
        run = feature.window.workspace.run
        last = max(0, run.cycles - 1)
        self.format.addItem(self.tr("Animated GIF"), "gif")
        self.format.addItem(self.tr("MP4 video"), "mp4")
        self.start = QSpinBox(self)
        self.end = QSpinBox(self)
        self.every = QSpinBox(self)
        self.fps = QSpinBox(self)
        for box in (self.start, self.end):
            box.setRange(0, last)
            box.setGroupSeparatorShown(True)
        self.every.setRange(1, max(1, last))
        self.fps.setRange(1, ex.MAX_FPS)
        self.start.setValue(0)
        self.end.setValue(last)
        self.every.setValue(max(1, math.ceil(last / 99)))
        self.fps.setValue(10)
        self.every.setSuffix(self.tr(" cycles"))
        self.scale = QComboBox(self)
        for s in (1, 2):
            self.scale.addItem(f"{s}×", s)
        range_row = QHBoxLayout()
        range_row.addWidget(self.start, 1)
        range_row.addWidget(QLabel("–", self))
        range_row.addWidget(self.end, 1)
        self.form.addRow(_buddy_label(self.tr("&Cycles:"), self.start, self), range_row)
        self.form.addRow(self.tr("&One frame every:"), self.every)
        self.form.addRow(self.tr("Frames per &second:"), self.fps)
        self.form.addRow(self.tr("&Resolution:"), self.scale)
        self.frames = QLabel(self)
        self.form.addRow("", self.frames)
        for box in (self.start, self.end, self.every, self.fps):
            box.valueChanged.connect(self._count)
        self.path.setText(str(Path(feature.last_dir) / "warp-explorer.gif"))
        self.finish_layout()
        self._count()

    def cycle_range(self) -> ex.CycleRange | None:
        start, end, every = self.start.value(), self.end.value(), self.every.value()
        if end <= start:
            return None
        return ex.CycleRange(start, end, every)

    def _count(self, *_args) -> None:
        cr = self.cycle_range()
        if cr is None:
            self.frames.setText(self.tr("The last cycle must come after the first."))
            return
        self.frames.setText(self.tr("{n} frames, {secs} s").format(n=cr.frames,
                                                                  secs=num(cr.frames / self.fps.value(), 1)))

    def _format_changed(self, *_args) -> None:
        super()._format_changed()
        missing = ""
        if self.suffix() == "mp4" and not ex.video_available():
            missing = self.tr("MP4 needs the optional video extra: {hint}").format(hint=ex.VIDEO_HINT)
        elif self.suffix() == "gif":
            try:
                ex.require_pillow()
            except ex.ExportError as exc:
                missing = str(exc)
        self.note.setText(missing)
        self.buttons.button(QDialogButtonBox.StandardButton.Save).setEnabled(not missing)

    def accept(self) -> None:
        path = self.target()
        cr = self.cycle_range()
        if path is None:
            return
        if cr is None:
            self.note.setText(self.tr("The last cycle must come after the first."))
            return
        if cr.frames > ex.MAX_FRAMES:
            self.note.setText(self.tr("{n} frames is more than {max}; take a frame every more cycles.").format(
                n=cr.frames, max=ex.MAX_FRAMES))
            return
        subject, fps, scale = self.subject.currentData(), self.fps.value(), float(self.scale.currentData())
        self.feature._remember_folder(path)
        super().accept()
        self.feature.run_animation(subject, path, cr, fps, scale)


def install(window) -> None:
    window.add_feature("export", ExportFeature(window))
