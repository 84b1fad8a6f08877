"""Plug the GEMM and Memory tabs into the main window (listed in ``main_window.FEATURES``).

``install(window)`` adds the two pages (view ids and feature names "gemm" and
"memory"), names their panels for lessons ("gemm", "roofline", "pipeline", "precision", "memory"), sends
the GEMM's scenario to the Explorer tab on request (an undoable change), and feeds
the Explorer's simulations to the Memory tab as live traffic and to the GEMM tab
(which compares the simulation of the scenario it sent with its model, and says
so in a note at the top of the Explorer's metrics while that run is shown).
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QLabel, QSizePolicy

from explorer.gui.gemm.memory_page import MemoryPage
from explorer.gui.gemm.page import GemmPage


def install(window) -> None:
    gemm = GemmPage(window, build_now=False)  # built when first needed (main_window: start-up time)
    memory = MemoryPage(window, build_now=False)
    window.add_page(gemm, QCoreApplication.translate("GemmFeature", "&GEMM"), view_id="gemm")
    window.add_page(memory, QCoreApplication.translate("GemmFeature", "&Memory"), view_id="memory")
    for name, page, attribute in (("gemm", gemm, "tiles"), ("roofline", gemm, "roofline_box"),
                                  ("pipeline", gemm, "pipeline"), ("precision", gemm, "precision"),
                                  ("memory", memory, "hierarchy")):
        window.lesson_targets.add_later(name, page, attribute)

    explorer, workspace = window.explorer, window.workspace

    def simulate_in_explorer(scenario) -> None:
        workspace.change_scenario(scenario, "gemm")
        window.show_view("explorer")

    # beside the simulated time in the Explorer: what the GEMM model expects of the same main loop
    note = QLabel(explorer)
    note.setObjectName("gemm_explorer_note")
    note.setWordWrap(True)
    note.setTextFormat(Qt.TextFormat.RichText)
    note.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
    note.hide()
    explorer.add_to_metrics(note)

    def show_run(run) -> None:
        gemm.show_run(run)
        text, tip = gemm.explorer_note_text(run)
        note.setText(text)
        note.setToolTip(tip)
        note.setVisible(bool(text))

    gemm.scenario_requested.connect(simulate_in_explorer)
    workspace.session.run_changed.connect(memory.show_run)
    workspace.session.run_changed.connect(show_run)
    if workspace.run is not None:
        memory.show_run(workspace.run)
