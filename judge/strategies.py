"""Hypothesis strategies for MENACE: positions, box labels and beads, games, opponents and
whole transcripts, each built by construction and shrinking towards the simplest case.

    from judge.strategies import games, positions, dumps
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache

from hypothesis import strategies as st

from reference.board import EMPTY, EMPTY_BOARD, Board, Cell, legal_moves, play, reachable_positions
from reference.symmetry import SYMMETRIES, Symmetry, map_cell, transform

from judge.deciding.opponents import (
    ChoiceOpponent,
    Choices,
    CoverageOpponent,
    Knowledge,
    Opponent,
    PerfectOpponent,
    RandomOpponent,
    scripted_move,
)
from judge.terms.boxes import box_labels
from judge.testing import MenaceAdapter, transcript_of

__all__ = ["beads", "boards", "dumps", "games", "labels", "opponents", "oriented", "positions",
           "scripted_move", "symmetries", "transcripts"]

MOST_O_MOVES = 4
"""O moves at most four times in a game, MENACE moving first."""


def symmetries() -> st.SearchStrategy[Symmetry]:
    """Any of the 8 symmetries, shrinking to the identity."""
    return st.sampled_from(SYMMETRIES)


@cache
def _positions_by_marks() -> tuple[tuple[Board, ...], ...]:
    """Every reachable position, by its number of marks, the emptiest squares first."""
    by_marks: list[list[Board]] = [[] for _ in range(10)]
    for board in reachable_positions():
        by_marks[9 - board.count(EMPTY)].append(board)
    return tuple(tuple(sorted(boards, key=lambda b: b.replace(".", " "))) for boards in by_marks)


def positions(*, moves: int | None = None, max_moves: int = 9) -> st.SearchStrategy[Board]:
    """A position reached by legal play: after exactly `moves` moves, or up to `max_moves`.

    Shrinks towards fewer moves and, among positions of as many moves, the lowest squares.
    """
    table = _positions_by_marks()
    counts = [moves] if moves is not None else list(range(min(max_moves, 9) + 1))
    return st.sampled_from([k for k in counts if table[k]]).flatmap(
        lambda k: st.sampled_from(table[k]))


@st.composite
def boards(draw: st.DrawFn, *, max_moves: int = 9) -> Board:
    """A board reached from the empty board by legal moves, each drawn as it is played."""
    board = EMPTY_BOARD
    for _ in range(draw(st.integers(min_value=0, max_value=max_moves))):
        moves = legal_moves(board)
        if not moves:
            break
        board = play(board, draw(st.sampled_from(moves)))
    return board


def labels(*, moves: int | None = None) -> st.SearchStrategy[Board]:
    """The canonical label of one of the 304 boxes; `moves`: only those with that many marks."""
    chosen = [label for label in box_labels()
              if moves is None or 9 - label.count(EMPTY) == moves]
    if not chosen:
        raise ValueError(f"no box has {moves} marks: MENACE's boxes have 0, 2, 4 or 6")
    return st.sampled_from(sorted(chosen, key=lambda b: (b.count(EMPTY) * -1, b)))


def oriented(label: Board) -> st.SearchStrategy[tuple[Board, Symmetry]]:
    """The label in any of its 8 orientations, with the symmetry that printed it so."""
    return symmetries().map(lambda g: (transform(label, g), g))


def beads(label: Board, *, legal: bool = True, max_size: int = 12) -> st.SearchStrategy[list[int]]:
    """Beads for a box: legal ones (non-empty, each an empty square of the label), or not.

    Illegal contents are either an empty box or beads with one on an occupied square.
    """
    empty = [c for c in range(9) if label[c] == EMPTY]
    good = st.lists(st.sampled_from(empty), min_size=1, max_size=max_size)
    if legal:
        return good
    taken = [c for c in range(9) if label[c] != EMPTY]
    if not taken:
        return st.just([])
    return st.one_of(st.just([]), st.tuples(good, st.sampled_from(taken), st.integers(0, max_size))
                     .map(lambda t: t[0][:t[2]] + [t[1]] + t[0][t[2]:]))


DUMP_BEADS = 4
"""The most beads a box of `dumps()` holds."""


@cache
def _box_contents(label: Board) -> tuple[tuple[int, ...], int]:
    """A box's empty squares, and how many contents of 1 to DUMP_BEADS of them it may hold."""
    empty = tuple(c for c in range(9) if label[c] == EMPTY)
    return empty, sum(len(empty) ** count for count in range(1, DUMP_BEADS + 1))


