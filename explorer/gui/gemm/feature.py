"""Plug the GEMM and Memory tabs into the main window (listed in ``main_window.FEATURES``).

``install(window)`` adds the two pages (view ids and feature names "gemm" and
"memory"), names their panels for lessons ("gemm", "roofline", "memory"), sends
the GEMM's scenario to the Explorer tab on request (an undoable change), and feeds
the Explorer's simulations to the Memory tab as live traffic.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from explorer.gui.gemm.memory_page import MemoryPage
from explorer.gui.gemm.page import GemmPage


def install(window) -> None:
    gemm = GemmPage(window)
    memory = MemoryPage(window)
    window.add_page(gemm, QCoreApplication.translate("GemmFeature", "&GEMM"), view_id="gemm")
    window.add_page(memory, QCoreApplication.translate("GemmFeature", "&Memory"), view_id="memory")
    window.lesson_targets.update({"gemm": gemm.tiles, "roofline": gemm.roofline_box, "memory": memory.hierarchy})

    explorer = window.explorer

    def simulate_in_explorer(scenario) -> None:
        explorer.change_scenario(scenario, "gemm")
        window.show_view("explorer")

    gemm.scenario_requested.connect(simulate_in_explorer)
    explorer.session.run_changed.connect(memory.show_run)
    if explorer.session.run is not None:
        memory.show_run(explorer.session.run)
