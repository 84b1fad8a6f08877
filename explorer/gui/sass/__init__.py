"""The SASS view: the instructions a run executed, synced to the timeline."""
