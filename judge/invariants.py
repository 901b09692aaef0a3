"""The invariants of SPEC sections 5 and 7 as functions of data: a dump, a step, a game.

These are the functions the judge decides with: the referee reads every dump through
`judge.deciding.dumps.read_dump` (which `check_dump` wraps) and compares consecutive dumps with
`judge.deciding.checks.learning` (which `check_step` wraps); `check_game` runs the referee
itself over a recorded session. Each returns a `Failure` that says what is wrong, or None.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from reference.board import EMPTY_BOARD, Cell, O, X, is_over, play
from reference.outcome import Outcome, outcome_of

from judge.deciding import checks
from judge.deciding.dumps import NOWHERE, DumpReading, box_reader, read_dump
from judge.deciding.rereading import reread, session_lines
from judge.reading.formats import Symbols
from judge.terms.boxes import Draw, draw_for_move
from judge.terms.manifest import dialect_of
from judge.terms.options import BeadFormat, RefillRule, parse
from judge.terms.stops import Failed, Finished, OutputEnded
from judge.terms.verdicts import Check, Failure, Place

AnyDump = DumpReading | Mapping[str, Iterable[int]] | Sequence[str]
"""A matchbox dump in any form given: its lines as printed, or beads by label (cells 0-8 in
the label's frame), or a dump the judge has read already."""
Result = Outcome | str
"""MENACE's result: an `Outcome`, or its word `win`, `draw` or `loss`."""

PLAIN = Symbols.declared("", "", "")
"""The symbols of SPEC section 6 and every other form the judge reads by itself."""


def lines_of(dump: Mapping[str, Iterable[int]] | Sequence[str]) -> list[str]:
    """The lines of a dump: as given, or one `label beads...` line per box of a mapping."""
    if isinstance(dump, Mapping):
        return [" ".join([label, *(str(bead) for bead in beads)]) for label, beads in dump.items()]
    return list(dump)


def refill_rule(refill: RefillRule | str) -> RefillRule:
    """The refill reading, from itself or its name (`on-empty`, `on-draw`)."""
    return parse(RefillRule, str(refill), "refill")


def _read(dump: AnyDump, refill: RefillRule, place: Place) -> tuple[Failure | None, DumpReading]:
    """A dump read and checked, unless the judge has read it already."""
    if isinstance(dump, DumpReading):
        return None, dump
    texts = lines_of(dump)
    numbering = BeadFormat.ZERO_TO_EIGHT if isinstance(dump, Mapping) else None
    return read_dump(texts, box_reader(texts, PLAIN, numbering, refill), place)


def check_dump(dump: AnyDump, *, refill: RefillRule | str = RefillRule.ON_EMPTY) -> Failure | None:
    """Check 5: 304 boxes, one per box of SPEC 4, every bead on an empty square, none empty.

    `refill = "on-draw"` is the other reading of SPEC 5, under which boxes may be empty.
    """
    return _read(dump, refill_rule(refill), NOWHERE)[0]


def outcome_of_result(result: Result) -> Outcome:
    """MENACE's result as an `Outcome`, from itself or its word."""
    if isinstance(result, Outcome):
        return result
    if result.upper() not in Outcome.__members__:
        raise ValueError(f"not an outcome: {result!r}; say win, draw or loss")
    return Outcome[result.upper()]


def draws_of(moves: Sequence[int]) -> list[Draw]:
    """The boxes MENACE drew from in a game given as its squares in order, X first."""
    board, draws = EMPTY_BOARD, []
    for cell in moves:
        if board[cell] != ".":
            raise ValueError(f"square {cell} is taken on {board}")
        if board.count(X) == board.count(O):
            draw = draw_for_move(board, Cell(cell))
            if draw is not None:
                draws.append(draw)
        board = play(board, Cell(cell))
    return draws


def result_of(moves: Sequence[int]) -> Outcome:
    """MENACE's result in a finished game given as its squares in order, X first."""
    board = EMPTY_BOARD
    for cell in moves:
        board = play(board, Cell(cell))
    if not is_over(board):
        raise ValueError(f"the game is not over: {board}")
    return outcome_of(board, X)


def check_step(before: AnyDump, after: AnyDump, moves: Sequence[int] | Sequence[Draw],
               outcome: Result, refill: RefillRule | str = RefillRule.ON_EMPTY, *,
               place: Place = NOWHERE) -> Failure | None:
    """Check 6: from one dump to the next, only the boxes drawn from change, as SPEC 5 says.

    `moves` are the game's squares in order, X first (or the judge's draws); a drawn box
    gains one bead of the square played after a win, none after a draw, loses it after a
    loss, with three refill beads where the draw emptied it; where the label has symmetries,
    any square of the played square's orbit will do.
    """
    rule = refill_rule(refill)
    failure, old = _read(before, rule, place)
    if failure is None:
        failure, new = _read(after, rule, place)
    if failure is not None:
        return failure
    draws = [m for m in moves if isinstance(m, Draw)] or draws_of(
        [m for m in moves if isinstance(m, int)])
    return checks.learning(old, new, draws, outcome_of_result(outcome), rule, place,
                           box_reader(list(new.texts), PLAIN, None, rule))


def check_game(transcript: Sequence[str], **declarations: str) -> Failure | None:
    """Every check of SPEC section 7 that a transcript shows, made by the judge's own referee.

    `transcript` holds the lines of a session, `> ` judge to program and `< ` program to
    judge, as `python -m judge --transcript` writes them; `declarations` are a manifest's
    (`moves`, `beads`, `refill`, `x`, `o`, `empty`). Blank lines and notes are ignored.
    """
    dialect = dialect_of(declarations)
    lines = session_lines(transcript)
    count = next((text.strip() for direction, text in lines if direction == ">"), "")
    if not count.isdigit() or int(count) < 1:
        return Failure(None, Place(), "a transcript that starts with `> N`, the game count",
                       transcript[0] if transcript else "(nothing)")
    played = reread(lines, dialect, int(count))
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
