"""Scale a running window for a projector: fonts, fixed sizes, plot text and pens.

Qt fixes its device-pixel ratio when the application starts (``QT_SCALE_FACTOR``),
so presentation mode scales what the widgets are made of instead, from values
recorded the first time each object is seen (scaling back to 1.0 restores them
exactly):

- every widget's font (set on each one: with the theme's application style sheet,
  Qt does not pass a parent's font on to its children), so big numbers and headings
  keep their proportions — except a widget with the property
  ``display_scale_own_font`` (the narration), whose owner sizes it from the scale; fonts a custom-painted widget keeps in attributes
  (``self._title_font``) too, after which its
  ``display_scale_changed(scale)`` or ``relayout()`` is called when it has one;
- minimum/maximum/fixed sizes (most are derived from font metrics);
- pyqtgraph: axis tick and label fonts, fixed axis widths, plot titles, and the
  width of curve and line pens (re-applied after a theme change resets them).
"""

from __future__ import annotations

import weakref

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QFont, QPen
from PySide6.QtWidgets import QApplication, QSplitter, QWidget

_BASE = "_display_scale_base"  # a Python attribute on wrappers / items: values at scale 1.0

_app_base_font: QFont | None = None


def _scaled_font(font: QFont, base_pt: float, scale: float) -> QFont:
    f = QFont(font)
    f.setPointSizeF(max(1.0, base_pt * scale))
    return f


