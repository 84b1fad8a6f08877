"""The "Memory" tab: the hierarchy to scale, live traffic, coalescing, and attention's bytes.

* :class:`HierarchyView`: registers, shared memory, L1, L2 and device memory of
  the chosen GPU (``explorer.gemm.memory_hierarchy``), one row each: scope (per
  thread / block / SM / GPU) and who manages it, capacity (log scale), latency
  (linear, cycles and ns), bandwidth (log scale), and the bytes each level moved
  in the Explorer's current simulation (``SimResult.memory_bytes``).
* :class:`CoalescingView`: one warp-wide load at strides 1..32 — the bytes the
  threads use beside the whole 32-byte sectors that move (``coalescing_table``).
* :class:`AttentionView`: naive attention vs a FlashAttention-style tiled kernel
  for the sequence length and head size typed (``compare_attention``): the bytes
  through L2 (exact), the HBM bytes (modelled) and where the re-reads come from
  (``reuse_level``), FLOPs, intensity, predicted time and what limits it (HBM,
  L2, compute or the SFUs), a headline that names the reuse level, and the
  assumptions behind them.

The page follows the Explorer: each new simulation updates the live traffic and
selects its GPU. Lessons set the attention inputs through ``apply_lesson_gemm``.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QCoreApplication, QRect, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetrics, QPainter, QPen
from PySide6.QtWidgets import (
    QBoxLayout,
    QComboBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QSizePolicy,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from explorer.gemm import DTYPES, AttentionComparison, MemoryLevel, coalescing_table, memory_hierarchy
from explorer.gui.common import palette as oi
from explorer.gui.common.bars import Meter, PaintedBar
from explorer.texts.message import translated
from explorer.texts.names import MODEL_CONTEXT
from explorer.gui.common.int_field import FieldTexts, IntField, show_field_errors
from explorer.gui.common.layout_check import PaintedText
from explorer.texts.numbers import bandwidth_text, binary_bytes, flops_text, localize, num, pct, seconds_text, si_bytes
from explorer.gui.common.page import Page, deferred
from explorer.gui.common.settings import as_int, as_str
from explorer.gui.common.theme import LIGHT, Theme
from explorer.gui.common.widgets import (
    DEFAULT_GPU,
    add_gpus,
    error_label,
    muted_label,
    scroll_area,
    select_data,
    show_combo_error,
    splitter,
)
from explorer.gui.common.reflow_grid import Arrangement, Cell, ReflowGrid
from explorer.gui.gemm.model_texts import model_text
from explorer.gui.gemm.session import ATTENTION_DEFAULTS, ATTENTION_FIELDS, evaluate_attention
from explorer.model.catalog import get_gpu

# SimResult.memory_bytes key for each hierarchy level (registers: not counted by the simulator)
TRAFFIC_KEY = {"shared": "shared", "l1": "l1", "l2": "l2", "hbm": "dram"}
LEVEL_COLORS = {"registers": oi.BLUE, "shared": oi.SKY_BLUE, "l1": oi.BLUISH_GREEN, "l2": oi.ORANGE,
                "hbm": oi.VERMILLION}
CAPACITY_AXIS = (2**10, 2**40)  # 1 KiB .. 1 TiB
BANDWIDTH_AXIS = (100.0, 1e6)  # GB/s: 100 GB/s .. 1 PB/s
MEASURES = ("capacity", "latency", "bandwidth", "traffic")  # the hierarchy's bars, in their columns' order


BOTTOM_MIN = 200  # px the coalescing and attention panes keep when the hierarchy's table takes more than half


def log_fraction(value: float, lo: float, hi: float) -> float:
    if value <= 0:
        return 0.0
    return max(0.0, min(1.0, math.log(value / lo) / math.log(hi / lo)))


def _cell(parent: QWidget, bar: QWidget, note: QLabel) -> QWidget:
    w = QWidget(parent)
    v = QVBoxLayout(w)
    v.setContentsMargins(0, 0, 0, 0)
    v.setSpacing(1)
    v.addWidget(bar)
    v.addWidget(note)
    return w


def box_title(box: QGroupBox, text: str) -> QLabel:
    """A group box's title as a bold label that wraps (Qt's own title never does: a long one, in Russian or
    presented at 150% and more, would make the pane scroll sideways); the label goes first in the box."""
    box.setTitle("")
    label = QLabel(f"<b>{text}</b>", box)
    label.setObjectName(f"{box.objectName()}_title")
    label.setWordWrap(True)
    label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
    return label


def wrap_label(label: QLabel) -> QLabel:
    """A table cell that wraps at its spaces (a long Russian value or heading), as narrow as its longest word."""
    label.setWordWrap(True)
    label.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
    return label


class LineFirstLabel(QLabel):
    """A label on one line where its column has the room, wrapped at its spaces where it has not (a Russian
    label, presentation mode at 150% and more): never wider than its longest word needs, never cut.
    (A word-wrapped QLabel alone wraps even where one line would fit.)"""

    def __init__(self, text: str, parent: QWidget | None = None):
        super().__init__(text, parent)
        self.setWordWrap(True)
        policy = QSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)

    def _plain(self) -> str:
        return self.text().replace("&&", "\0").replace("&", "").replace("\0", "&")

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt API
        m = self.contentsMargins()
        width = QFontMetrics(self.font()).horizontalAdvance(self._plain()) + m.left() + m.right() + 2
        return QSize(width, self.heightForWidth(width))

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt API
        m = self.contentsMargins()
        fm = QFontMetrics(self.font())
        width = max((fm.horizontalAdvance(w) for w in self._plain().split()), default=0) + m.left() + m.right() + 2
        return QSize(width, self.heightForWidth(width))


# ---------------------------------------------------------------------------
# The hierarchy
# ---------------------------------------------------------------------------
class HierarchyView(QGroupBox):
    """One row per level, nearest the math units first; every bar has its number beside it."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("memory_hierarchy")
        self.theme: Theme = LIGHT
        self.levels: tuple[MemoryLevel, ...] = ()
        self.gpu_name = ""
        self.traffic: dict[str, int] = {}  # level key -> bytes in the Explorer's run
        self.traffic_seconds = 0.0
        self.rates: dict[str, tuple[float, float]] = {}  # level key -> (B/s, share of the peak): the run's throughput
        self.hits: dict[str, tuple[float, int]] = {}  # l1/l2 -> (sector hit rate %, sectors): caches from addresses
        heads = (
            (self.tr("Level"), ""),
            (self.tr("Who sees it"), self.tr("Scope: the data is private to a thread, shared by a block's threads, "
                                             "by everything on one SM, or by the whole GPU.")),
            (self.tr("Capacity (log scale)"), self.tr("Size of one instance; the bar's scale runs from 1 KiB to "
                                                      "1 TiB, each tick a factor of 1,024.")),
            (self.tr("Latency (cycles)"), self.tr("Cycles from issuing a load to its data, drawn to a linear scale.")),
            (self.tr("Bandwidth, whole GPU (log scale)"), self.tr("Bytes per second the level can deliver to all "
                                                                  "SMs together; scale 100 GB/s to 1 PB/s.")),
            (self.tr("This simulation"), self.tr("Bytes each level moved in the Explorer's current simulation "
                                                 "(SimResult.memory_bytes), and the rate over the kernel's time.")),
        )
        self.heads: list[QLabel] = []
        self.measure_heads = {}  # measure -> (its heading's text, its tooltip): each row's own in the stacked forms
        for col, (text, tip) in enumerate(heads):
            label = QLabel(f"<b>{text}</b>", self)
            label.setWordWrap(True)  # a long heading (Russian) takes two lines, never the others' room
            label.setToolTip(tip)
            self.heads.append(label)
            if col >= 2:
                self.measure_heads[MEASURES[col - 2]] = (text, tip)
        self.rows: dict[str, dict[str, QWidget]] = {}
        self.title_label = box_title(self, "")
        self.table = ReflowGrid((self._as_table, self._scope_under_name, self._two_measures_a_line,
                                 self._one_measure_a_line), self, h_spacing=14, v_spacing=6)
        self.table.setObjectName("memory_hierarchy_table")
        self.run_text = muted_label(self)
        self.run_text.setObjectName("memory_run_text")
        self.run_text.setProperty("role", "")
        layout = QVBoxLayout(self)
        layout.addWidget(self.title_label)
        layout.addWidget(self.table)
        layout.addWidget(self.run_text)
        layout.addStretch(1)

    def table_height(self) -> int:
        """The height down to the levels' table's last row (the paragraph on the run below it left out): what
        the page keeps in view first, so that no level's row is cut at 1280x720."""
        layout = self.layout()
        m = layout.contentsMargins()
        return (m.top() + self.title_label.sizeHint().height() + layout.spacing() + self.table.sizeHint().height()
                + m.bottom())

    # -- the table's arrangements (ReflowGrid), widest first --------------------------------------
    def _ordered_rows(self) -> list[dict[str, QWidget]]:
        keys = [lv.key for lv in self.levels if lv.key in self.rows] or list(self.rows)
        return [self.rows[k] for k in keys]

    def _as_table(self) -> Arrangement:
        """Six columns: level, who sees it, capacity, latency, bandwidth, this simulation."""
        cells = [Cell(label, 0, col) for col, label in enumerate(self.heads)]
        for r, row in enumerate(self._ordered_rows(), start=1):
            cells += [Cell(row["name"], r, 0), Cell(row["scope"], r, 1, align=Qt.AlignmentFlag.AlignVCenter)]
            cells += [Cell(row["cell_" + m], r, col) for col, m in enumerate(MEASURES, start=2)]
        return Arrangement(cells, dict(enumerate((0, 0, 3, 2, 3, 3))))

    def _scope_under_name(self) -> Arrangement:
        """Five columns: who sees it under the level's name (the heading "Level" over both)."""
        cells = [Cell(self.heads[0], 0, 0)] + [Cell(label, 0, col) for col, label in enumerate(self.heads[2:], 1)]
        for i, row in enumerate(self._ordered_rows()):
            r = 1 + 2 * i
            cells += [Cell(row["name"], r, 0, align=Qt.AlignmentFlag.AlignBottom),
                      Cell(row["scope"], r + 1, 0, align=Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)]
            cells += [Cell(row["cell_" + m], r, col, row_span=2) for col, m in enumerate(MEASURES, start=1)]
        return Arrangement(cells, dict(enumerate((0, 3, 2, 3, 3))))

    def _stacked(self, per_line: int) -> Arrangement:
        """Each level under its name and scope, its measures ``per_line`` to a line, each after its heading."""
        cells, r = [], 0
        for row in self._ordered_rows():
            cells += [Cell(row["name"], r, 0), Cell(row["scope"], r, 1, align=Qt.AlignmentFlag.AlignLeft)]
            r += 1
            for i, m in enumerate(MEASURES):
                col = 2 * (i % per_line)
                cells += [Cell(row["head_" + m], r, col, align=Qt.AlignmentFlag.AlignTop),
                          Cell(row["cell_" + m], r, col + 1)]
                if i % per_line == per_line - 1:
                    r += 1
        return Arrangement(cells, {2 * k + 1: 1 for k in range(per_line)})

    def _two_measures_a_line(self) -> Arrangement:
        return self._stacked(2)

    def _one_measure_a_line(self) -> Arrangement:
        return self._stacked(1)

    def scope_names(self) -> dict[str, str]:
        return {"thread": self.tr("per thread"), "block": self.tr("per block"), "SM": self.tr("per SM"),
                "GPU": self.tr("whole GPU")}

    def _row(self, key: str) -> dict[str, QWidget]:
        row = self.rows.get(key)
        if row is not None:
            return row
        color = LEVEL_COLORS.get(key, oi.BLUE)
        row = {
            "name": QLabel(self), "scope": QLabel(self),
            "capacity": Meter(color, self, height=22), "capacity_note": muted_label(self),
            "latency": Meter(color, self, height=22), "latency_note": muted_label(self),
            "bandwidth": Meter(color, self, height=22), "bandwidth_note": muted_label(self),
            "traffic": Meter(color, self, height=22), "traffic_note": muted_label(self),
        }
        row["name"].setObjectName(f"memory_level_{key}")
        row["scope"].setObjectName(f"memory_scope_{key}")
        row["traffic"].setObjectName(f"memory_traffic_{key}")
        row["scope"].setAlignment(Qt.AlignmentFlag.AlignCenter)
        for m in MEASURES:
            row["cell_" + m] = _cell(self, row[m], row[m + "_note"])
            text, tip = self.measure_heads[m]
            head = row["head_" + m] = wrap_label(QLabel(text, self))  # as wide as its longest word, at least
            head.setToolTip(tip)
        self.rows[key] = row
        self.table.rearrange()
        self._style_scope(row["scope"])
        for name in ("capacity", "latency", "bandwidth", "traffic"):
            row[name].apply_theme(self.theme)
        return row

    def _style_scope(self, label: QLabel) -> None:
        label.setStyleSheet(f"QLabel {{ border: 1px solid {self.theme.mid}; border-radius: 9px; "
                            f"padding: 2px 8px; background: {self.theme.alternate_base}; }}")

    def show_gpu(self, gpu_name: str) -> None:
        gpu = get_gpu(gpu_name)
        self.gpu_name = gpu.name
        self.title_label.setText("<b>{}</b>".format(self.tr(
            "Memory hierarchy of the {gpu} ({sms} SMs, {clock} MHz) — drawn to scale").format(
            gpu=gpu.name, sms=gpu.sm_count, clock=num(gpu.boost_clock_mhz))))
        self.levels = memory_hierarchy(gpu)
        scopes = self.scope_names()
        longest = max(lv.latency_cycles or 0 for lv in self.levels)
        for lv in self.levels:
            row = self._row(lv.key)
            row["name"].setText(f"<b>{self._level_name(lv)}</b>")
            where, who = (QCoreApplication.translate(MODEL_CONTEXT, text) for text in (lv.location, lv.managed_by))
            row["name"].setToolTip(self.tr("{where}; managed by the {who}.").format(where=where, who=who))
            row["scope"].setText(scopes.get(lv.scope, lv.scope))
            row["scope"].setToolTip(self.tr("Managed by the {who}").format(who=who))
            where = self.tr("per SM") if lv.instances > 1 else self.tr("on the GPU")
            row["capacity"].set_value(log_fraction(lv.capacity_bytes, *CAPACITY_AXIS),
                                      f"{binary_bytes(lv.capacity_bytes)} {where}")
            note = ""
            if lv.instances > 1:
                note = self.tr("× {n} SMs = {total}").format(n=lv.instances, total=binary_bytes(lv.total_bytes))
            if lv.limit_bytes:
                who = self.tr("thread") if lv.key == "registers" else self.tr("block")
                note += ("; " if note else "") + self.tr("at most {b} per {who}").format(
                    b=binary_bytes(lv.limit_bytes), who=who)
            row["capacity_note"].setText(note)
            if lv.latency_cycles is None:
                row["latency"].set_value(0.0, self.tr("in the pipeline"))
                row["latency_note"].setText(self.tr("a dependent FMA waits {c} cycles").format(c=gpu.lat_fma))
            else:
                row["latency"].set_value(lv.latency_cycles / longest,
                                         self.tr("{c} cycles").format(c=lv.latency_cycles))
                row["latency_note"].setText(self.tr("{ns:.0f} ns at {clock} MHz").format(
                    ns=lv.latency_ns(gpu.boost_clock_mhz), clock=num(gpu.boost_clock_mhz)))
            row["bandwidth"].set_value(log_fraction(lv.bandwidth_gbs, *BANDWIDTH_AXIS),
                                       bandwidth_text(lv.bandwidth_gbs))
            row["bandwidth_note"].setText(self.tr("{b} B per clock per SM").format(
                b=num(lv.bandwidth_bytes_per_clock_per_sm)) + (self.tr(" (estimate)") if "estimate" in
                                                          lv.sources.get("bandwidth_gbs", "") else ""))
            for key in ("capacity", "latency", "bandwidth"):
                row[key].setToolTip(lv.sources.get(f"{key}_cycles" if key == "latency" else
                                                   (f"{key}_bytes" if key == "capacity" else f"{key}_gbs"), ""))
        self._show_traffic()

    def _level_name(self, lv: MemoryLevel) -> str:
        if lv.key == "l1":
            return self.tr("L1 cache")  # the column's shorter name for the core's "L1 data cache"
        return translated(lv.name, QCoreApplication.translate)  # the core's name (device memory's with its kind)

    def set_traffic(self, traffic: dict[str, int], seconds: float, text: str,
                    rates: dict[str, tuple[float, float]] | None = None,
                    hits: dict[str, tuple[float, int]] | None = None) -> None:
        """Bytes per level; ``rates``: per level the run's throughput (B/s) and its share of the unit's peak, the
        figures of the Explorer's Speed-of-Light panel (else bytes / kernel time); ``hits``: for L1 and L2 the
        sector hit rate (%) and the sectors it is of, where the caches saw the run's addresses (the summary's
        ``caches``, Nsight Compute's ``l1tex__t_sector_hit_rate`` / ``lts__t_sector_hit_rate``)."""
        self.hits = dict(hits or {})
        self.traffic = dict(traffic)
        self.traffic_seconds = seconds
        self.rates = dict(rates or {})
        self.run_text.setText(text)
        self._show_traffic()

    def traffic_text(self, key: str) -> str:
        """What the row of ``key`` says about this simulation's bytes."""
        if key not in self.traffic:
            return self.tr("not counted") if self.traffic else self.tr("no simulation yet")
        b = self.traffic[key]
        if not b and not (key in self.rates and self.rates[key][1] > 0):
            return self.tr("0 B")
        if key in self.rates:  # L1 may serve no hit yet carry every sector: its rate says so (issue 31 item 10)
            rate, share = self.rates[key]
            return self.tr("{bytes} · {rate} ({share} of peak)").format(
                bytes=si_bytes(b), rate=bandwidth_text(rate / 1e9), share=pct(share, 0))
        rate = b / self.traffic_seconds / 1e9 if self.traffic_seconds else 0.0
        return self.tr("{bytes} · {rate}").format(bytes=si_bytes(b), rate=bandwidth_text(rate))

    def _show_traffic(self) -> None:
        biggest = max(self.traffic.values(), default=0)
        for key, row in self.rows.items():
            b = self.traffic.get(key)
            row["traffic"].set_value(b / biggest if b and biggest else 0.0, self.traffic_text(key))
            note = ""
            if key == "registers":
                note = self.tr("operands are not counted")
            elif key in self.hits:
                rate, sectors = self.hits[key]
                note = self.tr("{b} bytes · {hit} of {n} sectors hit").format(
                    b=num(b or 0), hit=pct(rate / 100, 1), n=num(sectors))
            elif b:
                note = self.tr("{b} bytes").format(b=num(b))
            row["traffic_note"].setText(note)
        self.table.rearrange(force=False)  # texts of another length: the arrangement that fits them

    def apply_theme(self, theme: Theme) -> None:
        self.theme = theme
        for row in self.rows.values():
            self._style_scope(row["scope"])
            for name in ("capacity", "latency", "bandwidth", "traffic"):
                row[name].apply_theme(theme)


