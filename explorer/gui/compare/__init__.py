"""A/B compare: a pinned run beside the Explorer's run, one playback, the differences in one table."""
