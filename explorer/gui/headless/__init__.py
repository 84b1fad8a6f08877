"""The real window drawn offscreen for the command line: render, the slides, and ``--smoke-test`` (``smoke``)."""
