"""A recorded session played back as a `Channel`: a program without a process.

The session's lines come in their order, `>` the judge's and `<` the program's. The program's
lines are read in turn; where the judge spoke next, the program waits for the judge's line (a
read then times out, as with a program blocked on its input), and goes on once the judge has
sent as many lines. After the last line the program ends as the recording says: it exits with
a status, or goes on waiting for input, or goes on busy. The judge's lines are kept, so that a
test can hold them against the recording's.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from judge.running.channel import EOF, TIMEOUT, NoLine
from judge.running.ending import Ending
from judge.running.processes import ProcessReading, Progress
from judge.terms.options import Transport


class Afterwards(StrEnum):
    """What the program does after the recording's last line."""

    EXIT = "exit"
    """It exits, with the recording's status."""
    WAITING_FOR_INPUT = "waiting-for-input"
    """It waits for input that never comes."""
    BUSY = "busy"
    """It goes on working without printing: a second of CPU time at each look."""


class Playback:
    """A recorded program's side of a session, played back line by line."""

    def __init__(self, lines: Sequence[tuple[str, str]], *,
                 afterwards: Afterwards = Afterwards.EXIT, status: int = 0,
                 transport: Transport = Transport.PIPE) -> None:
        self.lines = tuple(lines)
        """The session: `>` (the judge's) or `<` (the program's), and the text of each line."""
        self.afterwards = afterwards
        self.status = status
        self.transport = transport
        self.position = 0
        """The lines played so far."""
        self.sent: list[str] = []
        """The lines the judge sent."""
        self.looks = 0

    def _next(self) -> tuple[str, str] | None:
        """The next line the program prints or waits for, past the judge's lines already sent."""
        answered = sum(1 for direction, _ in self.lines[:self.position] if direction == ">")
        while self.position < len(self.lines):
            direction, text = self.lines[self.position]
            if direction == "<" or answered >= len(self.sent):
                return direction, text
            self.position += 1
            answered += 1
        return None

    @property
    def ended(self) -> bool:
        """True once the recording is played to its end and the program exits after it."""
        return self._next() is None and self.afterwards is Afterwards.EXIT

    def send_line(self, text: str) -> bool:
        """Take the judge's line; False once the program has exited."""
        if self.ended:
            return False
        self.sent.append(text)
        return True

    def read_line(self, timeout: float | None) -> str | NoLine:
        """The program's next line; a time-out while it waits for the judge; the end after that."""
        line = self._next()
        if line is None:
            return EOF if self.afterwards is Afterwards.EXIT else TIMEOUT
        direction, text = line
        if direction == ">":
            return TIMEOUT
        self.position += 1
        return text

    def read_ready(self, most: int) -> list[str]:
        """Up to `most` of the program's next lines, up to where it waits for the judge."""
        ready: list[str] = []
        while len(ready) < most and (line := self._next()) is not None and line[0] == "<":
            ready.append(line[1])
            self.position += 1
        return ready

    def ready(self) -> bool:
        """Every line is at hand."""
        return True

    def progress(self) -> Progress:
        """What the program is doing: waiting for the judge's line, or what it does after the
        recording's end."""
        self.looks += 1
        waiting = self._next() is not None or self.afterwards is Afterwards.WAITING_FOR_INPUT
        busy = not waiting and self.afterwards is Afterwards.BUSY
        return Progress(ProcessReading(running=busy, reading_stdin=waiting, sleeping=False,
                                       count=1), busy=busy,
                        cpu_seconds=float(self.looks) if busy else 0.0, memory_bytes=0)

    def wait_exit(self, timeout: float) -> bool:
        """True when the program exits after the recording's end."""
        return self.ended

    def close(self) -> Ending:
        """How the program ended: on its own after the recording, or ended by the judge."""
        if self.ended:
            return Ending(self.status, None, False, 0, 0.0)
        return Ending(None, None, True, 0, 0.0)
