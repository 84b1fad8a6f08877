"""What runs first: the packaged app's start-up (``frozen``), before numba or the rest is imported.

The top floor: ``frozen.main`` prepares the bundle, then hands over to the command
line (``explorer.cli.main``); nothing in ``explorer`` imports this package
(``packaging/entry.py`` does).
"""
