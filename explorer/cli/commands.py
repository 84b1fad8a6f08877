"""The subcommand registry and the no-argument GUI start.

One line per subcommand module (each has ``register(subparsers)``); modules are
imported when the parser is built, and import their own heavy dependencies lazily.
"""

from __future__ import annotations

import importlib

COMMAND_MODULES = [
    "explorer.cli.cmd_gpus",
    "explorer.cli.cmd_occupancy",
    "explorer.cli.cmd_simulate",
    "explorer.cli.cmd_program",
    "explorer.cli.cmd_execute",
    "explorer.cli.cmd_bench",
    "explorer.cli.cmd_gemm",
    "explorer.cli.cmd_precision",
    "explorer.cli.cmd_compile",
    "explorer.cli.cmd_measure",
    "explorer.cli.cmd_microbench",
    "explorer.cli.cmd_render",
]

REGISTRY = [importlib.import_module(name).register for name in COMMAND_MODULES]


def run_gui(args) -> int:
    """Open the main window (the package's GUI layer is imported only here)."""
    try:
        from explorer.gui.shell.app import run
    except ImportError as exc:
        from explorer.model.errors import InputError

        raise InputError("gui", f"the window needs PySide6 and pyqtgraph ({exc}); install with pip install -e .") from None
    return run(args)
