"""File > Export: a picture of a view, a panel or the whole window, and cycle animations.

Two dialogs: **Export Picture…** (Ctrl+E: what, PNG 1x/2x/3x, SVG or PDF, where)
and **Export Animation…** (Ctrl+Shift+E: what, cycle range, frames per second,
GIF or MP4, where). The work itself is :mod:`explorer.gui.files.export`; an animation
shows a progress dialog that can cancel it. A missing optional package (Pillow
for GIF, imageio-ffmpeg for MP4) is said in the dialog before anything runs.
"""

from __future__ import annotations

import math
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QObject, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
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

from explorer.gui.files import export as ex
from explorer.gui.lessons.overlay import overlay_for
from explorer.gui.common.numbers import num

PANEL_NAMES = ("sm_grid", "timeline", "counts", "metrics", "legend", "scenario", "occupancy", "occupancy_graphs",
               "gemm", "roofline", "memory")


class ExportFeature(QObject):
    """The Export submenu and its dialogs for one main window."""

    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self.last_dir = str(window.settings.value("export/folder", "") or Path.home())
        self.last_message: QMessageBox | None = None
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
            "metrics": self.tr("Metrics"), "legend": self.tr("State legend"), "scenario": self.tr("Scenario panel"),
            "occupancy": self.tr("Occupancy calculator"), "occupancy_graphs": self.tr("Occupancy graphs"),
            "gemm": self.tr("GEMM view"), "roofline": self.tr("Roofline"), "memory": self.tr("Memory hierarchy"),
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
        if subject == "view":
            return w.tabs.currentWidget()
        widget = w.lesson_targets.get(subject)
        if widget is None:
            raise ex.ExportError(self.tr("there is no {subject} panel in this window").format(subject=repr(subject)))
        return widget

    # -- doing it (also what tests call) ----------------------------------------------
    def export_picture(self, subject: str, path: str | Path, scale: float = 1.0) -> Path:
        widget = self.widget_for(subject)
        overlay = overlay_for(self.window)
        overlay.show_laser = False  # laser dots are for the room, not for the slide
        try:
            return ex.export_image(widget, path, scale, title=self.window.windowTitle())
        finally:
            overlay.show_laser = True

    def export_animation(self, subject: str, path: str | Path, cycle_range: ex.CycleRange, fps: float = 10,
                         scale: float = 1.0, progress=None) -> int:
        w = self.window
        page = w.explorer
        if page.session.run is None:
            raise ex.ExportError(self.tr("there is no simulation on screen yet"))
        if subject == "view":
            w.show_view("explorer")
        widget = self.widget_for(subject)
        if subject not in ("window", "view") and not page.isAncestorOf(widget):
            raise ex.ExportError(self.tr("animations show the Explorer: choose the window, the Explorer or one of its "
                                         "panels"))
        overlay = overlay_for(w)
        overlay.show_laser = False
        try:
            return ex.export_animation(page, widget, path, cycle_range, fps, scale, progress)
        finally:
            overlay.show_laser = True

    def _remember_folder(self, path: Path) -> None:
        self.last_dir = str(path.parent)
        self.window.settings.setValue("export/folder", self.last_dir)

    def _fail(self, text: str) -> None:
        box = QMessageBox(QMessageBox.Icon.Warning, self.tr("Export failed"), text,
                          QMessageBox.StandardButton.Close, self.window)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.setWindowModality(Qt.WindowModality.WindowModal)
        box.open()
        self.last_message = box

    # -- dialogs ----------------------------------------------------------------------
    def picture_dialog(self) -> PictureDialog:
        dialog = PictureDialog(self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        return dialog

    def animation_dialog(self) -> AnimationDialog | None:
        if self.window.explorer.session.run is None:
            self._fail(self.tr("There is no simulation to animate yet; wait until the Explorer shows one."))
            return None
        dialog = AnimationDialog(self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        return dialog

    def run_animation(self, subject: str, path: Path, cycle_range: ex.CycleRange, fps: float, scale: float) -> bool:
        """With a cancellable progress dialog; the GUI stays responsive between frames."""
        total = cycle_range.frames
        progress = QProgressDialog(self.tr("Drawing {n} frames…").format(n=total), self.tr("Cancel"), 0, total,
                                   self.window)
        progress.setWindowModality(Qt.WindowModality.WindowModal)
        progress.setMinimumDuration(300)
        cancelled = False

        def step(i: int) -> bool:
            nonlocal cancelled
            progress.setValue(i)
            QApplication.processEvents()
            cancelled = progress.wasCanceled()
            return not cancelled

        try:
            count = self.export_animation(subject, path, cycle_range, fps, scale, step)
        except ex.ExportError as exc:
            progress.close()
            progress.deleteLater()
            self._fail(str(exc))
            return False
        except OSError as exc:
            progress.close()
            progress.deleteLater()
            self._fail(self.tr("Cannot write {path}: {err}").format(path=str(path), err=exc.strerror or str(exc)))
            return False
        progress.close()
        progress.deleteLater()
        if cancelled:
            self.window.statusBar().showMessage(self.tr("Export cancelled; {path} was not written.")
                                                .format(path=str(path)), 8000)
            return False
        self.window.statusBar().showMessage(self.tr("Wrote {path} ({n} frames)").format(path=str(path), n=count),
                                            8000)
        return True


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
            self.feature.export_picture(self.subject.currentData(), path, float(self.scale.currentData()))
        except ex.ExportError as exc:
            self.note.setText(str(exc))
            return
        except OSError as exc:
            self.note.setText(self.tr("Cannot write {path}: {err}").format(path=str(path), err=exc.strerror or str(exc)))
            return
        self.feature._remember_folder(path)
        self.feature.window.statusBar().showMessage(self.tr("Wrote {path}").format(path=str(path)), 8000)
        super().accept()


class AnimationDialog(_ExportDialog):
    def __init__(self, feature: ExportFeature):
        super().__init__(feature, QCoreApplication.translate("AnimationDialog", "Export Animation"),
                         feature.subjects(explorer_only=True))
        self.subject.setItemText(0, self.tr("The Explorer tab"))
        run = feature.window.explorer.session.run
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
    window.export = ExportFeature(window)
