"""The judge's options: each a closed vocabulary, parsed once where it enters, and every default."""

from __future__ import annotations

import os
from enum import StrEnum
from typing import Final, TypeVar


class Transport(StrEnum):
    """How the judge talks to the program."""

    PTY = "pty"
    """A pseudo-terminal in raw mode: output line-buffered as at a terminal, no echo."""
    PIPE = "pipe"
    """Pipes: the strict mode, in which a program that never flushes stalls."""


class OpponentKind(StrEnum):
    """Who plays O."""

    RANDOM = "random"
    PERFECT = "perfect"
    COVERAGE = "coverage"
    MIXED = "mixed"


class MoveFormat(StrEnum):
    """How O's moves are typed to the program (SPEC sections 2 and 8)."""

    LETTERS = "letters"
    """Two letters from L, M, R: row then column (SPEC section 2)."""
    DIGITS = "digits"
    """A digit 1-9, row by row from the top left."""
    DIGITS0 = "digits0"
    """A digit 0-8, row by row from the top left."""


class BeadFormat(StrEnum):
    """How beads name squares in a dump (SPEC section 8)."""

    AUTO = "auto"
    """Guessed from the first dump."""
    ZERO_TO_EIGHT = "0-8"
    ONE_TO_NINE = "1-9"
    LETTERS = "letters"
    """Two-letter squares, LL to RR."""


class RefillRule(StrEnum):
    """When a box is refilled (SPEC sections 5 and 8)."""

    ON_EMPTY = "on-empty"
    """The moment a draw empties it (the challenge's rule): a dump never shows an empty box."""
    ON_DRAW = "on-draw"
    """Only when MENACE draws from an empty box: a dump may show empty boxes."""


class SandboxPolicy(StrEnum):
    """How much containment a run must have (judge/running/sandbox.py gives the levels)."""

    AUTO = "auto"
    """The best this machine gives, with a warning when it is not full."""
    REQUIRE = "require"
    """Full containment, or no run at all."""
    OFF = "off"
    """A process group only: for trusted code."""


class TransportSource(StrEnum):
    """Where a run's transport came from, most binding first."""

    COMMAND_LINE = "the command line"
    REPLAY = "the replay"
    MANIFEST = "the manifest"
    HEADER = "the file's header"
    """The header of a bare source file (judge/bare.py)."""
    DEFAULT = "the default"


Choice = TypeVar("Choice", bound=StrEnum)


class OptionError(ValueError):
    """A value that is not one of an option's choices; the message names both."""


def parse(kind: type[Choice], text: object, what: str) -> Choice:
    """The choice of `kind` written as `text`; OptionError naming `what` and the choices if none."""
    for choice in kind:
        if choice.value == text:
            return choice
    choices = ", ".join(choice.value for choice in kind)
    raise OptionError(f"{what} must be one of {choices}, not {text!r}")


GAMES: Final = 200
"""Games per run."""
TRANSPORT: Final = Transport.PTY
OPPONENT: Final = OpponentKind.MIXED
IDLE_SECONDS: Final = 3.0
"""Silence allowed while output is awaited."""
GRACE_SECONDS: Final = 2.0
"""Time to exit after the last dump."""
MEMORY_MB: Final = 1024
"""Memory of the whole run under control groups (address space of each process, always)."""
CPUS: Final = 1.0
"""Cores a run may use at once, under control groups (a CPU quota)."""
FILE_MB: Final = 16
"""Largest file a program may write."""
PROCESSES: Final = 64
"""Processes a program may start (for the whole tree under full containment, else above those
its user already runs)."""
DISK_MB: Final = 64
"""Size of the working folder and of /tmp, each, under full containment."""
OPEN_FILES: Final = 128
"""Open files of each process."""
SANDBOX: Final = SandboxPolicy.AUTO
SHRINK_SECONDS: Final = 60.0
"""Time budget for shrinking a rejection (`--shrink-time`)."""
THOROUGH_SECONDS: Final = 600.0
"""Time budget of a thorough judgement, both runs (`--thorough-time`)."""
FALSE_ALARM: Final = 1e-4
"""Each statistical check rejects at most this fraction of correct runs."""


def time_limit(games: int) -> float:
    """The CPU time, in seconds, allowed for a run of `games` games, its processes together."""
    return 20 + 0.2 * games


WALL_FACTOR: Final = 4
"""The wall-clock cap of a run, in multiples of its CPU time limit: a loaded machine can give a
run a quarter of a core and still see it through."""


def wall_cap(cpu_seconds: float) -> float:
    """The wall-clock seconds allowed for a run whose CPU time limit is `cpu_seconds`."""
    return WALL_FACTOR * cpu_seconds + 30


def output_limit(games: int) -> int:
    """The bytes of stdout and stderr together allowed for a run of `games` games."""
    return (8 << 20) + games * (128 << 10)


MAX_GAMES: Final = 100_000
"""The most games of one run: the time and output limits grow with the games."""
MAX_SEED: Final = (1 << 64) - 1
"""The largest seed; seeds are whole numbers from 0."""
MEMORY_RANGE_MB: Final = (16, 1 << 20)
"""The address-space limits allowed, from the command line or a manifest."""
OUTPUT_RANGE_MB: Final = (1, 1 << 12)
"""The output limits allowed on the command line."""
MAX_IDLE_SECONDS: Final = 3600.0
MAX_TIME_SECONDS: Final = 86_400.0
MAX_GRACE_SECONDS: Final = 3600.0


MAX_CPUS: Final = 256
"""The most cores a run may be given."""
MAX_JOBS: Final = 256
"""The most submissions of a leaderboard judged at once."""


def jobs() -> int:
    """How many submissions of a leaderboard are judged at once by default: one per core."""
    return os.cpu_count() or 1
