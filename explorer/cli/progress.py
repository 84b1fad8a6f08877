"""A kernel's execution as it goes, on an interactive terminal: blocks done, warp-instructions, the rate, and
how long the instruction limit is at that rate (issue 30, item 7: an endless loop was stopped only after 5-9
minutes at the default limit, silently).

One status line on stderr, redrawn at most twice a second and cleared at the end; nothing when stderr is not
a terminal (a pipe, a log, a test), so a refusal stays one line there. The line starts with what the limit is
(``kernel.max_instructions``, lowered with ``--max-instructions``).
"""

from __future__ import annotations

import sys
import time

INTERVAL_S = 0.5


def _count(n: float) -> str:
    return f"{n / 1e6:,.1f} M" if n >= 1e6 else f"{n:,.0f}"


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


class TerminalProgress:
    """``progress(blocks_done, total_blocks, warp_instructions, seconds)`` for ``execute_chunks``."""

    def __init__(self, kernel_name: str, limit: int, stream=None):
        self.stream = stream if stream is not None else sys.stderr
        try:
            self.on = bool(self.stream.isatty())
        except (AttributeError, ValueError, OSError):
            self.on = False
        self.name, self.limit = kernel_name, int(limit)
        self.last = 0.0
        self.shown = False

    def __call__(self, done: int, total: int, instructions: int, seconds: float) -> None:
        now = time.monotonic()
        if not self.on or now - self.last < INTERVAL_S:
            return
        self.last = now
        rate = instructions / seconds if seconds > 0 else 0.0
        text = (f"executing {self.name}: {done:,} of {total:,} blocks, {_count(instructions)} warp-instructions"
                f" of at most {_count(self.limit)} (--max-instructions)")
        if rate > 0:
            text += f", {_count(rate)}/s: the limit in {_duration(max(0.0, self.limit - instructions) / rate)}"
        self._write("\r" + text + "\x1b[K")
        self.shown = True

    def close(self) -> None:
        if self.shown:
            self._write("\r\x1b[K")
            self.shown = False

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):
            self.on = False
