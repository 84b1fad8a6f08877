"""Your own kernel joins the window: the "Your kernel" tab (view id and feature name "kernel").

``install(window)`` adds the page after the Explorer's other tabs. A ``.cu`` file opened
with File > Open or dropped on the window comes here through the window's one ``.cu``
handler (the measure feature's, which also fills the occupancy calculator's row): the
feature's :meth:`KernelPage.open_file`. The page hands the scenarios it runs to the
window's workspace (``show_result``, ``change_scenario``: the Explorer shows them) and follows its ``[kernel]``
scenarios.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from explorer.gui.kernel.page import KernelPage


def install(window) -> KernelPage:
    page = KernelPage(window.workspace, window)
    window.add_page(page, QCoreApplication.translate("KernelFeature", "Your kernel"), view_id="kernel")
    return page
