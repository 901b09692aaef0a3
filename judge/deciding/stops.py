"""Why a run stopped: one exception type per reason, each adding its fact to the run's facts."""

from __future__ import annotations

from dataclasses import replace
from enum import Enum

from judge.deciding.verdict import Facts, Failure, Stall


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

    def noted(self, facts: Facts) -> Facts:
        """The facts with this reason added."""
        return facts


class Failed(Stop):
    """A check failed, or output could not be read."""

    aftermath = Aftermath.DRAIN

    def __init__(self, failure: Failure) -> None:
        super().__init__(f"failed: {failure.expected}")
        self.failure = failure

    def noted(self, facts: Facts) -> Facts:
        """The facts with the failure."""
        return replace(facts, failure=self.failure)


class Stalled(Stop):
    """The program stopped talking while the judge waited for output."""

    def __init__(self, stall: Stall) -> None:
        super().__init__(f"stalled: {stall.reading}")
        self.stall = stall

    def noted(self, facts: Facts) -> Facts:
        """The facts with the stall."""
        return replace(facts, stall=self.stall)


class OutputEnded(Stop):
    """The program's output ended before the run was over: it exited, or closed its stdout."""

    aftermath = Aftermath.WAIT_EXIT

    def noted(self, facts: Facts) -> Facts:
        """The facts with the output closed (what matters only if the program still runs)."""
        return replace(facts, closed="its standard output")


class InputClosed(Stop):
    """The program no longer reads its input: it exited, or closed its stdin."""

    aftermath = Aftermath.WAIT_EXIT

    def noted(self, facts: Facts) -> Facts:
        """The facts with the input closed (what matters only if the program still runs)."""
        return replace(facts, closed="its standard input")


class OutputOverLimit(Stop):
    """The program printed more than the output limit."""

    def noted(self, facts: Facts) -> Facts:
        """The facts with the output limit passed."""
        return replace(facts, output_over_limit=True)


class WallTimeOver(Stop):
    """The run passed its wall-time limit."""

    def noted(self, facts: Facts) -> Facts:
        """The facts with the wall time passed."""
        return replace(facts, wall_time_over=True)


class CpuTimeOver(Stop):
    """The run's processes together used up its CPU time limit."""

    def noted(self, facts: Facts) -> Facts:
        """The facts with the CPU time used up."""
        return replace(facts, cpu_time_over=True)


class HungAfterEnd(Stop):
    """The program was still running after the grace period that follows the last dump."""

    def noted(self, facts: Facts) -> Facts:
        """The facts with the hang after the end."""
        return replace(facts, hung_after_end=True)


class Finished(Stop):
    """Every game was played, the last dump read, and the program's output ended."""

    def noted(self, facts: Facts) -> Facts:
        """The facts of a finished run."""
        return replace(facts, finished=True)
