"""Testing a MENACE: the judge's invariants, a MENACE in Python played with no subprocess,
and a pytest assertion that a program in any language is accepted.

    from judge.testing import assert_accepted, check_menace

`check_dump`, `check_step` and `check_game` are the judge's own checks (see
`judge.invariants`); `judge.strategies` holds hypothesis strategies for the same data.

`assert_accepted` runs a program, which takes a second or more; inside a test under
hypothesis's `@given` that time is not counted against hypothesis's deadline (200 ms by
default), as the time of a state machine's steps is not: the toolkit works under hypothesis's
default settings. (With a hypothesis whose internals differ the deadline applies: give such a
test `@settings(deadline=None)`.)
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterable, Mapping, MutableMapping, Sequence
from pathlib import Path
from typing import Protocol, TypeVar

from reference.board import EMPTY, EMPTY_BOARD, Board, X, is_over
from reference.outcome import outcome_of

from judge.bare import bare_manifest
from judge.deciding.opponents import ChoiceOpponent, Choices, Opponent
from judge.invariants import check_dump, check_game, check_step
from judge.reading.formats import move_text
from judge.running.workspace import named_files
from judge.terms.manifest import declared, read_manifest
from judge.terms.options import TRANSPORT, MoveFormat, OpponentKind, parse
from judge.terms.settings import Settings
from judge.terms.verdicts import Failure, Place, Verdict

__all__ = ["MenaceAdapter", "assert_accepted", "check_dump", "check_game", "check_menace",
           "check_step", "transcript_of"]

Result = TypeVar("Result")
UNTIMED_KEY = "execute:judge.testing program runs"
"""The name under which hypothesis is told the time of the programs run."""


class MenaceAdapter(Protocol):
    """A MENACE written in Python, as the toolkit drives it (the reference's `Menace` is one)."""

    def new_game(self) -> None:
        """A game starts: MENACE has drawn no bead in it yet."""

    def move(self, board: Board) -> int | None:
        """MENACE's square (0-8) on `board` (nine cells `X`, `O`, `.`), X to move."""

    def end(self, outcome: str) -> None:
        """The game is over, `win`, `draw` or `loss` for MENACE: learn from it."""

    def boxes(self) -> Mapping[str, Iterable[int]]:
        """Every box: its label (any orientation) and its beads, squares of the label 0-8."""


def _board_lines(board: Board) -> list[str]:
    """A board as the program's three lines of SPEC section 6."""
    return ["< " + " ".join(board[row:row + 3]) for row in (0, 3, 6)]


def transcript_of(menace: MenaceAdapter, games: int | Choices,
                  opponent: Opponent | None = None) -> list[str]:
    """A session played by `menace` through its adapter, as the judge would record it.

    `games` is a number of games, or O's choices per game (`judge.strategies.games()`),
    which `opponent` replaces when given. A move that is not a square 0-8 ends the session.
    """
    script: Choices = () if isinstance(games, int) else tuple(games)
    count = games if isinstance(games, int) else len(script)
    o_player: Opponent = opponent or ChoiceOpponent(script)
    lines = [f"> {count}"]
    for game in range(1, count + 1):
        menace.new_game()
        o_player.start_game(game)
        lines.append("< new game")
        board = EMPTY_BOARD
        while True:
            cell = menace.move(board)
            if not isinstance(cell, int) or not 0 <= cell <= 8:
                lines.append(f"< (no square: move() gave {cell!r})")
                return lines
            board = board[:cell] + X + board[cell + 1:]
            lines.extend(_board_lines(board))
            if is_over(board) or board.count(EMPTY) == 0:
                break
            mine = o_player.move(board)
            lines.append("> " + move_text(mine, MoveFormat.LETTERS))
            board = board[:mine] + "O" + board[mine + 1:]
            lines.extend(_board_lines(board))
            if is_over(board):
                break
        menace.end(outcome_of(board, X).word)
        lines.extend("< " + " ".join([label, *(str(b) for b in beads)])
                     for label, beads in menace.boxes().items())
    return lines


def check_menace(menace: MenaceAdapter, games: int | Choices,
                 opponent: Opponent | None = None) -> Failure | None:
    """Every check of SPEC section 7 after each game `menace` plays: the first failure, or None."""
    try:
        transcript = transcript_of(menace, games, opponent)
    except Exception as error:  # the class under test failed: say so as a failure
        return Failure(None, Place(), "a MENACE that plays and learns",
                       f"{type(error).__name__}: {error}")
    return check_game(transcript)


def _untimed_times() -> MutableMapping[str, float] | None:
    """The times hypothesis leaves out of the deadline of the test running now, if any."""
    if "hypothesis" not in sys.modules:  # not under @given: hypothesis was never imported
        return None
    from hypothesis.control import current_build_context
    from hypothesis.errors import InvalidArgument

    try:
        data = current_build_context().data
    except InvalidArgument:  # not inside a test under @given
        return None
    times = getattr(data, "_stateful_run_times", None)
    return times if isinstance(times, MutableMapping) else None


def outside_deadline(work: Callable[[], Result]) -> Result:
    """Do `work`; inside a test under `@given`, its time is not counted against the deadline."""
    times = _untimed_times()
    begun = time.perf_counter()
    try:
        return work()
    finally:
        if times is not None:
            times[UNTIMED_KEY] = times.get(UNTIMED_KEY, 0.0) + time.perf_counter() - begun


def assert_accepted(command: Sequence[str] | Path, games: int | Choices = 20, *, seed: int = 1,
                    opponent: OpponentKind | str = OpponentKind.MIXED,
                    **declarations: str) -> None:
    """Assert that the judge accepts a program: a command, a submission folder or a bare
    source file (`Path("menace.py")`, as `python -m judge FILE` judges it).

    `games` is a number of games against `opponent`, or O's choices per game; `declarations`
    are a manifest's (`moves`, `beads`, `refill`, `seed_args`...) for a bare command or file.
    """
    from judge.deciding.judging import judge
    from judge.telling.report import report_lines

    if isinstance(command, Path):
        manifest = (bare_manifest(command, declarations) if command.is_file()
                    else read_manifest(command))
    else:
        words, files = named_files(tuple(command), Path.cwd())
        manifest = declared(words, declarations, files)
    choices = None if isinstance(games, int) else tuple(tuple(g) for g in games)
    count = games if isinstance(games, int) else len(choices or ())
    settings = Settings(games=count, seed=seed, transport=manifest.transport or TRANSPORT,
                        opponent=parse(OpponentKind, str(opponent), "opponent"))
    run = outside_deadline(lambda: judge(manifest, settings, choices=choices))
    if run.decision.verdict is not Verdict.ACCEPTED:
        raise AssertionError("\n".join(report_lines(run)))
