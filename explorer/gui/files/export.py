"""Export a widget (a view, a panel, the whole window) as PNG, SVG or PDF, and animations.

- PNG at 1x/2x/3x: the widget rendered through a painter scaled by the factor, so
  text and plot lines are drawn at that resolution (not an enlarged screenshot).
- SVG and PDF: the widget rendered into ``QSvgGenerator`` / ``QPdfWriter`` at the
  widget's logical DPI (pyqtgraph 0.14's own SVG exporter fails on current Qt).
- Animations: the Explorer stepped through a cycle range, one frame per step, into
  an animated GIF (Pillow) or an MP4 (the optional ``video`` extra: imageio-ffmpeg,
  which brings its own ffmpeg). A missing one is an :class:`ExportError` with one
  line saying what to install.

Every file is written to a temporary file beside the target and renamed over it
(:mod:`explorer.model.atomic`), so a reader never sees half a file.
"""

from __future__ import annotations

import math
import shutil
import tempfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PySide6.QtCore import QBuffer, QIODevice, QMarginsF, QPoint, QRect, QSize, QSizeF
from PySide6.QtGui import QImage, QPageLayout, QPageSize, QPainter, QPdfWriter, QRegion
from PySide6.QtWidgets import QWidget

from explorer.model.atomic import atomic_write, atomic_write_bytes
from explorer.model.errors import InputError

IMAGE_FORMATS = ("png", "svg", "pdf")
ANIMATION_FORMATS = ("gif", "mp4")
SCALES = (1, 2, 3)
MAX_FRAMES = 1000
MAX_FPS = 60
VIDEO_HINT = "pip install 'warp-explorer[video]' (or: pip install imageio-ffmpeg)"
GIF_HINT = "pip install pillow"


class ExportError(InputError):
    """An export that cannot be done as asked: one line for the user."""

    def __init__(self, message: str, field: str = "export"):
        super().__init__(field, message)


def format_of(path: str | Path) -> str:
    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix not in IMAGE_FORMATS + ANIMATION_FORMATS:
        raise ExportError(f"{Path(path).name}: the name must end in .png, .svg, .pdf, .gif or .mp4", "--out")
    return suffix


def _check_folder(path: Path) -> None:
    if not path.parent.is_dir():
        raise ExportError(f"the folder {str(path.parent)!r} does not exist", "--out")


# -- still images ------------------------------------------------------------------
def _render_flags():
    return QWidget.RenderFlag.DrawWindowBackground | QWidget.RenderFlag.DrawChildren


def _draw(widget: QWidget, painter: QPainter) -> None:
    """QWidget.render on any widget (QGraphicsView hides that overload behind its own render)."""
    scene = getattr(widget, "scene", None)
    if callable(scene) and hasattr(scene(), "prepareForPaint"):
        scene().prepareForPaint()  # pyqtgraph: bring items up to date first
    try:
        QWidget.render(widget, painter, QPoint(0, 0), QRegion(QRect(0, 0, widget.width(), widget.height())),
                       _render_flags())
    finally:
        painter.end()


def render_image(widget: QWidget, scale: float = 1.0) -> QImage:
    """The widget drawn at ``scale`` times its size (ARGB32, opaque background)."""
    w, h = widget.width(), widget.height()
    image = QImage(max(1, round(w * scale)), max(1, round(h * scale)), QImage.Format.Format_ARGB32_Premultiplied)
    image.setDevicePixelRatio(scale)
    image.fill(widget.palette().window().color())
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    _draw(widget, painter)
    image.setDevicePixelRatio(1.0)  # the file's pixels are the pixels; no "@2x" metadata
    return image


def png_bytes(image: QImage) -> bytes:
    buffer = QBuffer()  # owns its bytes: no QByteArray that Python could free first
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if not image.save(buffer, "PNG"):
        raise ExportError("cannot encode the PNG")
    data = bytes(buffer.data().data())
    buffer.close()
    return data


def _painted_bytes(widget: QWidget, device_for: Callable[[QBuffer], object]) -> bytes:
    """The bytes ``device_for(buffer)`` (an SVG generator, a PDF writer) writes when the widget is drawn on it."""
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    device = device_for(buffer)
    painter = QPainter(device)
    _draw(widget, painter)
    del painter, device  # the generator or writer goes before the buffer it writes to
    data = bytes(buffer.data().data())
    buffer.close()
    return data


