"""The referee run over a recorded transcript instead of a live program: `check_game`."""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

from judge.deciding.opponents import ChoiceOpponent, Knowledge, ScriptedOpponent
from judge.deciding.referee import Referee
from judge.deciding.stops import Failed, Finished, OutputEnded
from judge.deciding.verdict import Check, Failure, Place
from judge.manifest import declarations_of
from judge.options import MoveFormat, Transport
from judge.reading.formats import move_of
from judge.running.channel import EOF, NoLine
from judge.running.processes import ProcessReading, Progress
from judge.settings import Settings


class RecordedProgram:
    """A finished program's side of a session: its recorded lines, then the end of output."""

    transport = Transport.PIPE
    """A recorded session has no terminal: its lines came as through a pipe."""

    def __init__(self, lines: Sequence[str]) -> None:
        self.pending = deque(lines)

    def send_line(self, text: str) -> bool:
        """Moves sent go nowhere: the program's answers are already recorded."""
        return True

    def read_line(self, timeout: float | None) -> str | NoLine:
        """The next recorded line, or EOF."""
        return self.pending.popleft() if self.pending else EOF

    def read_ready(self, most: int) -> list[str]:
        """Up to `most` recorded lines."""
        return [self.pending.popleft() for _ in range(min(most, len(self.pending)))]

    def ready(self) -> bool:
        """Every line is at hand."""
        return True

    def wait_exit(self, timeout: float) -> bool:
        """A recorded program has always exited."""
        return True

    def progress(self) -> Progress:
        """A recorded program has no process: it uses nothing and never falls silent."""
        return Progress(ProcessReading(running=False, reading_stdin=False, sleeping=False,
                                       count=0), busy=False, cpu_seconds=0.0, memory_bytes=0)


def split_transcript(transcript: Sequence[str], moves: MoveFormat) -> tuple[int, list[list[int]], list[str]]:
    """The game count sent, O's squares in each game, and the program's lines."""
    count = 0
    games: list[list[int]] = []
    printed: list[str] = []
    for line in transcript:
        marker, text = line[:2], line[2:]
        if marker == "> ":
            if not count and not games:
                count = int(text) if text.strip().isdigit() else 0
                continue
            cell = move_of(text, moves)
            if games and cell is not None:
                games[-1].append(cell)
        elif marker == "< " or line == "<":
            printed.append(text)
            if text.strip().lower() == "new game":
                games.append([])
    return count, games, printed


def check_game(transcript: Sequence[str], **declarations: str) -> Failure | None:
    """Every check of SPEC section 7 that a transcript shows, made by the judge's own referee.

    `transcript` holds the lines of a session, `> ` judge to program and `< ` program to
    judge, as `python -m judge --transcript` writes them; `declarations` are a manifest's
    (`moves`, `beads`, `refill`, `x`, `o`, `empty`). Blank lines and notes are ignored.
    """
    declared = declarations_of(declarations)
    count, games, printed = split_transcript(transcript, declared.moves)
    if count < 1:
        return Failure(None, Place(), "a transcript that starts with `> N`, the game count",
                       transcript[0] if transcript else "(nothing)")
    opponent = ScriptedOpponent(games, ChoiceOpponent(()))
    settings = Settings(games=count, time_limit=1e9, grace_seconds=0.0)
    played = Referee(RecordedProgram(printed), declared, settings, opponent, Knowledge()).play()
    stop = played.stop
    if isinstance(stop, Failed):
        return stop.failure
    if isinstance(stop, Finished):
        return None
    if isinstance(stop, OutputEnded):
        return Failure(Check.EXIT, played.place, f"{count} games, each with its dump",
                       f"the transcript ends {played.place.within}")
    return Failure(None, played.place, "a transcript the judge can read",
                   str(stop) if stop is not None else played.fault)
