"""The desktop window (PySide6 + pyqtgraph): views and controllers only, one package per feature.

Nothing here computes occupancy or simulates: widgets collect input, call
``explorer.occupancy`` / ``explorer.sim`` and show what comes back. The packages and
what each may import are listed in ``docs/dev/architecture.md``. Importing this
package (or a subpackage) does not import Qt; ``explorer.gui.shell.app.run`` does.
"""
