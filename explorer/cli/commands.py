"""The subcommand registry and the no-argument GUI start."""

from __future__ import annotations

from explorer.cli import cmd_gpus, cmd_occupancy

REGISTRY = [cmd_gpus.register, cmd_occupancy.register]


def run_gui(args) -> int:
    """Open the main window (the package's GUI layer is imported only here)."""
    try:
        from explorer.gui.app import run
    except ImportError as exc:
        from explorer.model.errors import InputError

        raise InputError("gui", f"the window needs PySide6 and pyqtgraph ({exc}); install with pip install -e .") from None
    return run(args)