# ---------------------------------------------------------------------------
# Coalescing
# ---------------------------------------------------------------------------
class RequestBar(PaintedBar):
    """Bytes one warp-wide load moves, to scale: the used part solid, the rest hatched.

    Its text stands beside the bar where the column has room for it, else under the bar, wrapped at its
    spaces (presentation mode at 150% and more on 1280x720: the pane never scrolls sideways). The rows of one
    view share ``room_for`` (their widest text), so every bar's track is as long: the bars are to one scale.
    """

    HINT_WIDTH = 260
    TRACK_MIN = 20  # px of track a bar keeps with its text beside it

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent, height=24)
        # its height follows its font and width (heightForWidth), not a fixed 24 px
        self.setMinimumHeight(0)
        self.setMaximumHeight(16777215)
        policy = QSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)
        self.useful = 0
        self.moved = 0
        self.scale = 1
        self.text = ""
        self.room_for = ""  # the widest text of the bars drawn to the same scale

    def set_value(self, useful: int, moved: int, scale: int, text: str, room_for: str = "") -> None:
        self.useful, self.moved, self.scale, self.text = useful, moved, max(1, scale), text
        self.room_for = room_for or text
        self.updateGeometry()
        self.update()

    def _bar_h(self) -> int:
        return QFontMetrics(self.font()).height() + 8

    def _room(self) -> int:
        fm = QFontMetrics(self.font())
        return max(fm.horizontalAdvance(self.room_for), fm.horizontalAdvance(self.text)) + 12

    def text_beside(self, width: int | None = None) -> bool:
        """Whether the text fits beside a track of at least TRACK_MIN px (else it goes under the bar)."""
        return (self.width() if width is None else width) >= self._room() + self.TRACK_MIN

    def _text_rect(self, width: int) -> QRect:
        """Where the wrapped text goes under the bar at ``width``."""
        fm = QFontMetrics(self.font())
        br = fm.boundingRect(QRect(0, 0, max(1, width - 2), 10**6), int(Qt.TextFlag.TextWordWrap), self.text)
        return QRect(1, self._bar_h() + 2, max(1, width - 2), br.height())

    def hasHeightForWidth(self) -> bool:  # noqa: N802 - Qt API
        return True

    def heightForWidth(self, width: int) -> int:  # noqa: N802 - Qt API
        if self.text_beside(width):
            return self._bar_h()
        return self._text_rect(width).bottom() + 2

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt API
        return QSize(max(self.HINT_WIDTH, self._room() + self.TRACK_MIN), self._bar_h())

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt API
        """As narrow as its longest word under the bar: the text is never cut, the pane never scrolls sideways."""
        fm = QFontMetrics(self.font())
        word = max((fm.horizontalAdvance(w) for w in self.text.split()), default=0)
        return QSize(max(self.TRACK_MIN, word) + 4, self._bar_h())

    def _track(self) -> float:
        return float(self.width() - self._room()) if self.text_beside() else float(self.width() - 2)

    def _moved_w(self) -> float:
        return self._track() * self.moved / self.scale

    def _text_place(self) -> tuple[QRect, int]:
        if self.text_beside():
            moved_w = self._moved_w()
            return (QRectF(moved_w + 8, 0, self.width() - moved_w - 8, self._bar_h()).toRect(),
                    int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter))
        return (self._text_rect(self.width()),
                int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop | Qt.TextFlag.TextWordWrap))

    def painted_texts(self) -> list:
        rect, flags = self._text_place()
        return [PaintedText(self.text, rect, self.font(), flags)]

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt API
        p = QPainter(self)
        track = self._track()
        h = self._bar_h() - 2
        moved_w = self._moved_w()
        useful_w = track * self.useful / self.scale
        p.fillRect(QRectF(1, 1, moved_w, h), QBrush(QColor(oi.VERMILLION), Qt.BrushStyle.BDiagPattern))
        p.fillRect(QRectF(1, 1, useful_w, h), QColor(oi.BLUE))
        p.setPen(QPen(QColor(self.theme.mid), 1))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawRect(QRectF(1, 1, moved_w, h))
        p.setPen(QColor(self.theme.text))
        rect, flags = self._text_place()
        p.drawText(rect, flags, self.text)
        p.end()


