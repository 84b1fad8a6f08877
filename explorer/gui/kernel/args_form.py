"""The arguments form, generated from the compiled kernel's signature: one row per parameter.

A scalar is a field for its value (the type beside it: ``int``, ``float``, ``float2``);
a pointer is a buffer: its element type (fixed when the signature says it, a choice for
``void*``), how many elements, and what fills it before the kernel runs (zeros, ones,
0, 1, 2, … or seeded random numbers). Each field shows the core's message under it when
the value does not fit its parameter (``form_values.build``).
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QComboBox, QGridLayout, QHBoxLayout, QLabel, QSizePolicy, QWidget

from explorer.gui.common.int_field import IntField, show_field_errors
from explorer.gui.common.widgets import muted_label
from explorer.gui.kernel.form_values import ParamRow
from explorer.model.kernel_spec import INITS


class ArgumentsForm(QWidget):
    """Rows for the parameters of one kernel; ``texts()`` are the form_values keys."""

    edited = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("kernel_arguments")
        self.rows: list[ParamRow] = []
        self.fields: dict[str, IntField] = {}  # scalars by name, buffer counts as NAME.count
        self.combos: dict[str, QComboBox] = {}  # NAME.dtype, NAME.init
        self.grid = QGridLayout(self)
        self.grid.setContentsMargins(0, 0, 0, 0)
        self.grid.setHorizontalSpacing(6)
        self.grid.setVerticalSpacing(4)
        self.grid.setColumnStretch(2, 1)
        self.empty = muted_label(self, self.tr("Open a .cu file and pick a kernel: its parameters appear here."))
        self.grid.addWidget(self.empty, 0, 0, 1, 3)

    def _init_names(self) -> dict[str, str]:
        return {"zeros": self.tr("zeros"), "ones": self.tr("ones"), "arange": self.tr("0, 1, 2, …"),
                "random": self.tr("random")}

    def _init_tips(self) -> dict[str, str]:
        return {"zeros": self.tr("Every element 0 before the kernel runs."),
                "ones": self.tr("Every element 1 before the kernel runs."),
                "arange": self.tr("Element i holds i before the kernel runs."),
                "random": self.tr("Seeded random numbers (the scenario's seed): [0, 1) for floats, [0, 256) for "
                                  "integers.")}

    def set_rows(self, rows: list[ParamRow], texts: dict[str, str]) -> None:
        """Rebuild the rows for a (newly compiled) kernel, filled with ``texts``."""
        while self.grid.count():
            item = self.grid.takeAt(0)
            widget = item.widget()
            if widget is not None and widget is not self.empty:
                widget.deleteLater()
        self.rows, self.fields, self.combos = list(rows), {}, {}
        self.empty.setVisible(not rows)
        if not rows:
            self.grid.addWidget(self.empty, 0, 0, 1, 3)
            return
        for i, r in enumerate(rows):
            name = QLabel(f"<b>{_escape(r.name)}</b>", self)
            name.setTextFormat(Qt.TextFormat.RichText)
            kind = QLabel(r.type_text, self)
            kind.setTextFormat(Qt.TextFormat.PlainText)
            kind.setProperty("role", "muted")
            kind.setToolTip(self.tr("The parameter's type as the kernel declares it."))
            self.grid.addWidget(name, i, 0, Qt.AlignmentFlag.AlignTop)
            self.grid.addWidget(kind, i, 1, Qt.AlignmentFlag.AlignTop)
            if r.pointer:
                self.grid.addWidget(self._buffer_row(r, texts), i, 2)
            else:
                field = IntField(texts.get(r.name, ""), parent=self)
                field.setObjectName(f"arg_{r.name}")
                field.edit.setAlignment(Qt.AlignmentFlag.AlignLeft)
                field.set_help(self._scalar_tip(r))
                field.edited.connect(lambda _t: self.edited.emit())
                self.fields[r.name] = field
                name.setBuddy(field)
                self.grid.addWidget(field, i, 2)

    def _scalar_tip(self, r: ParamRow) -> str:
        if r.lanes > 1:
            return self.tr("A vector by value: {n} numbers separated by commas.").format(n=r.lanes)
        if r.dtype == "b8":
            return self.tr("true or false.")
        if r.dtype in ("f16", "bf16", "f32", "f64"):
            return self.tr("A number passed by value ({dtype}).").format(dtype=r.dtype)
        return self.tr("An integer passed by value ({dtype}: the type's range is checked).").format(
            dtype=r.dtype or "?")

    def _buffer_row(self, r: ParamRow, texts: dict[str, str]) -> QWidget:
        box = QWidget(self)
        row = QHBoxLayout(box)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(4)
        dtype = QComboBox(box)
        dtype.setObjectName(f"arg_{r.name}_dtype")
        for d in r.dtypes:
            dtype.addItem(d, d)
        dtype.setCurrentIndex(max(dtype.findData(texts.get(f"{r.name}.dtype")), 0))
        dtype.setEnabled(len(r.dtypes) > 1)
        dtype.setToolTip(self.tr("The buffer's element type: the pointer's own (void* and structs take any)."))
        count = IntField(texts.get(f"{r.name}.count", ""), parent=box)
        count.setMinimumWidth(count.fontMetrics().horizontalAdvance("0000000000"))
        count.setObjectName(f"arg_{r.name}_count")
        count.set_help(self.tr("Elements in the buffer; the kernel may touch only these (an access outside every "
                               "buffer stops the run, naming the thread and address)."))
        times = QLabel("×", box)
        init = QComboBox(box)
        init.setObjectName(f"arg_{r.name}_init")
        init.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        init.setSizePolicy(QSizePolicy.Policy.Minimum, QSizePolicy.Policy.Fixed)  # never elided: the count gives way
        names, tips = self._init_names(), self._init_tips()
        for key in INITS:
            init.addItem(names[key], key)
            init.setItemData(init.count() - 1, tips[key], Qt.ItemDataRole.ToolTipRole)
        init.setCurrentIndex(max(init.findData(texts.get(f"{r.name}.init")), 0))
        init.setToolTip(self.tr("What the buffer holds before the kernel runs."))
        row.addWidget(dtype)
        row.addWidget(times)
        row.addWidget(count, 1)
        row.addWidget(init)
        count.edited.connect(lambda _t: self.edited.emit())
        dtype.currentIndexChanged.connect(lambda _i: self.edited.emit())
        init.currentIndexChanged.connect(lambda _i: self.edited.emit())
        self.fields[f"{r.name}.count"] = count
        self.combos[f"{r.name}.dtype"] = dtype
        self.combos[f"{r.name}.init"] = init
        return box

    def texts(self) -> dict[str, str]:
        out = {key: field.text() for key, field in self.fields.items()}
        out.update({key: str(combo.currentData()) for key, combo in self.combos.items()})
        return out

    def show_errors(self, errors: dict[str, str]) -> None:
        show_field_errors(self.fields, {k: v for k, v in errors.items() if k in self.fields},
                          self.tr("Give a value"))


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
