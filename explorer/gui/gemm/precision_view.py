"""The GEMM tab's "Precision" view: error against FP64 of dot products as K grows, per input format.

One curve per input format (FP32, TF32, BF16, FP16, FP8 E4M3 and E5M2) accumulated
in FP32, and FP16 inputs accumulated in FP16 for contrast, on a log-log chart of the
relative error (RMS over seeded random dot products) against K. The numbers come from
:func:`explorer.gemm.precision.precision_study`, computed on the fly (about 70 ms, kept
per input distribution) the first time the view is shown. The legend under the chart
gives each curve's error at the longest K in words, so colour never carries the meaning
alone; a note says what the emulation does not model (the hardware's own accumulation
order and width).
"""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QSize, Qt, Signal
from PySide6.QtWidgets import QComboBox, QFormLayout, QLabel, QSizePolicy, QVBoxLayout, QWidget

from explorer.gemm.precision import DEFAULT_SAMPLES, DISTRIBUTIONS, PrecisionStudy, precision_study
from explorer.gui.common import palette as oi
from explorer.texts.numbers import num
from explorer.gui.common.plots import ThemedPlot
from explorer.gui.common.theme import LIGHT, Theme
from explorer.gui.common.widgets import muted_label

# (input format, accumulator) -> (colour, line style, symbol); the FP32 baseline takes the theme's foreground
STYLES = {
    ("fp32", "fp32"): (None, Qt.PenStyle.SolidLine, "o"),
    ("tf32", "fp32"): (oi.SKY_BLUE, Qt.PenStyle.DashLine, "t"),
    ("bf16", "fp32"): (oi.BLUE, Qt.PenStyle.SolidLine, "s"),
    ("fp16", "fp32"): (oi.BLUISH_GREEN, Qt.PenStyle.SolidLine, "d"),
    ("fp8_e4m3", "fp32"): (oi.ORANGE, Qt.PenStyle.SolidLine, "t1"),
    ("fp8_e5m2", "fp32"): (oi.VERMILLION, Qt.PenStyle.DotLine, "t2"),
    ("fp16", "fp16"): (oi.REDDISH_PURPLE, Qt.PenStyle.DashLine, "x"),
}
LINE_MARKS = {Qt.PenStyle.SolidLine: "——", Qt.PenStyle.DashLine: "– –", Qt.PenStyle.DotLine: "···"}


def percent_text(fraction: float) -> str:
    """A relative error as a percentage with two significant digits: 0.0021 -> "0.21", 2.1e-8 -> "0.0000021"."""
    pct = 100 * fraction
    if pct <= 0 or not math.isfinite(pct):
        return num(pct, 0)
    return num(pct, max(0, 1 - math.floor(math.log10(pct))))