class DisplayScaler:
    """Applies one scale factor to a window and everything in it; ``apply(1.0)`` undoes it."""

    def __init__(self, root: QWidget):
        self.root = root
        self.scale = 1.0
        self._seen: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # widget -> base values
        self._pending: weakref.WeakSet = weakref.WeakSet()
        self._splitters: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # splitter -> sizes at 1.0
        self._watching = False
        self._filter = _FontWatch(self)

    # -- entry point ----------------------------------------------------------------
    def apply(self, scale: float) -> None:
        global _app_base_font
        previous = self.scale
        self.scale = float(scale)
        if _app_base_font is None:
            _app_base_font = QFont(QApplication.instance().font())
        # Each widget's own font, not the application's or the window's: with an application
        # style sheet (the theme's) Qt does not propagate a parent's font to its children, and
        # the rest of the process (other windows, tests) keeps its font.
        widgets = [self.root, *(w for w in self.root.findChildren(QWidget) if not w.isWindow())]
        for w in widgets:
            self._scale_widget(w, previous)
        for w in widgets:
            self._scale_plot(w, previous)
        for w in widgets:
            self._scale_painted(w, previous)
        self._watch()
        for w in widgets:
            if isinstance(w, QSplitter) and (previous != self.scale or w not in self._splitters):
                self._scale_splitter(w, previous)

    def rebase(self, splitters=None) -> None:
        """The splitters' sizes now are their sizes at 1.0 (presentation mode starts from the user's layout);
        they stay so until the next call, whatever scales are shown meanwhile. ``splitters``: only these (the
        ones laid out; default every one with a size); the others are recorded when first seen at 1.0."""
        splitters = self.root.findChildren(QSplitter) if splitters is None else splitters
        self._splitters = weakref.WeakKeyDictionary({s: list(s.sizes()) for s in splitters if any(s.sizes())})

    def _watch(self) -> None:
        """Style sheets put a widget's old font back when a dynamic property changes (a row
        that stops being the limiter): while scaled, put the scaled one back."""
        app = QApplication.instance()
        if self.scale != 1.0 and not self._watching:
            app.installEventFilter(self._filter)
            self._watching = True
        elif self.scale == 1.0 and self._watching:
            app.removeEventFilter(self._filter)
            self._watching = False

    def _font_changed(self, w: QWidget) -> None:
        base = self._seen.get(w)
        if base is None or base["font"] is None or self.scale == 1.0:
            return
        want = base["font"] * self.scale
        if abs(w.font().pointSizeF() - want) > 1e-6 and w not in self._pending:
            self._pending.add(w)
            QTimer.singleShot(0, lambda: self._fix_font(w))

    def _fix_font(self, w: QWidget) -> None:
        self._pending.discard(w)
        try:
            base = self._seen.get(w)
            if base is not None and base["font"] is not None:
                want = base["font"] * self.scale
                if abs(w.font().pointSizeF() - want) > 1e-6:
                    w.setFont(_scaled_font(w.font(), base["font"], self.scale))
        except RuntimeError:
            pass

    def reapply(self) -> None:
        """Re-scale what changed underneath (a theme reset pens, a page was added)."""
        self.apply(self.scale)

    def font(self) -> QFont:
        """The scaled base font (for items that do not inherit the window's font)."""
        base = _app_base_font or QApplication.instance().font()
        return _scaled_font(base, base.pointSizeF(), self.scale)

    # -- widgets ----------------------------------------------------------------------
    def _base(self, w, previous: float) -> dict:
        base = self._seen.get(w)
        if base is None:
            # first seen now: sizes that follow the font were made at the previous scale
            f = w.font()
            base = {
                "font": f.pointSizeF() / previous if f.pointSizeF() > 0 else None,
                "fixed": self._fixed(w, previous),
                "applied": None,
            }
            self._seen[w] = base
        return base

    @staticmethod
    def _fixed(w: QWidget, divisor: float) -> tuple:
        """Fixed widths/heights (minimum == maximum): those come from font metrics. Plain
        minimums are layout preferences and stay, so a scaled window still fits its screen."""
        fw = w.minimumWidth() / divisor if 0 < w.minimumWidth() == w.maximumWidth() else None
        fh = w.minimumHeight() / divisor if 0 < w.minimumHeight() == w.maximumHeight() else None
        return fw, fh

    def _scale_widget(self, w: QWidget, previous: float) -> None:
        try:
            base = self._base(w, previous)
        except RuntimeError:
            return
        s = self.scale
        if w.property("display_scale_own_font"):
            base["font"] = None  # its owner sizes it (the narration fits its panel)
        applied = base["applied"]
        if applied is not None and (w.minimumSize().toTuple(), w.maximumSize().toTuple()) != applied:
            base["fixed"] = self._fixed(w, previous)  # the widget set new limits itself since
        if base["font"] is not None:
            f = w.font()
            if abs(f.pointSizeF() - base["font"] * s) > 1e-6:
                w.setFont(_scaled_font(f, base["font"], s))
        fw, fh = base["fixed"]
        if fw is not None and w.minimumWidth() != round(fw * s):
            w.setFixedWidth(round(fw * s))
        if fh is not None and w.minimumHeight() != round(fh * s):
            w.setFixedHeight(round(fh * s))
        base["applied"] = (w.minimumSize().toTuple(), w.maximumSize().toTuple())

    def _scale_painted(self, w: QWidget, previous: float) -> None:
        """Fonts a custom-painted widget keeps in attributes (``self._label_font``)."""
        fonts = {k: v for k, v in getattr(w, "__dict__", {}).items() if isinstance(v, QFont)}
        hook = getattr(w, "display_scale_changed", None)
        if not fonts and hook is None:
            return
        bases = w.__dict__.setdefault(_BASE, {})
        changed = False
        for name, font in fonts.items():
            if name not in bases:
                bases[name] = font.pointSizeF() / previous
            want = bases[name] * self.scale
            if abs(font.pointSizeF() - want) > 1e-6:
                font.setPointSizeF(max(1.0, want))
                changed = True
        if callable(hook):
            hook(self.scale)
        elif changed and callable(getattr(w, "relayout", None)):
            w.relayout()
        if changed:
            w.update()

    def _scale_splitter(self, splitter: QSplitter, previous: float) -> None:
        """Side panels (stretch factor 0) widen with their text; the stretching views give the room.

        Always from the sizes the splitter had at scale 1.0 (:meth:`rebase`, or the first time it is seen
        at 1.0 with a size), so going 250% -> 150% -> 200% gives what going straight to 200% gives. Not from
        whatever it had at the last pass through 1.0: with its side panel hidden meanwhile, that made the
        layout of a scale depend on the scales shown before it. A splitter first seen at another scale (a
        tab never shown before) keeps the sizes its layout gives it until it is seen at 1.0."""
        sizes = splitter.sizes()
        if splitter not in self._splitters:
            if previous == 1.0 and any(sizes):
                self._splitters[splitter] = list(sizes)
            if self.scale == 1.0:
                return
        base = self._splitters.get(splitter)
        total = sum(sizes)
        if base is None or total <= 0 or splitter.count() < 2 or len(base) != len(sizes):
            return
        horizontal = splitter.orientation() == Qt.Orientation.Horizontal

        def stretch(i: int) -> int:
            policy = splitter.widget(i).sizePolicy()
            return policy.horizontalStretch() if horizontal else policy.verticalStretch()

        shown = [i for i in range(len(sizes)) if not splitter.widget(i).isHidden() and base[i] > 0]
        fixed = [i for i in shown if stretch(i) == 0]
        flex = [i for i in shown if stretch(i) > 0]
        if not fixed or not flex:
            return
        new = [0] * len(sizes)
        for i in fixed:
            new[i] = round(base[i] * self.scale)
        budget = int(total * 0.6)  # the views keep at least 40%
        used = sum(new[i] for i in fixed)
        if used > budget:
            for i in fixed:
                new[i] = int(new[i] * budget / used)
        rest = total - sum(new[i] for i in fixed)
        flex_total = sum(base[i] for i in flex) or 1
        for i in flex:
            new[i] = int(rest * base[i] / flex_total)
        splitter.setSizes(new)

    # -- pyqtgraph --------------------------------------------------------------------
    def _scale_plot(self, w: QWidget, previous: float) -> None:
        import pyqtgraph as pg

        if not isinstance(w, pg.GraphicsView):
            return
        scene = w.scene()
        if scene is None:
            return
        app_font = self.font()
        for item in scene.items():
            if isinstance(item, pg.AxisItem):
                self._scale_axis(item, app_font, previous)
            elif isinstance(item, pg.LabelItem):
                self._scale_label(item, previous)
            elif isinstance(item, pg.TextItem):
                self._scale_text(item, previous)
            elif isinstance(item, (pg.PlotDataItem, pg.PlotCurveItem, pg.InfiniteLine)):
                self._scale_pen(item, previous)
        w.viewport().update()

    @staticmethod
    def _item_base(item, make) -> dict:
        base = getattr(item, _BASE, None)
        if base is None:
            base = make()
            setattr(item, _BASE, base)
        return base

    def _scale_axis(self, axis, app_font: QFont, previous: float) -> None:
        # fixed widths are the owner's constants (unscaled); the label font followed the app font
        base = self._item_base(axis, lambda: {
            "width": axis.fixedWidth, "height": axis.fixedHeight,
            "label": (_app_base_font or axis.label.font()).pointSizeF(),
            "text": (axis.textWidth, axis.textHeight),
        })
        s = self.scale
        if s != previous:
            # pyqtgraph keeps the largest tick text it has measured and gives back less only when it shrinks by
            # 10 px: after 150% the bottom axes of a 100% window stayed 1.5 px taller than a fresh window's (the
            # counts plot's right-axis title then lost its room), and what fitted depended on the scales shown
            # before. From the text room it had when first seen, it measures the new scale's ticks afresh.
            axis.textWidth, axis.textHeight = base["text"]
        axis.setStyle(tickFont=QFont(app_font) if s != 1.0 else None)  # None: pyqtgraph's default again
        font = QFont(axis.label.font())
        font.setPointSizeF(max(1.0, base["label"] * s))
        axis.label.setFont(font)
        if base["width"]:
            axis.setWidth(round(base["width"] * s))
        if base["height"]:
            axis.setHeight(round(base["height"] * s))
        if hasattr(axis, "_updateLabel"):
            axis._updateLabel()
        axis.resizeEvent()  # the title placed for its new size (pyqtgraph does so only when the axis resizes)
        axis.picture = None
        axis.update()

    def _scale_text(self, item, previous: float) -> None:
        """Annotations in plots (pg.TextItem): their QGraphicsTextItem's font."""
        text = item.textItem
        base = self._item_base(item, lambda: {"pt": text.font().pointSizeF() / previous})
        want = base["pt"] * self.scale
        if base["pt"] > 0 and abs(text.font().pointSizeF() - want) > 1e-6:
            font = QFont(text.font())
            font.setPointSizeF(want)
            text.setFont(font)
            item.updateTextPos()

    def _scale_label(self, label, previous: float) -> None:
        """Plot titles: pyqtgraph writes their size into the HTML (``size="10pt"``)."""
        scaler = self
        if not hasattr(label, _BASE):
            original = label.setText  # bound method of the class

            def set_text(text, **opts):
                size = opts.get("size")  # given by the owner: unscaled, the new base
                if isinstance(size, str) and size.endswith("pt"):
                    label.__dict__[_BASE]["size"] = float(size[:-2])
                base_size = label.__dict__[_BASE].get("size")
                if base_size is not None:  # titles grow a little less: they must fit on one line
                    opts["size"] = f"{base_size * (1 + 0.75 * (scaler.scale - 1)):.3g}pt"
                original(text, **opts)

            size = label.opts.get("size")
            setattr(label, _BASE, {"size": float(size[:-2])  # the owner's constant, unscaled
                                   if isinstance(size, str) and size.endswith("pt") else None})
            label.setText = set_text
        if getattr(label, _BASE).get("size") is not None and label.text:
            label.setText(label.text)

    def _scale_pen(self, item, previous: float) -> None:
        """Widen curve and line pens. Owners only ever set unscaled pens (they know no scale),
        so a width other than the one applied here last is the new base (e.g. after a theme change)."""
        import pyqtgraph as pg

        if isinstance(item, pg.PlotCurveItem) and isinstance(item.parentItem(), pg.PlotDataItem):
            return  # the PlotDataItem owns this pen and re-sends it on every setData
        if isinstance(item, pg.InfiniteLine):
            pen = item.pen
        else:
            pen = item.opts.get("pen")
        if not isinstance(pen, QPen) or pen.style() == Qt.PenStyle.NoPen:
            return
        base = getattr(item, _BASE, None)
        width = pen.widthF()
        if base is None or abs(width - base["applied"]) > 1e-6:
            base = {"width": width, "applied": width}
            setattr(item, _BASE, base)
        want = base["width"] * self.scale if base["width"] > 0 else (self.scale if self.scale != 1 else 0.0)
        if abs(width - want) > 1e-6:
            new = QPen(pen)
            new.setWidthF(want)
            item.setPen(new)
        base["applied"] = want


class _FontWatch(QObject):
    def __init__(self, scaler: DisplayScaler):
        super().__init__()
        self.scaler = scaler

    def eventFilter(self, obj, event) -> bool:
        if event.type() == QEvent.Type.FontChange and isinstance(obj, QWidget):
            try:
                mine = obj.window() is self.scaler.root
            except RuntimeError:
                mine = False
            if mine:
                self.scaler._font_changed(obj)
        return False
