"""The program that ran is always on screen, presenting too (issue 31 item 9).

Before: only the status bar said whether the kernel's SASS or the workload model ran, and presentation hides
the status bar; a lesson that narrates the workload model's figures did not say so.
"""

from __future__ import annotations

from explorer.gui.shell.i18n import install_translators
from tests.gui.support import RUN_TIMEOUT


def test_the_whole_run_title_and_the_step_counter_name_the_program_while_presenting(win, qtbot, qapp, english):
    install_translators(qapp, "en")  # whatever an earlier test left
    win.feature("lessons").set_language("en")
    page, ctl, present = win.explorer, win.feature("lessons"), win.feature("presentation")
    whole = page.metrics.whole
    whole.show_run(page.workspace.session.run)  # its texts in English, whatever language drew them before
    program = page.workspace.session.run.summary["program"]
    assert program["source"] == "sass"  # the default start runs the generated kernel's SASS
    assert whole.program.text() == f"Program: the kernel's SASS ({program['arch']})"
    try:
        present.set_presenting(True, full_screen=False)
        assert not win.statusBar().isVisible()  # presenting: the status bar's words are gone ...
        ctl.start("launched-resident-ready", 1)
        qtbot.waitUntil(lambda: ctl.ready, timeout=RUN_TIMEOUT)
        assert whole.program.isVisible() and whole.program.text() == "Program: the workload model"  # ... it says
        assert ctl.panel.counter.text() == "Step 2 of 5 · figures of the workload model"
        assert "workload model" in ctl.panel.counter.toolTip()
    finally:
        ctl.stop()
        present.set_presenting(False)
    # the user's program is back: the reached scenario runs again with it
    qtbot.waitUntil(lambda: whole.program.text().startswith("Program: the kernel's SASS"), timeout=RUN_TIMEOUT)
