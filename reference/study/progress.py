"""A progress bar on stderr for long runs: it appears after half a second, redrawn in place."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TextIO

Progress = Callable[[int], None]
"""Told the number of games finished so far, by every learner together."""

WIDTH = 30
"""Characters of the bar itself."""


class ProgressBar:
    """Games done out of `total`, drawn on `stream` as a bar with a rate, when `enabled`."""

    def __init__(
        self, stream: TextIO, total: int, *, enabled: bool, interval: float = 0.1,
        delay: float = 0.5,
    ) -> None:
        self.stream = stream
        self.total = max(total, 1)
        self.enabled = enabled
        self.interval = interval
        self.delay = delay
        """Seconds before the bar first appears: a short run shows none."""
        self.start = time.perf_counter()
        self._last = float("-inf")
        self._drawn = False

    def update(self, done: int) -> None:
        """Show that `done` games are finished, unless the bar was drawn very recently."""
        now = time.perf_counter()
        if not self.enabled or now - self.start < self.delay:
            return
        if now - self._last < self.interval and done < self.total:
            return
        self._last = now
        share = min(done / self.total, 1.0)
        filled = int(share * WIDTH)
        elapsed = now - self.start
        rate = f", {done / elapsed:,.0f} games/s" if elapsed > 0 and done else ""
        self.stream.write(
            f"\r[{'#' * filled}{'.' * (WIDTH - filled)}] {share:4.0%}  "
            f"{done:,} of {self.total:,} games{rate}   "
        )
        self.stream.flush()
        self._drawn = True

    def finish(self) -> None:
        """End the bar's line, if one was drawn."""
        if self._drawn:
            self.stream.write("\n")
            self.stream.flush()
            self._drawn = False
