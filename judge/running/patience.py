"""How long the judge waits for a silent program: by the program's own CPU time and progress,
never by the wall clock alone, so that a loaded machine does not make a correct program idle.

A silence lasts until the program prints a complete line. It is idle when the program has used
the idle limit's worth of CPU time in it (a busy loop), or has made no progress for that long:
its CPU time has not moved and no process of the run is runnable (it is blocked reading its
input, sleeping, stopped, in an uninterruptible wait such as a vfork's parent, or waiting on
something else). Output that is not a complete line, on stdout or stderr, is not progress: it
counts against the output limit only, so a program that prints a byte now and then is idle
as soon as a silent one. A program that is runnable or using CPU is making progress: it is
only waited for, up to the run's CPU time limit and its generous wall-clock cap, the last
resort.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Final, Protocol, TypeVar

from judge.running.channel import TIMEOUT, NoLine
from judge.running.processes import Progress
from judge.terms.settings import Settings

FIRST_LOOK: Final = 0.25
"""Seconds of silence before the judge first looks at the program: most waits end sooner,
and cost no look at all."""
LOOK_EVERY: Final = 0.5
"""Seconds between looks at a silent program."""
MOVED: Final = 0.01
"""CPU seconds between two looks that count as progress (a sleep loop uses less)."""
MEMORY_EXTENSIONS: Final = 2
"""Extra idle periods of CPU time granted to a busy program whose memory nears its limit, so
that it reaches the memory limit rather than being called idle."""


Done = TypeVar("Done")


class Watched(Protocol):
    """What the judge needs of a program to wait for it: a line, or a look at its progress."""

    def read_line(self, timeout: float | None) -> str | NoLine:
        """The next line, waiting at most `timeout` seconds, or why none came."""
        ...

    def wait_exit(self, timeout: float) -> bool:
        """Wait up to `timeout` seconds for the program to end; True once it has."""
        ...

    def progress(self) -> Progress:
        """What the program is doing now, and what it has used."""
        ...


class Reason(Enum):
    """Why a wait ended without a line."""

    IDLE = "idle"
    """The program is idle: busy without output, or making no progress."""
    CPU = "cpu"
    """The run used up its CPU time limit."""
    WALL = "wall"
    """The run passed its wall-clock cap."""


@dataclass(frozen=True)
class Silence:
    """A wait that ended without a line: why, how long it lasted, what the program did."""

    reason: Reason
    waited: float
    """Wall-clock seconds of the silence."""
    cpu_seconds: float
    """CPU seconds the program used during it."""
    last: Progress | None
    """The last look at the program (None when it was never looked at)."""


@dataclass(frozen=True)
class Patience:
    """How long a run waits: its idle limit, its CPU time limit and its wall-clock cap."""

    idle_seconds: float
    cpu_limit: float | None
    wall_deadline: float
    """The monotonic time at which the run's wall-clock cap passes."""
    memory_limit: int | None = None
    """The memory limit in bytes, for a busy program about to reach it."""

    def over_cpu(self, progress: Progress) -> bool:
        """True when the run has used up its CPU time limit."""
        return self.cpu_limit is not None and progress.cpu_seconds > self.cpu_limit

    def _near_memory(self, progress: Progress) -> bool:
        """True when the program's memory is past a quarter of its limit."""
        return self.memory_limit is not None and progress.memory_bytes * 4 > self.memory_limit

    def wait(self, program: Watched, *,
             idle_seconds: float | None = None) -> str | NoLine | Silence:
        """The next line (or why the output ended), or the silence that ended the wait."""
        def step(timeout: float) -> str | NoLine | None:
            got = program.read_line(timeout)
            return None if got is TIMEOUT else got
        return self._watch(program, step,
                           self.idle_seconds if idle_seconds is None else idle_seconds)

    def wait_exit(self, program: Watched, grace: float) -> Silence | None:
        """None once the program has ended; else the silence that ended the wait (it went on
        using CPU, or stayed stuck, for `grace` seconds)."""
        def step(timeout: float) -> bool | None:
            return True if program.wait_exit(timeout) else None
        got = self._watch(program, step, grace)
        return got if isinstance(got, Silence) else None

    def _watch(self, program: Watched, step: Callable[[float], Done | None],
               idle: float) -> Done | Silence:
        """Take `step` (a wait of at most its argument's seconds, None when nothing came) until
        something comes, or the program is idle for `idle` seconds, or a limit passes.

        A silence is measured by the waits that came back empty, each as long as it was
        allowed to be (the wall clock only bounds the run as a whole); bytes without a newline
        do not end it."""
        wait = min(FIRST_LOOK, max(self.wall_deadline - time.monotonic(), 0.0))
        got = step(wait)
        if got is not None:
            return got
        last = program.progress()
        silent, moved, cpu_start, allowed = wait, wait, last.cpu_seconds, idle
        while True:
            left = self.wall_deadline - time.monotonic()
            if left <= 0:
                return Silence(Reason.WALL, silent, last.cpu_seconds - cpu_start, last)
            wait = min(LOOK_EVERY, left)
            got = step(wait)
            if got is not None:
                return got
            silent += wait
            look = program.progress()
            if look.busy or look.cpu_seconds - last.cpu_seconds >= MOVED:
                moved = silent
            last = look
            used = look.cpu_seconds - cpu_start
            if self.over_cpu(look):
                return Silence(Reason.CPU, silent, used, look)
            if used >= allowed and self._near_memory(look) and \
                    allowed < idle * (1 + MEMORY_EXTENSIONS):
                allowed += idle
            if used >= allowed or silent - moved >= idle:
                return Silence(Reason.IDLE, silent, used, look)


def patience_for(settings: Settings) -> Patience:
    """How long the run of `settings` waits for a silent program, from now."""
    return Patience(settings.idle_seconds, settings.cpu_seconds,
                    time.monotonic() + settings.wall_seconds, settings.memory_mb << 20)