def svg_bytes(widget: QWidget, title: str = "Warp Explorer") -> bytes:
    from PySide6.QtSvg import QSvgGenerator

    w, h = widget.width(), widget.height()

    def generator(buffer: QBuffer) -> QSvgGenerator:
        gen = QSvgGenerator()
        gen.setOutputDevice(buffer)
        gen.setSize(QSize(w, h))
        gen.setViewBox(QRect(0, 0, w, h))
        gen.setResolution(round(widget.logicalDpiX()))
        gen.setTitle(title)
        gen.setDescription("Drawn by Warp Explorer")
        return gen

    return _painted_bytes(widget, generator)


def pdf_bytes(widget: QWidget, title: str = "Warp Explorer") -> bytes:
    w, h = widget.width(), widget.height()
    dpi = max(1, round(widget.logicalDpiX()))

    def writer(buffer: QBuffer) -> QPdfWriter:
        pdf = QPdfWriter(buffer)
        pdf.setResolution(dpi)
        pdf.setTitle(title)
        pdf.setCreator("Warp Explorer")
        page = QPageSize(QSizeF(w * 72.0 / dpi, h * 72.0 / dpi), QPageSize.Unit.Point, "view",
                         QPageSize.SizeMatchPolicy.ExactMatch)
        pdf.setPageLayout(QPageLayout(page, QPageLayout.Orientation.Portrait, QMarginsF(0, 0, 0, 0)))
        return pdf

    return _painted_bytes(widget, writer)


def prepare_image(widget: QWidget, path: str | Path, scale: float = 1.0,
                  title: str = "Warp Explorer") -> tuple[Path, Callable[[], Path]]:
    """Check the target, draw the widget (this must happen in the GUI thread), and return
    (the path, a function that encodes and writes the file: it may run in a worker)."""
    path = Path(path)
    kind = format_of(path)
    _check_folder(path)
    if kind == "png":
        if not 0.5 <= scale <= 4:
            raise ExportError(f"scale {scale:g} is outside 0.5..4", "--scale")
        image = render_image(widget, scale)

        def encode() -> bytes:
            return png_bytes(image)
    elif kind in ("svg", "pdf"):
        data = svg_bytes(widget, title) if kind == "svg" else pdf_bytes(widget, title)

        def encode() -> bytes:
            return data
    else:
        raise ExportError(f"{path.name}: a still image is .png, .svg or .pdf", "--out")

    def write() -> Path:
        atomic_write_bytes(path, encode())
        return path

    return path, write


def export_image(widget: QWidget, path: str | Path, scale: float = 1.0, title: str = "Warp Explorer") -> Path:
    """Write the widget to ``path`` as PNG (at ``scale``), SVG or PDF, by the file's suffix."""
    _path, write = prepare_image(widget, path, scale, title)
    return write()


# -- animations -------------------------------------------------------------------
@dataclass(frozen=True)
class CycleRange:
    start: int
    end: int  # inclusive
    step: int

    @property
    def cycles(self) -> list[int]:
        out = list(range(self.start, self.end + 1, self.step))
        if out and out[-1] != self.end:
            out.append(self.end)  # the last frame is the end the user asked for
        return out

    @property
    def frames(self) -> int:
        return len(self.cycles)


def _cycle_token(token: str, last: int, what: str) -> int:
    token = token.strip().lower()
    if token in ("start", ""):
        return 0 if token == "start" or what == "START" else last
    if token == "end":
        return last
    if token.endswith("%"):
        try:
            pct = float(token[:-1])
        except ValueError:
            raise ExportError(f"{what} {token!r} is not a cycle, 'start', 'end' or 'N%'", "--animate") from None
        if not 0 <= pct <= 100:
            raise ExportError(f"{what} {token!r} is outside 0%..100%", "--animate")
        return round(pct / 100 * last)
    try:
        value = int(token)
    except ValueError:
        raise ExportError(f"{what} {token!r} is not a cycle, 'start', 'end' or 'N%'", "--animate") from None
    if not 0 <= value <= last:
        raise ExportError(f"{what} {value} is outside the run's cycles 0..{last}", "--animate")
    return value


