"""The real window drawn offscreen for the command line: render and slides."""
