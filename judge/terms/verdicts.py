"""The closed vocabulary of verdicts and check ids, where in a session something happened, and
a failed check."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Verdict(Enum):
    """What the judge says of a run; the values are also fixture folder names."""

    ACCEPTED = "accepted"
    WRONG_ANSWER = "wrong-answer"
    PRESENTATION_ERROR = "presentation-error"
    IDLE = "idle"
    TIME_LIMIT = "time-limit"
    RUNTIME_ERROR = "runtime-error"
    OUTPUT_LIMIT = "output-limit"
    MEMORY_LIMIT = "memory-limit"
    PROCESS_LIMIT = "process-limit"
    DISK_LIMIT = "disk-limit"
    JUDGE_ERROR = "judge-error"


class Check(Enum):
    """The checks of SPEC section 7, items 1 to 8, by their stable ids."""

    NEW_GAME = "new-game"
    TRUE_BOARD = "true-board"
    GAME_END = "game-end"
    INTERACTIVE = "interactive"
    DUMP = "dump"
    LEARNING = "learning"
    BEAD_DRAWS = "bead-draws"
    EXIT = "exit"


EXIT_STATUS = {
    Verdict.ACCEPTED: 0,
    Verdict.JUDGE_ERROR: 3,
}
"""Exit status of the judge for a verdict; every other verdict is a rejection, status 1."""

def exit_status(verdict: Verdict) -> int:
    """The judge's exit status for a verdict: 0 accepted, 1 rejected, 3 judge error."""
    return EXIT_STATUS.get(verdict, 1)


@dataclass(frozen=True)
class Place:
    """Where in the session something happened: game and move numbers start at 1, 0 = none."""

    game: int = 0
    move: int = 0

    def __str__(self) -> str:
        if not self.game:
            return "before the first game"
        return f"game {self.game}, move {self.move}" if self.move else f"game {self.game}"

    @property
    def at(self) -> str:
        """The place after a verb: `at game 3, move 2`, or `before the first game`."""
        return str(self) if not self.game else f"at {self}"

    @property
    def within(self) -> str:
        """The place after a noun: `in game 3, move 2`, or `before the first game`."""
        return str(self) if not self.game else f"in {self}"


@dataclass(frozen=True)
class Failure:
    """A failed check or unreadable output: what was expected and what came."""

    check: Check | None
    """None for output that could not be read at all (presentation error)."""
    place: Place
    expected: str
    got: str
    subject: str = ""
    """The box label concerned, where there is one."""
    evidence: tuple[str, ...] = ()
    """Lines of output that show the fault, beyond `got`."""
    hints: tuple[str, ...] = ()
    """The likely fixes, shown after the facts, each a sentence."""
    declarable: tuple[tuple[str, str], ...] = ()
    """Declarations (key, value) under which the same output might pass: the judge offers
    one only once it has checked that the run passes under it (judge/deciding/hints.py)."""

    @property
    def verdict(self) -> Verdict:
        """Wrong answer for a failed check, presentation error for unreadable output."""
        return Verdict.WRONG_ANSWER if self.check else Verdict.PRESENTATION_ERROR

    def __str__(self) -> str:
        what = f"check {self.check.value} failed" if self.check else "output could not be read"
        return "\n".join([f"{self.verdict.value}: {what} {self.place.at}",
                          f"  expected: {self.expected}", f"  got:      {self.got}",
                          *(f"  {line}" for line in self.evidence)])