def _numbered_beads(empty: tuple[int, ...], value: int) -> list[int]:
    """The contents numbered `value`, fewest beads first, then the lowest squares: 0 is one
    bead of the first empty square."""
    count = 1
    while value >= len(empty) ** count:
        value -= len(empty) ** count
        count += 1
    beads = []
    for _ in range(count):
        value, digit = divmod(value, len(empty))
        beads.append(empty[digit])
    return beads


@st.composite
def dumps(draw: st.DrawFn, *, legal: bool = True) -> dict[str, list[int]]:
    """A dump of 304 boxes by label, each printed in some orientation with its beads in that frame.

    With `legal=False`, exactly one thing is wrong: a box missing, an empty box, a bead on
    an occupied square, or a box repeated under symmetry.
    """
    dump: dict[str, list[int]] = {}
    rotate = draw(st.booleans())
    for label in box_labels():
        # One draw a box (its orientation and beads), so that a dump is quick to draw.
        empty, kinds = _box_contents(label)
        value = draw(st.integers(0, kinds * (len(SYMMETRIES) if rotate else 1) - 1))
        g = SYMMETRIES[0]
        if rotate:
            value, turn = divmod(value, len(SYMMETRIES))
            g = Symmetry(turn)
        printed = transform(label, g)
        dump[printed] = [map_cell(g, Cell(c)) for c in _numbered_beads(empty, value)]
    if legal:
        return dump
    printed_labels = list(dump)
    victim = draw(st.sampled_from(printed_labels))
    fault = draw(st.sampled_from(["missing", "empty", "illegal", "repeated"]))
    if fault == "missing":
        del dump[victim]
    elif fault == "empty":
        dump[victim] = []
    elif fault == "illegal":
        taken = [c for c in range(9) if victim[c] != EMPTY]
        if not taken:
            dump[victim] = []
        else:
            dump[victim] = dump[victim] + [draw(st.sampled_from(taken))]
    else:
        twin = next((image for g in SYMMETRIES if (image := transform(victim, g)) not in dump),
                    None)
        if twin is None:
            del dump[victim]
        else:
            dump[twin] = [c for c in range(9) if twin[c] == EMPTY][:1]
    return dump


def games(*, min_games: int = 1, max_games: int = 5) -> st.SearchStrategy[Choices]:
    """O's moves for a few games, as scripts legal whatever MENACE plays.

    Each game is a list of squares O takes in turn, the lowest empty one where a square is
    taken or the script has ended (`ChoiceOpponent`): the same script is a legal game
    against any MENACE reply. Shrinks towards fewer games, shorter scripts, lower squares.
    """
    game = st.lists(st.integers(min_value=0, max_value=8), max_size=MOST_O_MOVES).map(tuple)
    return st.lists(game, min_size=min_games, max_size=max_games).map(tuple)


def opponents(*, scripted: bool = True) -> st.SearchStrategy[Opponent]:
    """A fresh opponent: random, perfect or coverage (seeded), or scripted by choices."""
    seeds = st.integers(min_value=0, max_value=2**32 - 1)
    kinds: list[st.SearchStrategy[Opponent]] = [
        seeds.map(lambda s: RandomOpponent(random.Random(s))),
        seeds.map(lambda s: PerfectOpponent(random.Random(s))),
        seeds.map(lambda s: CoverageOpponent(random.Random(s), Knowledge())),
    ]
    if scripted:
        kinds.append(games(max_games=8).map(ChoiceOpponent))
    return st.one_of(*kinds)


def transcripts(menace: Callable[[int], MenaceAdapter], *, max_games: int = 4
                ) -> st.SearchStrategy[list[str]]:
    """Whole sessions as the judge reads them (`>` judge to program, `<` program to judge).

    `menace(seed)` makes a MENACE that follows `judge.testing.MenaceAdapter`, such as
    `lambda seed: Menace(rng=random.Random(seed))` from the reference.
    """
    def play_one(seed: int, script: Choices) -> list[str]:
        return transcript_of(menace(seed), script)
    return st.builds(play_one, st.integers(min_value=0, max_value=2**32 - 1),
                     games(max_games=max_games))
