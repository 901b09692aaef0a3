"""A recorded session read again by the referee, without the program: under other
declarations, to see whether a declaration would have made the run pass.

The transcript's lines are `> ` the judge's and `< ` the program's, as `python -m judge
--transcript` writes them; O's moves are the judge's lines, typed again as they were. A record
that was cut (a note where its lines were not kept) cannot be read again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from judge.deciding.opponents import ChoiceOpponent, Knowledge, ScriptedOpponent
from judge.deciding.referee import Played, Referee
from judge.reading.formats import move_of
from judge.running.playback import Playback
from judge.terms.manifest import Dialect
from judge.terms.options import MoveFormat
from judge.terms.settings import Settings
from judge.terms.stops import Failed, Finished, OutputEnded

CUT_NOTE = "lines not kept here"
"""Words of the note a record leaves where it cut lines (judge/reading/record.py)."""


def session_lines(transcript: Sequence[str]) -> list[tuple[str, str]]:
    """The lines of a transcript that the session holds: `>` the judge's, `<` the program's
    (blank lines and notes left out)."""
    return [(line[0], line[2:]) for line in transcript
            if line[:2] in ("> ", "< ") or line in (">", "<")]


def moves_sent(lines: Sequence[tuple[str, str]], moves: MoveFormat) -> list[list[int]]:
    """O's squares in each game of a session, as the judge typed them after the game count."""
    games: list[list[int]] = []
    for direction, text in lines:
        if direction == "<" and text.strip().lower() == "new game":
            games.append([])
        elif direction == ">" and games:
            cell = move_of(text, moves)
            if cell is not None:
                games[-1].append(cell)
    return games


def reread(lines: Sequence[tuple[str, str]], dialect: Dialect, games: int) -> Played:
    """How the referee finds a recorded session of `games` games, read under `dialect`."""
    opponent = ScriptedOpponent(moves_sent(lines, dialect.moves), ChoiceOpponent(()))
    settings = Settings(games=games, time_limit=1e9, grace_seconds=0.0)
    return Referee(Playback(lines), dialect, settings, opponent, Knowledge()).play()


@dataclass(frozen=True)
class Reread:
    """A transcript read again under other declarations: whether every check it shows passes,
    and whether it shows the whole run."""

    passes: bool
    whole: bool
    """True when the transcript held the whole run, to the last dump."""
    failed: Failed | None = None
    """The failure the transcript shows under these declarations, if any."""


def reread_transcript(transcript: Sequence[str], dialect: Dialect, games: int) -> Reread | None:
    """The transcript of a run of `games` games read again under `dialect`; None when it cannot
    be (its record was cut, or it holds no session)."""
    if any(CUT_NOTE in line for line in transcript if line[:2] not in ("> ", "< ")):
        return None
    lines = session_lines(transcript)
    if not lines or lines[0][0] != ">":
        return None
    stop = reread(lines, dialect, games).stop
    if isinstance(stop, Failed):
        return Reread(False, False, stop)
    return Reread(isinstance(stop, (Finished, OutputEnded)), isinstance(stop, Finished))
