"""Small building blocks the pages share: scroll areas, splitters, labels, combo boxes.

Each is what several pages wrote out line by line; the pages keep their own
object names, texts and stretch factors.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QFormLayout, QLabel, QScrollArea, QSizePolicy, QSplitter, QWidget

from explorer.gui.common.error_texts import core_message
from explorer.gui.common.theme import restyle
from explorer.model.catalog import GpuSpec, load_catalog

DEFAULT_GPU = "H100"  # every GPU picker starts here: the mission's example runs on an H100


def scroll_area(widget: QWidget, parent: QWidget) -> QScrollArea:
    """``widget`` in a frameless scroll area that scrolls vertically only (a column of a page)."""
    area = QScrollArea(parent)
    area.setWidget(widget)
    area.setWidgetResizable(True)
    area.setFrameShape(QScrollArea.Shape.NoFrame)
    area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    return area


def splitter(orientation: Qt.Orientation, parent: QWidget, name: str, widgets: Sequence[QWidget],
             stretch: Sequence[int] = ()) -> QSplitter:
    """A splitter named ``name`` holding ``widgets`` (never collapsed), with their stretch factors if given."""
    s = QSplitter(orientation, parent)
    s.setObjectName(name)
    s.setChildrenCollapsible(False)
    for widget in widgets:
        s.addWidget(widget)
    for index, factor in enumerate(stretch):
        s.setStretchFactor(index, factor)
    return s


def input_form(parent: QWidget | None = None) -> QFormLayout:
    """A form of inputs: the fields grow with the column, the labels stand right-aligned beside them."""
    form = QFormLayout(parent) if parent is not None else QFormLayout()
    form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
    form.setLabelAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    return form


def add_row(form: QFormLayout, parent: QWidget, text: str, widget: QWidget, tip: str = "") -> QLabel:
    """A labelled row whose Alt+letter focuses ``widget``; ``tip`` explains both (a field's help, or its tooltip)."""
    label = QLabel(text, parent)
    label.setBuddy(widget)
    if tip:
        label.setToolTip(tip)
        if callable(getattr(widget, "set_help", None)):
            widget.set_help(tip)
        else:
            widget.setToolTip(tip)
    form.addRow(label, widget)
    return label


def wrap(label: QLabel) -> QLabel:
    """Word-wrapped, and as narrow as its column (a long text never widens the window)."""
    label.setWordWrap(True)
    label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
    return label


def muted_label(parent: QWidget, text: str = "") -> QLabel:
    """A wrapped label in the theme's muted colour (notes, explanations)."""
    label = QLabel(text, parent)
    label.setProperty("role", "muted")
    return wrap(label)


def error_label(parent: QWidget, text: str = "") -> QLabel:
    """A word-wrapped label in the theme's error colour, hidden until there is something to say."""
    label = QLabel(text, parent)
    label.setProperty("role", "error")
    label.setWordWrap(True)
    label.hide()
    return label


def show_combo_error(combo: QComboBox, label: QLabel, message: str | None) -> None:
    """Mark ``combo`` invalid (red border) and show ``message`` in ``label``; None or "" clears both."""
    message = core_message(message)
    label.setText(message or "")
    label.setVisible(bool(message))
    combo.setProperty("invalid", bool(message))
    restyle(combo)


def select_data(combo: QComboBox, value) -> bool:
    """Make the item whose data is ``value`` current; False (and no change) when there is none."""
    index = combo.findData(value)
    if index >= 0:
        combo.setCurrentIndex(index)
    return index >= 0


def add_gpus(combo: QComboBox, tooltip: Callable[[GpuSpec], str]) -> None:
    """One item per catalog GPU (text and data: its name), with ``tooltip(spec)`` as the item's tooltip;
    :data:`DEFAULT_GPU` is selected."""
    for spec in load_catalog().values():
        combo.addItem(spec.name, spec.name)
        combo.setItemData(combo.count() - 1, tooltip(spec), Qt.ItemDataRole.ToolTipRole)
    select_data(combo, DEFAULT_GPU)