def parse_cycle_range(text: str, cycles: int, default_frames: int = 100) -> CycleRange:
    """``START:END[:STEP]`` of a run of ``cycles`` cycles. START/END: a cycle, start, end or N%;
    END is included; STEP defaults to about ``default_frames`` frames in all."""
    parts = text.split(":")
    if len(parts) not in (2, 3):
        raise ExportError(f"{text!r} is not START:END[:STEP] (e.g. 0:4000:40)", "--animate")
    last = max(0, cycles - 1)
    start = _cycle_token(parts[0], last, "START")
    end = _cycle_token(parts[1], last, "END")
    if end <= start:
        raise ExportError(f"END ({end}) must come after START ({start})", "--animate")
    if len(parts) == 3 and parts[2].strip():
        try:
            step = int(parts[2])
        except ValueError:
            raise ExportError(f"STEP {parts[2]!r} is not a whole number of cycles", "--animate") from None
        if step < 1:
            raise ExportError(f"STEP {step} must be at least 1", "--animate")
    else:
        step = max(1, math.ceil((end - start) / max(1, default_frames - 1)))
    cr = CycleRange(start, end, step)
    if cr.frames > MAX_FRAMES:
        raise ExportError(f"{cr.frames} frames is more than {MAX_FRAMES}; give a larger STEP "
                          f"(e.g. {start}:{end}:{math.ceil((end - start) / (MAX_FRAMES - 1))})", "--animate")
    return cr


def check_fps(fps: float) -> float:
    if not 0 < fps <= MAX_FPS:
        raise ExportError(f"{fps:g} frames per second is outside 1..{MAX_FPS}", "--fps")
    return float(fps)


def require_pillow():
    try:
        from PIL import Image
    except ImportError:
        raise ExportError(f"GIF export needs Pillow, which is not installed: {GIF_HINT}") from None
    return Image


def require_ffmpeg():
    try:
        import imageio_ffmpeg
    except ImportError:
        raise ExportError(f"MP4 export needs the optional video extra, which is not installed: {VIDEO_HINT}") from None
    try:
        imageio_ffmpeg.get_ffmpeg_exe()
    except RuntimeError as exc:
        raise ExportError(f"MP4 export cannot find ffmpeg ({exc}): {VIDEO_HINT}") from None
    return imageio_ffmpeg


def video_available() -> bool:
    try:
        require_ffmpeg()
    except ExportError:
        return False
    return True


def rgb_array(image: QImage) -> np.ndarray:
    """uint8[h, w, 3] of a QImage."""
    img = image.convertToFormat(QImage.Format.Format_RGB888)
    w, h, stride = img.width(), img.height(), img.bytesPerLine()
    buf = np.frombuffer(img.constBits(), np.uint8, count=stride * h).reshape(h, stride)
    return buf[:, : 3 * w].reshape(h, w, 3).copy()


def explorer_frames(workspace, widget: QWidget, cycles: Iterable[int], scale: float = 1.0) -> Iterator[QImage]:
    """``widget`` drawn at each cycle of the ``workspace``'s cursor (GUI thread); the cycle is put back afterwards.

    The export takes the cursor over while it draws (``session.set_playing``): every view's clock pauses, so
    none advances the cycle between two frames; it lets go once done."""
    session = workspace.session
    was = session.cycle
    token = object()  # the export, as the view that plays the cursor
    session.set_playing(token)
    try:
        for cycle in cycles:
            session.set_cycle(cycle)
            yield render_image(widget, scale)
    finally:
        session.set_cycle(was)
        session.stopped(token)


def essential_colours() -> list[tuple[int, int, int]]:
    """Okabe-Ito, the warp-state colours (both themes), black and white."""
    from PySide6.QtGui import QColor

    from explorer.gui.common import palette as oi
    from explorer.gui.common import state_colors as sc
    from explorer.gui.common.state_order import N_STATES

    names = list(oi.OKABE_ITO) + list(sc.STATE_COLORS) + [
        sc.EMPTY_LIGHT, sc.EMPTY_DARK, sc.UNKNOWN_LIGHT, sc.UNKNOWN_DARK, "#FFFFFF"]
    for code in range(N_STATES):
        names += [sc.state_color(code, False), sc.state_color(code, True)]
    out: list[tuple[int, int, int]] = []
    for name in names:
        c = QColor(name)
        rgb_ = (c.red(), c.green(), c.blue())
        if rgb_ not in out:
            out.append(rgb_)
    return out[:64]


