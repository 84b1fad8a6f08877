"""Scenario files (open, save, recent) and export of pictures and animations."""
