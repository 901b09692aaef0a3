"""Why a run stopped: one exception type per reason, raised by whichever floor meets it first."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from judge.terms.verdicts import Failure, Place


class Aftermath(Enum):
    """What the judge does with the program once a run has stopped, before ending it."""

    END = "end"
    """End it now."""
    DRAIN = "drain"
    """Read what it still prints for a moment, so a flood after a failed check is seen."""
    WAIT_EXIT = "wait-exit"
    """Its output ended: give it the grace period to exit on its own."""


class Stop(Exception):
    """The run cannot go on; the subclass says why."""

    aftermath = Aftermath.END


class Failed(Stop):
    """A check failed, or output could not be read."""

    aftermath = Aftermath.DRAIN

    def __init__(self, failure: Failure) -> None:
        super().__init__(f"failed: {failure.expected}")
        self.failure = failure


@dataclass(frozen=True)
class Stall:
    """The program stopped talking while the judge waited for output."""

    place: Place
    waited: float
    reading: str
    """The judge's best reading of why, e.g. waiting for input."""
    waiting_for_input: bool = False
    """True when it was blocked reading its input (check 4 then says it did not show its move)."""
    cpu_seconds: float = 0.0
    """CPU time the program used during the silence."""


class Stalled(Stop):
    """The program stopped talking while the judge waited for output."""

    def __init__(self, stall: Stall) -> None:
        super().__init__(f"stalled: {stall.reading}")
        self.stall = stall


class OutputEnded(Stop):
    """The program's output ended before the run was over: it exited, or closed its stdout."""

    aftermath = Aftermath.WAIT_EXIT


class InputClosed(Stop):
    """The program no longer reads its input: it exited, or closed its stdin."""

    aftermath = Aftermath.WAIT_EXIT


class OutputOverLimit(Stop):
    """The program printed more than the output limit."""


class WallTimeOver(Stop):
    """The run passed its wall-time limit."""


class CpuTimeOver(Stop):
    """The run's processes together used up its CPU time limit."""


class HungAfterEnd(Stop):
    """The program was still running after the grace period that follows the last dump."""


class Finished(Stop):
    """Every game was played, the last dump read, and the program's output ended."""


def fail(failure: Failure | None) -> None:
    """Stop the run at a failed check, if there is one."""
    if failure is not None:
        raise Failed(failure)
