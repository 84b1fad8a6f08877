"""The Explorer tab: scenario, SM grid, timeline, counts, metrics, playback, and the undoable scenario commands."""
