"""How a program's process ended, as the judge observed it."""

from __future__ import annotations

from dataclasses import dataclass

from judge.running.sandbox import Containment


@dataclass(frozen=True)
class Ending:
    """How the program's process ended, as observed by the judge."""

    status: int | None
    """Exit status when it exited on its own, else None."""
    signal: int | None
    """The signal that ended it on its own, else None."""
    killed_by_judge: bool
    peak_memory_kb: int | None
    """The most memory its processes held at once: the control group's figure, or the largest
    the judge saw when it looked (`containment.looked`); None when it was never measured."""
    cpu_seconds: float
    """The CPU time its processes used, user and system."""
    stderr_tail: tuple[str, ...] = ()
    leftovers: int = 0
    """Processes of its group still alive after it ended, killed by the judge."""
    output_over_limit: bool = False
    """Its stdout and stderr together passed the output limit."""
    containment: Containment | None = None
    """How the run was contained, and which of the tree's caps it hit."""
