"""The judge's watch over a running program: every wait for it is made within the run's
limits, and passing one stops the run, whatever the judge was waiting for.

The CPU time limit is looked at while the program is silent (judge/running/patience.py) and,
now and then, while its output flows; the wall-clock cap and the output limit end any wait.
"""

from __future__ import annotations

import time

from judge.running.channel import OUTPUT_LIMIT, Channel, NoLine
from judge.running.patience import LOOK_EVERY, Patience, Reason, Silence
from judge.terms.stops import CpuTimeOver, OutputOverLimit, WallTimeOver


class Watch:
    """A program's channel, waited on within the run's limits."""

    def __init__(self, channel: Channel, patience: Patience) -> None:
        self.channel = channel
        self.patience = patience
        self.next_cpu_look = 0.0
        """When the run's CPU time (and memory, without a control group) is next looked at
        while its output flows: at its first line, then every LOOK_EVERY seconds."""

    def line(self, idle_seconds: float | None = None) -> str | NoLine | Silence:
        """The next line; the end of the output; or the silence that ended the wait, the
        program being idle for the idle limit (or `idle_seconds`)."""
        got = self.patience.wait(self.channel, idle_seconds=idle_seconds)
        if isinstance(got, str):
            self._look_at_cpu()
        elif got is OUTPUT_LIMIT:
            raise OutputOverLimit()
        elif isinstance(got, Silence):
            _stop_at_limit(got)
        return got

    def took_line(self) -> None:
        """A line was taken without waiting for it: the run's CPU time is looked at now and
        then, as for a line waited for."""
        self._look_at_cpu()

    def exit(self, grace: float) -> Silence | None:
        """None once the program has ended; else the silence that ended the wait: it went on
        for `grace` seconds of its CPU time, or without progress."""
        silence = self.patience.wait_exit(self.channel, grace)
        if silence is not None:
            _stop_at_limit(silence)
        return silence

    def _look_at_cpu(self) -> None:
        """Stop the run once it has used up its CPU time limit, looked at now and then while
        its output flows."""
        now = time.monotonic()
        if now < self.next_cpu_look:
            return
        self.next_cpu_look = now + LOOK_EVERY
        if self.patience.over_cpu(self.channel.progress()):
            raise CpuTimeOver()


def _stop_at_limit(silence: Silence) -> None:
    """Stop the run for a silence that passed one of the run's limits."""
    if silence.reason is Reason.WALL:
        raise WallTimeOver()
    if silence.reason is Reason.CPU:
        raise CpuTimeOver()