class WholeTextCombo(QComboBox):
    """A combo box never narrower than its longest item: its form row wraps the combo under its label instead
    (QComboBox keeps its first minimum through a font change, and presentation mode at 200% then cut it)."""

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt API
        return self.sizeHint()


class CoalescingView(QGroupBox):
    """One warp-wide load at several strides: used bytes beside the 32-byte sectors that move."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("memory_coalescing")
        self.title_label = box_title(self, self.tr("Coalesced vs strided loads: bytes per request"))
        self.width_box = WholeTextCombo(self)
        self.width_box.setObjectName("memory_bytes_per_thread")
        for b in (4, 8, 16):
            self.width_box.addItem(self.tr("{b} bytes per thread").format(b=b), b)
        self.width_box.setToolTip(self.tr("The size each thread loads: 4 = a float, 16 = a float4 vector load."))
        self.intro = muted_label(self)
        self.intro.setProperty("role", "")
        self.rows: list[tuple[QLabel, RequestBar]] = []
        # the strides' names beside their bars, or above them where the pane is narrow (Russian at 250%)
        self.grid = ReflowGrid((self._names_beside, self._names_above), self, h_spacing=10, v_spacing=4)
        self.table = []
        top = QFormLayout()  # the combo under its label where the pane is narrow
        top.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        top.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.FieldsStayAtSizeHint)
        top.addRow(LineFirstLabel(self.tr("Each thread loads:"), self), self.width_box)
        legend = QLabel(self.tr('<span style="color:{u}">■</span> bytes the threads use &nbsp; '
                                '<span style="color:{w}">▨</span> bytes moved but not used').format(
            u=oi.BLUE, w=oi.VERMILLION), self)
        legend.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(self.title_label)
        layout.addLayout(top)
        layout.addWidget(self.intro)
        layout.addWidget(self.grid)
        layout.addWidget(legend)
        layout.addStretch(1)
        self.theme: Theme = LIGHT
        self.width_box.currentIndexChanged.connect(lambda _i: self.refresh())
        self.refresh()

    def refresh(self) -> None:
        b = self.width_box.currentData()
        self.table = coalescing_table(b)
        self.intro.setText(self.tr(
            "A warp's 32 threads each load {b} B, neighbouring threads <i>stride</i> elements apart. Memory moves "
            "whole 32-byte sectors, so the further apart the threads read, the more bytes move for the same "
            "{useful} B the warp uses.").format(b=b, useful=32 * b))
        scale = max(a.bytes_per_request for a in self.table)
        texts = [self.tr("{moved} B moved, {sectors} sectors · {eff}% used").format(
            moved=num(a.bytes_per_request), sectors=a.sectors, eff=localize(f"{100 * a.efficiency:g}"))
            for a in self.table]
        widest = max(texts, key=QFontMetrics(self.font()).horizontalAdvance)
        for i, a in enumerate(self.table):
            if i >= len(self.rows):
                label = LineFirstLabel("", self)  # "stride 1 (coalesced)" on two lines where the pane is narrow
                label.setContentsMargins(0, 4, 0, 0)  # in line with its bar (as high as a line and 8 px)
                bar = RequestBar(self)
                bar.apply_theme(self.theme)
                self.rows.append((label, bar))
            label, bar = self.rows[i]
            label.setText(self.tr("stride {s}").format(s=a.stride) +
                          (self.tr(" (coalesced)") if a.stride == 1 else ""))
            bar.set_value(a.useful_bytes, a.bytes_per_request, scale, texts[i], widest)
        self.grid.rearrange()

    def _names_beside(self) -> Arrangement:
        cells = []
        for i, (label, bar) in enumerate(self.rows):
            cells += [Cell(label, i, 0, align=Qt.AlignmentFlag.AlignTop), Cell(bar, i, 1)]
        return Arrangement(cells, {1: 1})

    def _names_above(self) -> Arrangement:
        cells = []
        for i, (label, bar) in enumerate(self.rows):
            cells += [Cell(label, 2 * i, 0), Cell(bar, 2 * i + 1, 0)]
        return Arrangement(cells, {0: 1})

    def apply_theme(self, theme: Theme) -> None:
        self.theme = theme
        for _label, bar in self.rows:
            bar.apply_theme(theme)


# ---------------------------------------------------------------------------
# Attention
# ---------------------------------------------------------------------------
class FoldingRow(QWidget):
    """Labelled inputs side by side, or one under the other where the pane is narrower than the row (a
    Russian label, presentation mode at 150% and more): the row never makes its pane scroll sideways.

    Its own width never widens the pane (the pairs fold instead); each pair keeps its label and field."""

    SPACING = 8

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        self.box = QBoxLayout(QBoxLayout.Direction.LeftToRight, self)
        self.box.setContentsMargins(0, 0, 0, 0)
        self.box.setSpacing(self.SPACING)
        self.pairs: list[QHBoxLayout] = []

    def add_pair(self, label: QLabel, field: QWidget, stretch: int = 0) -> None:
        pair = QHBoxLayout()
        pair.setSpacing(self.SPACING)
        pair.addWidget(label, 0, Qt.AlignmentFlag.AlignTop)
        pair.addWidget(field, 1, Qt.AlignmentFlag.AlignTop)
        self.box.addLayout(pair, stretch)
        self.pairs.append(pair)

    def one_line_width(self) -> int:
        """What the pairs need side by side: each label on one line (folded, a label keeps its line), each
        field as wide as its value."""
        need = 0
        for pair in self.pairs:
            label, field = pair.itemAt(0).widget(), pair.itemAt(1).widget()
            text = field.text() if callable(getattr(field, "text", None)) else ""
            value = QFontMetrics(field.font()).horizontalAdvance(text or "0000") + 24
            need += label.sizeHint().width() + self.SPACING + max(field.minimumSizeHint().width(), value)
        return need + self.SPACING * max(0, len(self.pairs) - 1)

    def folded(self) -> bool:
        return self.box.direction() == QBoxLayout.Direction.TopToBottom

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt API
        """As narrow as its widest pair (folded)."""
        hint = super().minimumSizeHint()
        return QSize(max((p.minimumSize().width() for p in self.pairs), default=0), hint.height())

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        want = (QBoxLayout.Direction.LeftToRight if self.width() >= self.one_line_width()
                else QBoxLayout.Direction.TopToBottom)
        if self.box.direction() != want:
            self.box.setDirection(want)


VARIANTS = ("naive", "flash", "ratio")  # the attention table's value columns
RATIO_ROWS = {"global", "hbm", "flops", "intensity", "time"}  # the rows with a naive ÷ flash ratio


class AttentionView(QGroupBox, FieldTexts):
    """Naive vs FlashAttention-style, side by side, for the N and d typed."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("memory_attention")
        self.title_label = box_title(self, self.tr("Attention: naive vs FlashAttention-style (one head, forward pass)"))
        self.theme: Theme = LIGHT
        self.gpu_name = DEFAULT_GPU
        self.comparison: AttentionComparison | None = None
        self.errors: dict[str, str] = {}
        self.fields: dict[str, IntField] = {}
        labels = {"seq_len": (self.tr("Sequence length &N:"), self.tr("Tokens in the sequence (rows of Q, K and V).")),
                  "head_dim": (self.tr("Head si&ze d:"), self.tr("Columns of Q, K and V per head."))}
        inputs = FoldingRow(self)
        for col, name in enumerate(ATTENTION_FIELDS):
            f = IntField(ATTENTION_DEFAULTS[name], 64 if name == "head_dim" else 1024, self)
            f.setObjectName(f"attention_field_{name}")
            f.set_help(labels[name][1])
            f.edited.connect(self.recompute)
            label = LineFirstLabel(labels[name][0], self)  # "Длина последовательности N:" on two lines
            label.setBuddy(f)
            inputs.add_pair(label, f, stretch=1)
            self.fields[name] = f
        self.dtype = QComboBox(self)
        self.dtype.setObjectName("attention_dtype")
        for name in DTYPES:
            self.dtype.addItem(name.upper(), name)
        self.dtype.setCurrentIndex(self.dtype.findData("fp16"))
        self.dtype.currentIndexChanged.connect(lambda _i: self.recompute())
        self.dtype_error = error_label(self)
        inputs.add_pair(QLabel(self.tr("Data type:"), self), self.dtype)
        self.inputs = inputs

        self.cells: dict[tuple[str, str], QLabel] = {}
        self.heads = [wrap_label(QLabel(f"<b>{text}</b>", self)) for text in (
            self.tr("Naive (3 kernels)"), self.tr("FlashAttention-style (1 kernel)"), self.tr("Naive ÷ flash"))]
        self.row_names = {
            "global": self.tr("Bytes through L2 (exact)"), "hbm": self.tr("HBM bytes (modelled)"),
            "reuse": self.tr("Re-reads come from"), "flops": self.tr("FLOPs"),
            "intensity": self.tr("FLOP per HBM byte"), "time": self.tr("Predicted time"),
            "bound": self.tr("Limited by"), "smem": self.tr("Shared memory per CTA"),
        }
        row_tips = {
            "global": self.tr("Every byte the SMs read from or write to global memory, all of which crosses L2: "
                              "exact for the algorithm and its tiling (FlashAttention's IO accounting)."),
            "hbm": self.tr("The part of those bytes that reaches device memory: a re-read is served by L2 when "
                           "what it re-reads fits there. The predicted time uses these bytes."),
            "reuse": self.tr("Where a kernel's second and later reads of the same data come from: L2 if it fits "
                             "the usable L2, else HBM."),
        }
        self.row_labels: dict[str, QLabel] = {}
        self.variant_labels: dict[tuple[str, str], QLabel] = {}  # each value's own heading, one value a line
        variant_names = {"naive": self.tr("naive"), "flash": self.tr("flash"), "ratio": self.tr("Naive ÷ flash")}
        for key, text in self.row_names.items():
            label = self.row_labels[key] = wrap_label(QLabel(text, self))
            label.setToolTip(row_tips.get(key, ""))
            for variant in VARIANTS:
                cell = wrap_label(QLabel(self))  # "64 KiB (blocks of 128 and 64 rows)" wraps, never cut
                cell.setObjectName(f"attention_{key}_{variant}")
                cell.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
                self.cells[(key, variant)] = cell
                if variant != "ratio" or key in RATIO_ROWS:
                    name = wrap_label(QLabel(variant_names[variant] + ":", self))
                    name.setProperty("role", "muted")
                    self.variant_labels[(key, variant)] = name
        # the table; its rows' names above their values; one value a line (Russian or presented on 720p)
        self.table = ReflowGrid((self._as_table, self._names_above, self._one_value_a_line), self,
                                h_spacing=12, v_spacing=3)
        self.table.setObjectName("attention_table")
        self.global_bars = (Meter(oi.VERMILLION, self, height=22), Meter(oi.BLUE, self, height=22))
        self.bytes_bars = (Meter(oi.VERMILLION, self, height=22), Meter(oi.BLUE, self, height=22))
        self.time_bars = (Meter(oi.VERMILLION, self, height=22), Meter(oi.BLUE, self, height=22))
        bars = QGridLayout()
        bars.setHorizontalSpacing(8)
        for row, (text, pair) in enumerate(((self.tr("Through L2:"), self.global_bars),
                                            (self.tr("HBM bytes:"), self.bytes_bars),
                                            (self.tr("Time:"), self.time_bars))):
            bars.addWidget(QLabel(text, self), 2 * row, 0)
            bars.addWidget(QLabel(self.tr("naive"), self), 2 * row, 1)
            bars.addWidget(pair[0], 2 * row, 2)
            bars.addWidget(QLabel(self.tr("flash"), self), 2 * row + 1, 1)
            bars.addWidget(pair[1], 2 * row + 1, 2)
        bars.setColumnStretch(2, 1)
        self.verdict = QLabel(self)
        self.verdict.setObjectName("attention_verdict")
        self.verdict.setWordWrap(True)
        self.verdict.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        f = QFont(self.verdict.font())
        f.setBold(True)
        self.verdict.setFont(f)
        self.stale = error_label(self)
        self.assumptions = muted_label(self)
        self.assumptions.setObjectName("attention_assumptions")
        self.assumptions.setTextFormat(Qt.TextFormat.RichText)
        layout = QVBoxLayout(self)
        layout.setSpacing(6)
        layout.addWidget(self.title_label)
        layout.addWidget(inputs)
        layout.addWidget(self.dtype_error)
        layout.addWidget(self.stale)
        layout.addWidget(self.table)
        layout.addLayout(bars)
        layout.addWidget(self.verdict)
        layout.addWidget(self.assumptions)
        layout.addStretch(1)
        self.recompute()

    # -- the table's arrangements (ReflowGrid), widest first --------------------------------------
    def _as_table(self) -> Arrangement:
        cells = [Cell(head, 0, col) for col, head in enumerate(self.heads, start=1)]
        for r, key in enumerate(self.row_names, start=1):
            cells.append(Cell(self.row_labels[key], r, 0))
            cells += [Cell(self.cells[(key, v)], r, col) for col, v in enumerate(VARIANTS, start=1)]
        return Arrangement(cells, shown=lambda: self._bold_row_names(False))

    def _bold_row_names(self, bold: bool) -> None:
        """A row's name in bold where it stands above its values (it heads them), plain in the table."""
        for key, text in self.row_names.items():
            self.row_labels[key].setText(f"<b>{text}</b>" if bold else text)

    def _names_above(self) -> Arrangement:
        """Three columns: each row's name on its own line above its values."""
        cells = [Cell(head, 0, col) for col, head in enumerate(self.heads)]
        for i, key in enumerate(self.row_names):
            cells.append(Cell(self.row_labels[key], 1 + 2 * i, 0, col_span=3))
            cells += [Cell(self.cells[(key, v)], 2 + 2 * i, col) for col, v in enumerate(VARIANTS)]
        return Arrangement(cells, shown=lambda: self._bold_row_names(True))

    def _one_value_a_line(self) -> Arrangement:
        """Two columns: each row's name, then its values one a line after what they are."""
        cells, r = [], 0
        for key in self.row_names:
            cells.append(Cell(self.row_labels[key], r, 0, col_span=2))
            r += 1
            for v in VARIANTS:
                if v == "ratio" and key not in RATIO_ROWS:
                    continue
                cells += [Cell(self.variant_labels[(key, v)], r, 0), Cell(self.cells[(key, v)], r, 1)]
                r += 1
        return Arrangement(cells, {1: 1}, shown=lambda: self._bold_row_names(True))

    def set_gpu(self, gpu_name: str) -> None:
        if gpu_name != self.gpu_name:
            self.gpu_name = gpu_name
            self.recompute()

    def set_inputs(self, values: dict, dtype: str | None = None) -> None:
        """Set the fields (and the data type) at once, then recompute once."""
        for f in self.fields.values():
            f.blockSignals(True)
        self.dtype.blockSignals(True)
        try:
            self.set_values(values)
            if dtype is not None:
                select_data(self.dtype, dtype)
        finally:
            for f in self.fields.values():
                f.blockSignals(False)
            self.dtype.blockSignals(False)
        self.recompute()

    def recompute(self) -> None:
        ev = evaluate_attention(self.gpu_name, self.dtype.currentData(), self.raw_values())
        self.errors = dict(ev.errors)
        show_field_errors(self.fields, ev.errors, self.tr("enter a whole number"))
        show_combo_error(self.dtype, self.dtype_error, ev.errors.get("dtype"))
        self.stale.setVisible(bool(ev.errors) and self.comparison is not None)
        self.stale.setText(self.tr("Invalid input: showing the last valid comparison."))
        if ev.comparison is not None:
            self.show_comparison(ev.comparison)
        self.changed.emit()

    def bound_names(self) -> dict[str, str]:
        """``AttentionStep.bound`` values."""
        return {"compute": self.tr("compute"), "sfu": self.tr("exp on the SFUs"), "memory": self.tr("HBM bandwidth"),
                "l2": self.tr("L2 bandwidth")}

    def reuse_names(self) -> dict[str, str]:
        """``AttentionCost.reuse_level`` values."""
        return {"l2": self.tr("L2"), "hbm": self.tr("HBM")}

    def show_comparison(self, c: AttentionComparison) -> None:
        self.comparison = c
        nv, fl = c.naive, c.flash
        bound = self.bound_names()
        reuse = self.reuse_names()

        def put(key, naive, flash, ratio=""):
            self.cells[(key, "naive")].setText(naive)
            self.cells[(key, "flash")].setText(flash)
            self.cells[(key, "ratio")].setText(ratio)

        put("global", si_bytes(nv.global_bytes), si_bytes(fl.global_bytes), "×" + num(c.global_reduction, 2))
        put("hbm", si_bytes(nv.hbm_bytes), si_bytes(fl.hbm_bytes), "×" + num(c.hbm_reduction, 2))
        put("reuse", reuse.get(nv.reuse_level, nv.reuse_level), reuse.get(fl.reuse_level, fl.reuse_level))
        put("flops", flops_text(nv.flops), flops_text(fl.flops), "×" + num(nv.flops / fl.flops, 2))
        put("intensity", self.tr("{v} FLOP/B").format(v=num(nv.arithmetic_intensity, 1)),
            self.tr("{v} FLOP/B").format(v=num(fl.arithmetic_intensity, 1)),
            "×" + num(nv.arithmetic_intensity / fl.arithmetic_intensity, 2))
        put("time", seconds_text(nv.predicted_seconds), seconds_text(fl.predicted_seconds), "×" + num(c.speedup, 2))
        put("bound", bound.get(nv.bound, nv.bound), bound.get(fl.bound, fl.bound))
        put("smem", self.tr("(its GEMMs' own tiling)"),
            self.tr("{b} (blocks of {q} and {kv} rows)").format(b=binary_bytes(fl.shared_bytes_per_block),
                                                                q=c.block_q, kv=c.block_kv))
        for pair, values, text in ((self.global_bars, (nv.global_bytes, fl.global_bytes), si_bytes),
                                   (self.bytes_bars, (nv.hbm_bytes, fl.hbm_bytes), si_bytes),
                                   (self.time_bars, (nv.predicted_seconds, fl.predicted_seconds), seconds_text)):
            big = max(values)
            for bar, v in zip(pair, values):
                bar.set_value(v / big if big else 0.0, text(v))
        self.table.rearrange(force=False)  # values of another length: the arrangement that fits them
        self.verdict.setText(self.headline(c))
        items = "".join(f"<li>{model_text(a)}</li>" for a in c.assumptions + c.notes)
        self.assumptions.setText(self.tr("<b>Assumptions</b> (bytes and FLOPs are exact; times are estimates):")
                                 + f"<ul style='margin-left: 12px; -qt-list-indent: 0;'>{items}</ul>")

    def apply_theme(self, theme: Theme) -> None:
        self.theme = theme
        for m in self.global_bars + self.bytes_bars + self.time_bars:
            m.apply_theme(theme)

    def headline(self, c: AttentionComparison) -> str:
        """Bytes (exact through L2, modelled at HBM, with where the re-reads come from), time and bound."""
        nv, fl = c.naive, c.flash
        bound = self.bound_names()
        head = self.tr("At N = {n}, d = {d} the FlashAttention-style kernel moves {g}× fewer bytes through L2 "
                       "({gf} vs {gn}, exact): the N × N scores S and probabilities P ({sp} each) never leave the "
                       "chip.").format(n=num(c.seq_len), d=c.head_dim, g=num(c.global_reduction, 1),
                                       gf=si_bytes(fl.global_bytes), gn=si_bytes(nv.global_bytes),
                                       sp=si_bytes(c.seq_len * c.seq_len * c.element_bytes))
        if fl.reuse_level == "l2":
            hbm = self.tr("Its K/V re-reads come from L2 (K and V of the heads in flight fit there), so HBM sees "
                          "{r}× fewer bytes ({hf} vs {hn}, modelled).").format(
                r=num(c.hbm_reduction, 1), hf=si_bytes(fl.hbm_bytes), hn=si_bytes(nv.hbm_bytes))
        else:
            hbm = self.tr("Its K/V re-reads come from HBM (they do not fit the L2), so HBM sees the same {r}× "
                          "fewer bytes ({hf} vs {hn}).").format(
                r=num(c.hbm_reduction, 1), hf=si_bytes(fl.hbm_bytes), hn=si_bytes(nv.hbm_bytes))
        time = self.tr("Predicted {tf}, limited by {bf}, against {tn}, limited by {bn}: {s}× faster on the "
                       "{gpu}, for exactly the same result.").format(
            tf=seconds_text(fl.predicted_seconds), bf=bound.get(fl.bound, fl.bound),
            tn=seconds_text(nv.predicted_seconds), bn=bound.get(nv.bound, nv.bound), s=num(c.speedup, 1), gpu=c.gpu)
        return f"{head} {hbm} {time}"