def write_gif(frames: Iterable[QImage], path: str | Path, fps: float, sample: list[QImage] | None = None) -> int:
    """An animated GIF, looping; one shared palette (from ``sample`` frames, else the first)."""
    Image = require_pillow()
    fps = check_fps(fps)
    path = Path(path)
    _check_folder(path)
    iterator = iter(frames)
    first = next(iterator, None)
    if first is None:
        raise ExportError("no frames to write")

    def pil(image: QImage):
        return Image.fromarray(rgb_array(image), "RGB")

    first_pil = pil(first)
    samples = [first_pil] + [pil(s) for s in (sample or [])]
    mosaic = Image.new("RGB", (first_pil.width, first_pil.height * len(samples)))
    for k, im in enumerate(samples):
        mosaic.paste(im.resize(first_pil.size) if im.size != first_pil.size else im, (0, k * first_pil.height))
    fixed = essential_colours()
    adaptive = mosaic.quantize(colors=256 - len(fixed), method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    # the colours that carry meaning (warp states, curves) exactly, however small their share
    entries = fixed + [tuple(adaptive.getpalette()[3 * i: 3 * i + 3]) for i in range(256 - len(fixed))]
    palette = Image.new("P", (1, 1))
    palette.putpalette([c for rgb_ in entries for c in rgb_])

    def quantized(im):
        return im.quantize(palette=palette, dither=Image.Dither.NONE)

    count = 1
    head = quantized(first_pil)

    def rest():
        nonlocal count
        for image in iterator:
            count += 1
            yield quantized(pil(image))

    duration = max(20, round(1000 / fps))
    atomic_write(path, lambda fh: head.save(fh, format="GIF", save_all=True, append_images=rest(),
                                            duration=duration, loop=0, optimize=False, disposal=1))
    return count


def write_mp4(frames: Iterable[QImage], path: str | Path, fps: float) -> int:
    """An H.264 MP4 (yuv420p, so every player shows it); odd sizes are padded by one pixel."""
    ffmpeg = require_ffmpeg()
    fps = check_fps(fps)
    path = Path(path)
    _check_folder(path)
    count = 0
    with tempfile.TemporaryDirectory(prefix="warp-explorer-") as tmp:
        tmp_out = Path(tmp) / "video.mp4"
        writer = None
        size = None
        try:
            for image in frames:
                rgb = rgb_array(image)
                if size is None:
                    h, w = rgb.shape[:2]
                    size = (w + (w % 2), h + (h % 2))
                    writer = ffmpeg.write_frames(str(tmp_out), size, fps=fps, codec="libx264", quality=8,
                                                 pix_fmt_in="rgb24", pix_fmt_out="yuv420p", macro_block_size=1,
                                                 ffmpeg_log_level="error")
                    writer.send(None)
                frame = np.zeros((size[1], size[0], 3), np.uint8)
                frame[: rgb.shape[0], : rgb.shape[1]] = rgb[: size[1], : size[0]]
                if rgb.shape[0] < size[1]:
                    frame[rgb.shape[0]:, : rgb.shape[1]] = rgb[-1:, : size[0]]
                if rgb.shape[1] < size[0]:
                    frame[:, rgb.shape[1]:] = frame[:, rgb.shape[1] - 1: rgb.shape[1]]
                writer.send(np.ascontiguousarray(frame).tobytes())
                count += 1
        finally:
            if writer is not None:
                writer.close()
        if count == 0:
            raise ExportError("no frames to write")
        with open(tmp_out, "rb") as src:
            atomic_write(path, lambda fh: shutil.copyfileobj(src, fh))
    return count


def check_animation(path: str | Path, fps: float) -> str:
    """The animation's format ("gif" or "mp4") once the target, the rate and the encoder are fine."""
    path = Path(path)
    kind = format_of(path)
    if kind not in ANIMATION_FORMATS:
        raise ExportError(f"{path.name}: an animation is .gif or .mp4", "--out")
    check_fps(fps)
    _check_folder(path)
    if kind == "gif":
        require_pillow()
    else:
        require_ffmpeg()
    return kind


def palette_sample(workspace, widget: QWidget, cycles: list[int], scale: float = 1.0) -> list[QImage]:
    """Frames a GIF's palette is made from besides the first: the middle and the last (colours that appear later)."""
    return list(explorer_frames(workspace, widget, [cycles[len(cycles) // 2], cycles[-1]], scale))


def write_animation(kind: str, frames: Iterable[QImage], path: str | Path, fps: float,
                    sample: list[QImage] | None = None) -> int:
    """Encode ``frames`` into ``path`` (kind "gif" or "mp4"); frames written. Any thread."""
    return write_gif(frames, path, fps, sample) if kind == "gif" else write_mp4(frames, path, fps)


def export_animation(workspace, widget: QWidget, path: str | Path, cycle_range: CycleRange, fps: float = 10,
                     scale: float = 1.0) -> int:
    """The ``workspace``'s views at each cycle of ``cycle_range`` into ``path`` (.gif or .mp4); frames written (drawn
    and encoded here, in the calling thread: the CLI's slides; the window encodes in a worker)."""
    kind = check_animation(path, fps)
    cycles = cycle_range.cycles
    sample = palette_sample(workspace, widget, cycles, scale) if kind == "gif" else None
    return write_animation(kind, explorer_frames(workspace, widget, cycles, scale), path, fps, sample)
