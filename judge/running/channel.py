"""What the referee needs of a running program: a channel of lines, each read with a time limit.

A live `judge.running.session.Session` is one; a test can be another (a transcript played back),
with no subprocess. Every answer comes back as a value: a line, or why there is none.
"""

from __future__ import annotations

from enum import Enum
from typing import Final, Protocol

from judge.running.processes import Progress
from judge.terms.options import Transport


class NoLine(Enum):
    """Why a read gave no line."""

    EOF = "EOF"
    """The program's output ended."""
    TIMEOUT = "TIMEOUT"
    """No line came within the time allowed."""
    OUTPUT_LIMIT = "OUTPUT_LIMIT"
    """The program's output passed its limit."""


EOF: Final = NoLine.EOF
TIMEOUT: Final = NoLine.TIMEOUT
OUTPUT_LIMIT: Final = NoLine.OUTPUT_LIMIT


class Channel(Protocol):
    """A running program, as the referee talks to it: send a line, read one within a time
    limit, take the lines already there, look at what the program is doing, wait for its end.

    Starting and ending the program are not the referee's: judge/running/launch.py starts it and
    judge/deciding/judging.py ends it, through the live `judge.running.session.Session`."""

    @property
    def transport(self) -> Transport:
        """How the lines travel."""
        ...

    def send_line(self, text: str) -> bool:
        """Send one line; False when the program no longer reads its input."""
        ...

    def read_line(self, timeout: float | None) -> str | NoLine:
        """The next line, waiting at most `timeout` seconds (None: no limit), or why none came."""
        ...

    def read_ready(self, most: int) -> list[str]:
        """Up to `most` lines already read, without waiting."""
        ...

    def ready(self) -> bool:
        """True when reading now would not wait: output, its end, or a stored line is there."""
        ...

    def progress(self) -> Progress:
        """What the program is doing now (for a silence, why), and what it has used."""
        ...

    def wait_exit(self, timeout: float) -> bool:
        """Wait up to `timeout` seconds for the program to end; True once it has."""
        ...