# ---------------------------------------------------------------------------
# The page
# ---------------------------------------------------------------------------
class MemoryPage(Page):
    """GPU choice, the hierarchy with live traffic, coalescing and attention."""

    def __init__(self, parent: QWidget | None = None, build_now: bool = True):
        super().__init__(parent)
        self.setObjectName("memory_page")
        if build_now:
            self.build()
        else:
            self.build_later()

    def build(self) -> None:
        self.run = None  # the Explorer's SimRun shown as live traffic
        self.gpu = QComboBox(self)
        self.gpu.setObjectName("memory_gpu")
        add_gpus(self.gpu, lambda spec: spec.full_name)
        gpu_label = QLabel(self.tr("GP&U:"), self)
        gpu_label.setBuddy(self.gpu)
        gpu_note = muted_label(self, self.tr("Follows the Explorer's GPU whenever it finishes a simulation."))
        top = QHBoxLayout()
        top.addWidget(gpu_label)
        top.addWidget(self.gpu)
        top.addWidget(gpu_note, 1)

        self.hierarchy = HierarchyView(self)
        self.coalescing = CoalescingView(self)
        self.attention = AttentionView(self)

        self.bottom = splitter(Qt.Orientation.Horizontal, self, "memory_bottom",
                               (scroll_area(self.coalescing, self), scroll_area(self.attention, self)), stretch=(2, 3))
        self.splitter = splitter(Qt.Orientation.Vertical, self, "memory_splitter",
                                 (scroll_area(self.hierarchy, self), self.bottom))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 0)
        layout.addLayout(top)
        layout.addWidget(self.splitter, 1)

        self.gpu.currentIndexChanged.connect(lambda _i: self._gpu_changed())
        self.attention.changed.connect(self._update_status)
        self._gpu_changed()

    def gpu_name(self) -> str:
        return self.gpu.currentData()

    def set_gpu(self, name: str) -> bool:
        return select_data(self.gpu, name)

    def _gpu_changed(self) -> None:
        self.hierarchy.show_gpu(self.gpu_name())
        self.attention.set_gpu(self.gpu_name())
        self._show_run_text()
        self._update_status()

    # -- the Explorer's simulation ------------------------------------------------------
    @deferred
    def show_run(self, run) -> None:
        """Live traffic from an explorer ``SimRun`` (its GPU becomes the page's GPU; an unbuilt page keeps the
        latest)."""
        self.run = run
        self.set_gpu(run.result.scenario.gpu_name)
        mb = run.result.memory_bytes
        traffic = {level: int(mb[key]) for level, key in TRAFFIC_KEY.items() if key in mb}
        seconds = float(run.summary["kernel_time_us"]) * 1e-6
        through = run.summary.get("throughput", {})
        rates = {level: (float(through[key]["achieved"]), float(through[key]["pct_of_peak"]) / 100.0)
                 for level, key in TRAFFIC_KEY.items() if key in through}
        caches = run.summary.get("caches") or {}
        hits = {}
        if caches.get("by_address"):
            hits = {"l1": (caches["l1tex__t_sector_hit_rate"], caches["l1tex__t_sectors"]),
                    "l2": (caches["lts__t_sector_hit_rate"], caches["lts__t_sectors"])}
            hits = {k: v for k, v in hits.items() if v[0] is not None}  # TMA copies pass no L1: L2's only
        self.hierarchy.set_traffic(traffic, seconds, "", rates, hits)
        self._show_run_text()
        self._update_status()

    def _show_run_text(self) -> None:
        run = self.run
        if run is None:
            self.hierarchy.run_text.setText(self.tr("This simulation: nothing simulated yet in the Explorer."))
            return
        s = run.summary
        sc = run.result.scenario
        text = self.tr(
            "<b>This simulation</b> (the Explorer's “{name}” on the {gpu}: {cycles} cycles, {t}): L1 and L2 count "
            "the bytes they served (the sectors that hit: loads, and stores written into L2), HBM the bytes read "
            "from and written to device memory ({bw} of {peak}), shared memory every shared load and store. "
            "The rates are the Explorer's Speed-of-Light figures: each unit's throughput and its share of the peak "
            "(L1's and L2's count every byte that crosses them, hits and misses).").format(
            name=sc.name or self.tr("scenario"), gpu=s["gpu"], cycles=num(s['cycles']),
            t=seconds_text(s["kernel_time_us"] * 1e-6), bw=bandwidth_text(s["dram_bandwidth_gbs"]),
            peak=bandwidth_text(sc.gpu.memory_bandwidth_gbs))
        if (s.get("caches") or {}).get("by_address"):
            text += " " + self.tr("L1 and L2 hits come from the addresses the kernel touches, through tags the "
                                  "size of each cache.")
        elif any(s.get("memory_bytes", {}).get(k) for k in ("l1", "l2", "dram")):
            text += " " + self.tr("L1 and L2 hits are drawn from the scenario's hit rates: these accesses have "
                                  "no addresses the simulated caches could see.")
        if sc.gpu_name != self.gpu_name():
            text += " " + self.tr("(The hierarchy above is the {gpu}'s, not the simulated GPU's.)").format(
                gpu=self.gpu_name())
        self.hierarchy.run_text.setText(text)

    def _update_status(self) -> None:
        text = self.tr("Memory hierarchy of the {gpu}").format(gpu=self.gpu_name())
        if self.run is not None:
            t = self.hierarchy.traffic
            text += self.tr(" · this simulation: HBM {hbm}, L2 {l2}, shared {sh}").format(
                hbm=si_bytes(t.get("hbm", 0)), l2=si_bytes(t.get("l2", 0)), sh=si_bytes(t.get("shared", 0)))
        self.set_status(text)

    # -- lessons ------------------------------------------------------------------------------
    def apply_lesson_gemm(self, inputs: dict) -> None:
        """A lesson step's table for this view: ``seq_len``, ``head_dim``, ``dtype`` (attention), ``gpu``."""
        if not inputs:
            return
        if "gpu" in inputs:
            self.set_gpu(str(inputs["gpu"]))
        values = {k: inputs[k] for k in ATTENTION_FIELDS if k in inputs}
        dtype = str(inputs["dtype"]).lower() if "dtype" in inputs else None
        if values or dtype:
            self.attention.set_inputs(values, dtype)

    # -- window hooks -----------------------------------------------------------------------
    def themed_views(self) -> tuple:
        return self.hierarchy, self.coalescing, self.attention

    def first_sizes(self) -> None:
        """The hierarchy whole if it fits in half the height; else at least down to its table's last level (the
        run's paragraph under it scrolls) while the panes below keep BOTTOM_MIN: they scroll on their own."""
        h = max(self.splitter.height(), 600)
        table = min(self.hierarchy.table_height() + 8, h - BOTTOM_MIN)
        top = min(self.hierarchy.sizeHint().height() + 8, max(int(h * 0.5), table))
        self.splitter.setSizes([top, h - top])
        w = max(self.bottom.width(), 1000)
        self.bottom.setSizes([int(w * 0.42), w - int(w * 0.42)])

    def splitters(self) -> dict[str, QSplitter]:
        return {"splitter": self.splitter, "bottom": self.bottom}

    def capture_state(self, live: bool = False) -> dict:
        return super().capture_state(live) | {"gpu": self.gpu_name(), "dtype": self.attention.dtype.currentData(),
                                              "bytes_per_thread": str(self.coalescing.width_box.currentData())} \
            | self.attention.raw_values()

    def restore_state(self, state: dict) -> None:
        if self.run is None:
            self.set_gpu(as_str(state.get("gpu"), self.gpu_name()))
        self.attention.set_inputs({name: as_str(state.get(name), ATTENTION_DEFAULTS[name])
                                   for name in ATTENTION_FIELDS}, as_str(state.get("dtype"), "fp16"))
        select_data(self.coalescing.width_box, as_int(state.get("bytes_per_thread"), 4) or 4)
        super().restore_state(state)
