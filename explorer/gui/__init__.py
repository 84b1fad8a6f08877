"""The desktop window (PySide6 + pyqtgraph): views and controllers only.

Nothing here computes occupancy or simulates: widgets collect input, call
``explorer.occupancy`` / ``explorer.sim`` and show what comes back. Importing this
package does not import Qt; ``explorer.gui.shell.app.run`` does.
"""
