"""The Explorer tab's arrangement: its widgets, the splitters they sit in, and how the panes share the room.

Why apart from the page: the page is a view of the workspace (what it shows and which change goes where);
how tall the timeline is under a lesson's narration, or which pane gives way when presentation mode scales the
text, changes for other reasons and is most of the code. :class:`ExplorerLayout` builds the views and their
containers (the page takes the widgets over as its own attributes: features and tests reach them there) and
keeps every size rule in one place:

* the first sizes (``first_sizes``): the columns as wide as their text needs where the window has room, the
  SM grid over the plots, the unit-use strip folded where a short column cannot give it its rows;
* not presenting, each pane keeps what its text needs (``keep_grid``, ``room_for_plots``) and the views
  features add beside the plots get their share of the row (``share_lower``) until the user moves a handle;
* presenting, the panes are shared by the lines of text they need at the scaled font (``share_center``);
* a lesson: a step pointing at the unit strip opens it (``open_strip_for_step``); its end gives the user's
  plots back (``give_back``), once the column has its height.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt, QTimer
from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLabel, QSizePolicy, QSplitter, QVBoxLayout, QWidget

from explorer.gui.common.legend import StateLegend
from explorer.gui.common.page import Page, pane_minimum
from explorer.gui.common.widgets import FittingLabel, scroll_area, splitter
from explorer.gui.explore.counts_plot import MIN_HEIGHT as COUNTS_MIN_HEIGHT
from explorer.gui.explore.counts_plot import CountsPlot
from explorer.gui.explore.metrics import MetricsPanel
from explorer.gui.explore.scenario_panel import ScenarioPanel
from explorer.gui.explore.sm_grid import SmGridView
from explorer.gui.explore.sol_panel import SolPanel
from explorer.gui.explore.stream_strip import StreamStrip
from explorer.gui.explore.timeline import MIN_HEIGHT as TIMELINE_MIN_HEIGHT
from explorer.gui.explore.timeline import TimelineView
from explorer.gui.explore.transport import TransportBar
from explorer.gui.explore.unit_strip import UnitStrip

STRIP_ROOM = 560  # px of the center column from which the unit-use strip starts open (see first_sizes)
PLOTS_SHARES = (19, 27)  # the timeline and the counts plot (its legend may wrap): shares of their pane
# px the plots keep at least while the stream strip takes part of their column (110 without): the Explorer with
# the strip then leaves a lesson's narration its three lines on a 1280x720 screen (Russian); each y axis keeps
# two numbers, the timeline one scheduler's name at least
COUNTS_UNDER_STRIP, TIMELINE_UNDER_STRIP = 100, 104
PLOTS_BESIDE_VIEWS = 420  # px the timeline and counts plot keep beside the views added next to them
# px the center column keeps at first before the scenario column is laid out as wide as its labels beside its
# fields (narrower, it stacks them): the SM grid with its SM numbers, its legend in four columns (1024x640)
CENTER_ROOM = 600


class ExplorerLayout(QObject):
    """The Explorer page's widgets (children of ``page``) in their splitters, and the rules that size the panes."""

    def __init__(self, page: Page):
        super().__init__(page)
        self.page = page
        self.presenting = False  # presentation mode: the center's panes shared by the text they need
        self.strip_step = False  # the lesson step on screen points at the unit-use strip
        self._lower_moved = False  # the user moved the handle beside the plots: their share is theirs
        self._plots_back: dict | None = None  # a lesson ended: the user's splitters, to give back (give_back_plots)

        # -- views --------------------------------------------------------------------
        self.panel = ScenarioPanel(page)
        self.grid = SmGridView(page)
        self.legend = StateLegend(parent=page)
        self.timeline = TimelineView(page)
        self.counts = CountsPlot(page)
        self.counts.setXLink(self.timeline)
        self.timeline.line_up_with(self.counts)  # the link lines cycles up by pixels: the same view box span
        self.metrics = MetricsPanel(page)
        # Speed of Light: "what limits useful work right now?" (bars in the metrics column, the strip on the time axis)
        self.sol = SolPanel(self.metrics)
        self.metrics.layout().insertWidget(1, self.sol)
        self.unit_strip = UnitStrip(page)
        self.unit_strip.setXLink(self.timeline)
        self.unit_strip.line_up_with(self.counts)  # its view box spans the timeline's and the counts plot's pixels
        self.stream_strip = StreamStrip(page)  # shown when the scenario launches its kernel more than once
        self.transport = TransportBar(page)

        self.grid_title = FittingLabel(page)  # shortened, never cut, when the column is narrow
        self.grid_title.setObjectName("grid_title")
        self.grid_title.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.run_state = QLabel(page)
        self.run_state.setObjectName("run_state")
        self.run_state.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        # a fixed-height head row: a changing message must never resize (and re-layout) the SM grid
        head_h = page.fontMetrics().height() + 4
        self.grid_title.setFixedHeight(head_h)
        self.run_state.setFixedHeight(head_h)
        # the page's words: under the page's context in the catalogue, wherever the code that shows them lives
        translate = QCoreApplication.translate
        self.per_sm = QCheckBox(translate("ExplorerPage", "Counts of the selected SM only"), page)
        self.per_sm.setObjectName("per_sm_counts")
        self.per_sm.setToolTip(translate(
            "ExplorerPage", "Show resident, eligible and issued warps of the selected SM instead of the whole GPU."))
        self.per_sm.setFocusPolicy(Qt.FocusPolicy.NoFocus)

        grid_box = QWidget(page)
        gl = self._grid_layout = QVBoxLayout(grid_box)
        gl.setContentsMargins(0, 0, 0, 0)
        gl.setSpacing(2)
        head = QHBoxLayout()
        head.addWidget(self.grid_title, 1)
        head.addWidget(self.run_state)
        gl.addLayout(head)
        gl.addWidget(self.grid, 1)
        gl.addWidget(self.legend)

        # the counts plot with its legend: what a lesson outlines and File > Export draws as "Counts plot"
        counts_box = self.counts_panel = QWidget(page)
        counts_box.setObjectName("counts_panel")
        cl = self._counts_layout = QVBoxLayout(counts_box)
        cl.setContentsMargins(0, 0, 0, 0)
        cl.setSpacing(0)
        cl.addWidget(self.stream_strip)
        cl.addWidget(self.counts, 1)
        legend = self.counts.make_legend(counts_box)
        legend.layout().addWidget(self.per_sm)  # after the curves' names, on a line of its own when narrow
        cl.addWidget(legend)

        # the two plots one above the other with the unit-use strip between them (their cycle axes line up), in a
        # row other features add a view beside (the SASS view: add_beside_timeline); the SM grid keeps the width
        # (fit_panes: the counts pane never lets its legend, wrapped onto two lines, lie over the cycle axis)
        self.plots = splitter(Qt.Orientation.Vertical, page, "explorer_plots", (self.timeline, self.unit_strip, counts_box),
                              stretch=(PLOTS_SHARES[0], 12, PLOTS_SHARES[1]), fit_panes=True)
        self.plots.setCollapsible(self.plots.indexOf(self.unit_strip), True)
        self.lower = splitter(Qt.Orientation.Horizontal, page, "explorer_lower", (self.plots,), stretch=(3,))
        self.center = splitter(Qt.Orientation.Vertical, page, "explorer_center", (grid_box, self.lower),
                               stretch=(5, 6), fit_panes=True)
        self.center.installEventFilter(self)  # presenting, the panes are shared by their text (share_center)
        self.center.resized.connect(self._center_resized)  # not presenting: each pane keeps what its text needs

        # first laid out as wide as its fields and labels need (first_sizes: Russian labels are longer) where the
        # window has room, but never a minimum that wide: the window must still fit an 800 px screen (narrower,
        # the panel puts its labels above its fields: it never scrolls sideways)
        self.panel_scroll = scroll_area(self.panel, page)
        self.panel_scroll.setMinimumWidth(220)
        self.metrics_scroll = scroll_area(self.metrics, page)
        # never narrower than the panel: clipped numbers would be worse than a narrower grid
        self.metrics_scroll.setMinimumWidth(max(260, self.metrics.minimumSizeHint().width()
                                                + self.metrics_scroll.verticalScrollBar().sizeHint().width() + 2))
        self.splitter = splitter(Qt.Orientation.Horizontal, page, "explorer_splitter",
                                 (self.panel_scroll, self.center, self.metrics_scroll), stretch=(0, 1, 0))

        layout = QVBoxLayout(page)
        layout.setContentsMargins(4, 4, 4, 0)
        layout.setSpacing(2)
        layout.addWidget(self.splitter, 1)
        layout.addWidget(self.transport)

    def splitters(self) -> dict[str, QSplitter]:
        return {"splitter": self.splitter, "center": self.center, "plots": self.plots}

    # -- places other features add to (the measurement overlay, the SASS view) -------
    def add_under_grid(self, widget: QWidget) -> None:
        self._grid_layout.insertWidget(self._grid_layout.indexOf(self.grid) + 1, widget)

    def add_under_counts(self, widget: QWidget) -> None:
        self._counts_layout.addWidget(widget)

    def add_beside_timeline(self, widget: QWidget) -> None:
        self.lower.addWidget(widget)
        self.lower.setStretchFactor(self.lower.count() - 1, 2)
        widget.installEventFilter(self)  # shown or hidden: the row is shared again (share_lower)
        if self.lower.count() == 2:
            self.lower.installEventFilter(self)  # its share kept on resizes
            self.lower.splitterMoved.connect(lambda *_: setattr(self, "_lower_moved", True))

    def add_to_metrics(self, widget: QWidget) -> None:
        self.metrics.layout().insertWidget(0, widget)

    # -- first sizes ----------------------------------------------------------------
    def first_sizes(self) -> None:
        # shown the first time, the page can be wider than the window (its layout has not run yet: 2,686 px
        # in a 1280x720 window): the page will not be wider than the window
        total = max(min(self.splitter.width(), self.page.window().width()), 900)
        right = max(self.metrics_scroll.minimumWidth(), min(360, int(total * 0.22)))
        room = total - right - CENTER_ROOM - 2 * self.splitter.handleWidth()  # a small screen: the center first
        left = max(self.panel_scroll.minimumWidth(), min(360, self.panel.sizeHint().width() + 16, room))
        self.splitter.setSizes([left, total - left - right, right])
        h = max(self.center.height(), 500)
        strip = self.stream_strip.sizeHint().height() if self.stream_strip.isVisibleTo(self.page) else 0
        grid = int(h * 0.54) - strip
        lower = h - grid - self.center.handleWidth()
        # what the plots' text needs at the column's width: the timeline's minimum, the counts plot with its
        # legend (wrapped: two lines at 1280x720) and the stream strip, the unit strip's names
        width = self.center.width() if self.center.width() > 100 else total - left - right
        counts = self.counts_panel.layout().totalMinimumHeightForWidth(width)
        timeline_min = pane_minimum(self.plots, self.plots.indexOf(self.timeline))
        handles = 2 * self.plots.handleWidth()
        # a short column (1280x720 with the lesson panel open) cannot give the plots and the unit strip the lines
        # their text needs: the strip starts folded there (its splitter handle drags it open)
        unit = max(self.unit_strip.readable_height(), (lower - strip) * 22 // 100) if h >= STRIP_ROOM else 0
        grid_box = self.center.widget(0)
        grid_min = grid_box.layout().totalMinimumHeightForWidth(width)
        if lower < timeline_min + unit + counts + handles:  # the SM grid gives the plots' text its lines ...
            grid = max(grid_min, h - self.center.handleWidth() - (timeline_min + unit + counts + handles))
            lower = h - grid - self.center.handleWidth()
        if lower < timeline_min + unit + counts + handles:  # ... and the unit strip folds if that is not enough
            unit = 0
        rest = lower - handles - unit
        timeline = max(timeline_min, min((rest - strip) * PLOTS_SHARES[0] // sum(PLOTS_SHARES), rest - counts))
        self.center.setSizes([grid, lower])
        self.plots.setSizes([timeline, unit, rest - timeline])

        self._lower_moved = False
        self.share_lower()
        self.keep_grid()

    # -- not presenting: each pane keeps what its text needs ---------------------------
    def share_lower(self) -> None:
        """The views beside the plots get 40% of the row, the plots at least room for their legends' two lines;
        kept on every resize until the user moves the handle."""
        row = self.lower
        shown = [i for i in range(1, row.count()) if not row.widget(i).isHidden()]
        if not shown or self._lower_moved:
            return
        width = row.width() - row.handleWidth() * len(shown)
        side_min = sum(row.widget(i).minimumSizeHint().width() for i in shown)
        plots = max(int(width * 0.6), min(PLOTS_BESIDE_VIEWS, width - side_min))
        side = (width - plots) // len(shown)
        row.setSizes([width - side * len(shown)] + [side if i in shown else 0 for i in range(1, row.count())])

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt API
        if obj is self.center and event.type() == QEvent.Type.Resize:
            if self.presenting:
                self.share_center()  # the narration panel grew or the screen changed
        elif (obj is self.lower and event.type() == QEvent.Type.Resize) or (
                obj is not self.plots and obj.parent() is self.lower
                and event.type() in (QEvent.Type.Show, QEvent.Type.Hide)):
            QTimer.singleShot(0, self, self.share_lower)  # once the splitter has laid out its new width
        return super().eventFilter(obj, event)

    def _center_resized(self) -> None:
        """The column's new height, once its splitter has shared it (not presenting)."""
        if not self.presenting:
            self.give_back_plots()  # the lesson just ended: the user's plots first
            self.keep_grid()
            self.room_for_plots()

    def keep_grid(self) -> None:
        """Not presenting: when the column shrinks (the lesson panel opens) below what the SM grid's title, grid
        and legend need, the unit strip gives the grid that room first, collapsing if it must (its handle drags
        it open again)."""
        sizes, plots = self.center.sizes(), self.plots.sizes()
        strip = self.plots.indexOf(self.unit_strip)
        grid_box = self.center.widget(0)
        short = grid_box.layout().totalMinimumHeightForWidth(grid_box.width()) - sizes[0]
        if short <= 0 or plots[strip] <= 0 or not self.center.isVisible():
            return
        take = min(short, plots[strip])
        if plots[strip] - take < self.unit_strip.minimumHeight():
            take = plots[strip]
        plots[strip] -= take
        self.center.setSizes([sizes[0] + take, sizes[1] - take])
        self.plots.setSizes(plots)

    def room_for_plots(self) -> None:
        """Not presenting: the plots' panes keep what their text needs (the timeline's and the counts plot's
        minimum, the unit strip's names unless the user folded it): the SM grid gives it, down to its own."""
        sizes, plots = self.center.sizes(), self.plots.sizes()
        if len(sizes) != 2 or sum(plots) <= 0 or not self.center.isVisible():
            return
        strip = self.plots.indexOf(self.unit_strip)
        want_strip = plots[strip] > 0 or bool(self.unit_strip.property("folded_for_room"))
        need = sum(pane_minimum(self.plots, i) for i in range(self.plots.count()) if i != strip or want_strip)
        need += self.plots.handleWidth() * (self.plots.count() - 1)
        grid_box = self.center.widget(0)
        spare = sizes[0] - grid_box.layout().totalMinimumHeightForWidth(grid_box.width())
        lack = need - sizes[1]
        if lack > 0 and spare > 0:
            take = min(lack, spare)
            self.center.setSizes([sizes[0] - take, sizes[1] + take])

    def room_for_strip(self, had_strip: bool) -> None:
        """A new run: the plots a little shorter under the stream strip (COUNTS_UNDER_STRIP); when the strip came
        or went, the counts pane grows or shrinks by its height, the grid's gives it."""
        shown = self.stream_strip.isVisibleTo(self.page)
        self.counts.setMinimumHeight(COUNTS_UNDER_STRIP if shown else COUNTS_MIN_HEIGHT)
        self.timeline.setMinimumHeight(TIMELINE_UNDER_STRIP if shown else TIMELINE_MIN_HEIGHT)
        sizes = self.center.sizes()
        if shown == had_strip or self.presenting or sum(sizes) <= 0:
            return  # presenting, share_center shares the panes
        h = self.stream_strip.sizeHint().height() * (1 if shown else -1)
        h = min(h, sizes[0] - self.center.widget(0).minimumSizeHint().height())
        # the center is the grid over the plots' row; in that row the counts pane (the strip's) is last
        self.center.setSizes([sizes[0] - h, *sizes[1:-1], sizes[-1] + h])
        plots = self.plots.sizes()
        if sum(plots) > 0:
            self.plots.setSizes([*plots[:-1], max(0, plots[-1] + h)])

    # -- presenting: the panes shared by the lines of text they need ---------------------
    def set_presenting(self, on: bool) -> None:
        """Presenting, the metrics column has no scroll bar: its details make way instead (nothing is cut)."""
        self.presenting = on
        if not on:
            self.unit_strip.setVisible(True)
        policy = Qt.ScrollBarPolicy.ScrollBarAlwaysOff if on else Qt.ScrollBarPolicy.ScrollBarAsNeeded
        self.metrics_scroll.setVerticalScrollBarPolicy(policy)
        self.metrics_scroll.setHorizontalScrollBarPolicy(policy)
        self.metrics.fit()

    def share_center(self) -> None:
        """The SM grid's pane gets what its title, grid and legend need; the plots share the rest, each at least
        its minimum at this scale (the unit strip's names, the counts plot with its wrapped legend) and up to
        the lines of text it needs (title, four scheduler names or two numbers, the axis, the legend). Short of
        room the unit strip makes way first (unless the step points at it), then the grid's spare lines; what
        still does not fit is the layout check's to find, and presentation mode shows a smaller scale."""
        if not self.presenting:
            return
        line = self.page.fontMetrics().lineSpacing()
        total = sum(self.center.sizes())
        grid_box = self.center.widget(0)
        grid_min = grid_box.layout().totalMinimumHeightForWidth(grid_box.width())
        strip = self.stream_strip.sizeHint().height() if self.stream_strip.isVisibleTo(self.page) else 0  # fixed
        counts_box = self.counts_panel
        mins = [pane_minimum(self.plots, 0), self.unit_strip.readable_height(),
                max(self.counts.minimumHeight(), counts_box.layout().totalMinimumHeightForWidth(counts_box.width()))]
        # the timeline, the unit strip, the counts (the stream strip, fixed, above it)
        wish = [max(mins[0], round(line * 8.5)), max(mins[1], round(line * 6)), max(mins[2], round(line * 8) + strip)]
        handle = 2 * self.plots.handleWidth()
        rest = max(0, total - grid_min - line * 2 - handle)
        # short of room, the unit strip makes way (the Speed-of-Light panel keeps the figures) unless the
        # lesson step on screen points at it
        unit = self.strip_step or rest >= sum(wish)
        self.unit_strip.setVisible(unit)
        if not unit:
            wish[1] = mins[1] = 0
        if rest < sum(mins):  # the grid gives its spare lines, all of them: the plots at their bare minimums
            rest = max(0, total - grid_min - handle)  # drop their axis numbers while the grid kept a line or two
        extra = max(0, rest - sum(mins))
        spread = sum(w - m for w, m in zip(wish, mins))
        share = min(1.0, extra / spread) if spread else 1.0
        panes = [m + round((w - m) * share) for w, m in zip(wish, mins)]
        self.center.setSizes([total - sum(panes) - handle, sum(panes) + handle])
        self.plots.setSizes(panes)

    # -- lessons --------------------------------------------------------------------
    def open_strip_for_step(self) -> None:
        """A lesson step points at the unit strip (``strip_step``): not presenting, it gets room for its rows, from
        the timeline and the counts (presenting, share_center keeps it)."""
        if not self.strip_step or self.presenting:
            return
        sizes = self.plots.sizes()
        strip = self.plots.indexOf(self.unit_strip)
        want = self.page.fontMetrics().lineSpacing() * 6
        lack = want - sizes[strip]
        if lack <= 0:
            return
        for i in (0, 2):  # the timeline, the counts plot: each gives half, down to its minimum
            pane = self.plots.widget(i)
            give = max(0, min(lack // 2 + lack % 2 * (i == 0), sizes[i] - pane.minimumSizeHint().height()))
            sizes[i] -= give
            sizes[strip] += give
        self.plots.setSizes(sizes)

    def shown_sizes(self) -> dict:
        """The sizes on screen, which a splitter state saved after a squeeze does not hold."""
        return {"center_shown": self.center.sizes(), "plots_shown": self.plots.sizes()}

    def give_back(self, state: dict, now: bool) -> None:
        """The lesson ended: :meth:`shown_sizes` in ``state`` come back ``now`` (the page is shown), else once the
        column has its height (a hidden page's sizes are not yet the ones it will have)."""
        self._plots_back = state
        if now:
            self.give_back_plots()

    def forget_plots_back(self) -> None:
        """The page was shown and laid out: a lesson's sizes not given back by then are no one's any more."""
        self._plots_back = None

    def give_back_plots(self) -> None:
        """The lesson's end gives the timeline and the counts plot their sizes back. A column shorter than
        the user's (the lesson panel still open) is taken from the unit strip first (folded if it must),
        then from the SM grid, down to what its text needs."""
        state, self._plots_back = self._plots_back, None
        if state is None:
            return
        center, plots = state.get("center_shown"), state.get("plots_shown")
        if self.presenting or not isinstance(center, list) or not isinstance(plots, list) or len(center) != 2 \
                or len(plots) != self.plots.count() or min(plots) < 0:
            return
        center, plots = list(center), list(plots)
        total = sum(self.center.sizes())
        short = sum(center) - total
        if total <= 0:
            return
        if short <= 0:  # as tall as the user's column, or taller: the grid takes the rest
            lower = sum(plots) + self.plots.handleWidth() * (self.plots.count() - 1)
            self.center.setSizes([total - lower, lower])
            self.plots.setSizes(plots)
            return
        strip = self.plots.indexOf(self.unit_strip)
        give = min(short, plots[strip])
        if plots[strip] - give < pane_minimum(self.plots, strip):
            give = plots[strip]
            self.unit_strip.setProperty("folded_for_room", True)  # it opens again with the room (the dock closes)
        plots[strip] -= give
        grid_box = self.center.widget(0)
        grid = max(grid_box.layout().totalMinimumHeightForWidth(grid_box.width()), center[0] - (short - give))
        self.center.setSizes([grid, total - grid])
        self.plots.setSizes(plots)
