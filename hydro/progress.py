"""The progress line: cycle, t, dt, relative total-energy change, zone-cycles/s.

On a terminal (rank 0) the line is redrawn in place with ``\\r``; otherwise (a pipe, a log file, a
batch job) it prints plain lines. Either way it is throttled by wall time so that printing never
costs a measurable share of a step. Ranks other than 0 print nothing. This module does no
communication: the caller gathers the global numbers on every rank at the same cycles.
"""

from __future__ import annotations

import sys
import time

__all__ = ["Progress"]


class Progress:
    """Throttled progress reporter.

    ``interval`` is the minimum wall time between two lines (default 0.2 s on a TTY, 2 s
    otherwise, where every line is a new line in a log).
    """

    def __init__(self, stream=None, enabled=True, interval=None, tty=None, clock=time.monotonic):
        self.stream = stream if stream is not None else sys.stdout
        self.tty = self.stream.isatty() if tty is None else tty
        self.enabled = enabled
        self.interval = interval if interval is not None else (0.2 if self.tty else 2.0)
        self.clock = clock
        self._last = None
        self._width = 0

    @staticmethod
    def format(cycle, t, dt, energy_change, zone_cycles_per_s):
        """One progress line (no newline)."""
        return (f"cycle {cycle:7d}  t = {t:.6e}  dt = {dt:.4e}  dE/E = {energy_change:+.3e}  "
                f"{zone_cycles_per_s:.3e} zone-cycles/s")

    def update(self, cycle, t, dt, energy_change, zone_cycles_per_s, force=False):
        """Show the line if ``interval`` has passed since the last one (or ``force``)."""
        if not self.enabled:
            return False
        now = self.clock()
        if not force and self._last is not None and now - self._last < self.interval:
            return False
        self._last = now
        line = self.format(cycle, t, dt, energy_change, zone_cycles_per_s)
        if self.tty:
            # pad with blanks so a shorter line fully covers the previous one
            self.stream.write("\r" + line.ljust(self._width))
            self._width = len(line)
        else:
            self.stream.write(line + "\n")
        self.stream.flush()
        return True

    def message(self, text):
        """Print a full line (ends an in-place line first so the two do not mix)."""
        if not self.enabled:
            return
        self.close()
        self.stream.write(text + "\n")
        self.stream.flush()

    def close(self):
        """Finish the in-place line with a newline (TTY only)."""
        if self.enabled and self.tty and self._width:
            self.stream.write("\n")
            self.stream.flush()
            self._width = 0