class PrecisionPlot(ThemedPlot):
    """Relative error (per cent) against K, both axes logarithmic, one line per curve of the study."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("gemm_precision_plot")
        self.setMinimumSize(240, 150)
        item = self.getPlotItem()
        item.setLogMode(x=True, y=True)
        item.showGrid(x=True, y=True, alpha=0.18)
        self.study: PrecisionStudy | None = None
        self.lines: dict[tuple[str, str], pg.PlotDataItem] = {}
        self.apply_theme(LIGHT)

    def apply_theme(self, theme: Theme) -> None:
        super().apply_theme(theme)
        item = self.getPlotItem()
        item.setLabel("bottom", self.tr("K, the dot product's length (log scale)"), color=theme.plot_foreground)
        item.setLabel("left", self.tr("Error vs FP64, % (log)"), color=theme.plot_foreground)
        if self.study is not None:
            self.show_study(self.study)

    def color(self, key: tuple[str, str]) -> str:
        return STYLES[key][0] or self.theme.plot_foreground

    def show_study(self, study: PrecisionStudy) -> None:
        self.study = study
        item = self.getPlotItem()
        item.clear()
        self.lines = {}
        x = np.array(study.ks, dtype=float)
        for c in study.curves:
            key = (c.inputs, c.accumulator)
            color, style, symbol = STYLES[key]
            color = self.color(key)
            y = np.maximum(100 * np.array(c.relative_error), 1e-12)  # per cent; a zero stays on a log axis
            width = 3 if key == ("fp16", "fp16") else 2
            self.lines[key] = item.plot(x, y, pen=pg.mkPen(color, width=width, style=style), symbol=symbol,
                                        symbolSize=6, symbolBrush=color, symbolPen=pg.mkPen(color))
        item.getViewBox().autoRange(padding=0.04)


class PrecisionView(QWidget):
    """The precision chart with its input choice, legend (each curve's error at the longest K) and notes."""

    computed = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("gemm_precision")
        self.theme: Theme = LIGHT
        self.study: PrecisionStudy | None = None
        self.distribution = "normal"
        self.inputs = QComboBox(self)
        self.inputs.setObjectName("gemm_precision_inputs")
        names = self.distribution_names()
        for key in DISTRIBUTIONS:
            self.inputs.addItem(names[key], key)
        self.inputs.setToolTip(self.tr("The random values every dot product multiplies: random signs (typical of "
                                       "activations and weights) or all positive (the worst case for a short "
                                       "accumulator)."))
        self.inputs.currentIndexChanged.connect(lambda _i: self.set_distribution(self.inputs.currentData()))
        form = QFormLayout()
        form.setContentsMargins(0, 0, 0, 0)
        form.addRow(self.tr("Inputs:"), self.inputs)
        form.labelForField(self.inputs).setBuddy(self.inputs)
        self.plot = PrecisionPlot(self)
        self.plot.setToolTip(self.tr("How far dot products of K rounded inputs land from the exact (FP64) result: "
                                     "the RMS error over {n} random dot products, divided by their RMS size.")
                             .format(n=DEFAULT_SAMPLES))
        self.legend = QLabel(self)
        self.legend.setObjectName("gemm_precision_legend")
        self.legend.setWordWrap(True)
        self.legend.setTextFormat(Qt.TextFormat.RichText)
        self.legend.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.legend.setToolTip(self.tr("Each curve's relative error at the longest K, in per cent: fewer "
                                       "significant bits in the inputs, more error; the FP16 accumulator adds its "
                                       "own."))
        self.caption = QLabel(self)
        self.caption.setObjectName("gemm_precision_caption")
        self.caption.setWordWrap(True)
        self.caption.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.note = muted_label(self)
        self.note.setObjectName("gemm_precision_note")
        self.note.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.note.setText(self.tr("Emulated: exact products summed one by one in K order. Tensor Cores add in "
                                  "their own order and width (Hopper's FP8 MMAs keep about 14 bits: DeepSeek-V3 "
                                  "report, 2024); not modelled here."))
        self.note.setToolTip(self.tr("The FP8 curves assume a full FP32 accumulator: a lower bound on the "
                                     "hardware's error."))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(3)
        layout.addLayout(form)
        layout.addWidget(self.plot, 1)
        layout.addWidget(self.legend)
        layout.addWidget(self.caption)
        layout.addWidget(self.note)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt API
        """Tall enough for the chart's minimum and the legend and notes wrapped at the current width: the
        labels' own hints assume one line, and a splitter that trusted them squeezed the legend over the
        chart's axis (presentation mode on 1280x720)."""
        hint = super().minimumSizeHint()
        if self.isHidden():  # behind the time split: it asks nothing of the column
            return hint
        width = max(self.width(), 200)
        layout = self.layout()
        m = layout.contentsMargins()
        labels = (self.legend, self.caption, self.note)
        height = (self.inputs.sizeHint().height() + self.plot.minimumHeight()
                  + sum(max(label.heightForWidth(width - m.left() - m.right()), label.sizeHint().height())
                        for label in labels if not label.isHidden())
                  + layout.spacing() * 4 + m.top() + m.bottom())
        return QSize(hint.width(), max(hint.height(), height))

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self.updateGeometry()  # the wrapped labels' height, hence the minimum, follows the width

    def hideEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().hideEvent(event)
        self.updateGeometry()

    def changeEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self.updateGeometry()

    def distribution_names(self) -> dict[str, str]:
        return {"normal": self.tr("N(0, 1): random signs"), "uniform": self.tr("U[0, 1): all positive")}

    def curve_names(self) -> dict[tuple[str, str], str]:
        return {
            ("fp32", "fp32"): self.tr("FP32"), ("tf32", "fp32"): self.tr("TF32"),
            ("bf16", "fp32"): self.tr("BF16"), ("fp16", "fp32"): self.tr("FP16"),
            ("fp8_e4m3", "fp32"): self.tr("FP8 E4M3"), ("fp8_e5m2", "fp32"): self.tr("FP8 E5M2"),
            ("fp16", "fp16"): self.tr("FP16, FP16 sum"),
        }

    # -- computing -----------------------------------------------------------------------
    def showEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().showEvent(event)
        self.updateGeometry()  # in front now: its minimum counts (minimumSizeHint)
        if self.study is None:  # computed when first seen: the GEMM tab does not pay for it otherwise
            self.compute()

    def set_distribution(self, distribution: str) -> None:
        if distribution not in DISTRIBUTIONS:
            return
        self.distribution = distribution
        index = self.inputs.findData(distribution)
        if index != self.inputs.currentIndex():
            self.inputs.blockSignals(True)
            self.inputs.setCurrentIndex(index)
            self.inputs.blockSignals(False)
        if self.study is not None or self.isVisible():
            self.compute()

    def compute(self) -> None:
        self.study = precision_study(distribution=self.distribution)
        self._show()
        self.computed.emit()

    def _show(self) -> None:
        s = self.study
        self.plot.show_study(s)
        names = self.curve_names()
        k_last = s.ks[-1]
        entries = []
        for c in s.curves:
            key = (c.inputs, c.accumulator)
            color, style = self.plot.color(key), STYLES[key][1]
            entries.append(f'<span style="color:{color}"><b>{LINE_MARKS[style]}</b></span>&nbsp;'
                           + self.tr("{name}: {pct}%").format(name=names[key],
                                                              pct=percent_text(c.relative_error[-1]))
                           .replace(" ", "&nbsp;"))
        self.legend.setText(" &nbsp; ".join(entries))
        self.updateGeometry()
        acc16, acc32 = s.curve("fp16", "fp16").relative_error[-1], s.curve("fp16").relative_error[-1]
        self.caption.setText(self.tr(
            "At K = {k} ({n} dot products), summed in FP32 unless marked: the FP16 sum of the same FP16 inputs is "
            "{times}× worse.").format(
                k=num(k_last), n=s.samples, times=num(acc16 / acc32, 0)))

    # -- the window -----------------------------------------------------------------------
    def apply_theme(self, theme: Theme) -> None:
        self.theme = theme
        self.plot.apply_theme(theme)
        if self.study is not None:
            self._show()
