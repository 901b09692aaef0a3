"""Every reachable position, numbered once, with its moves, result and canonical label."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum
from functools import cache
from typing import cast

from reference.board import CELLS, EMPTY, EMPTY_BOARD, Board, O, X, winner
from reference.outcome import Outcome
from reference.stored import stored
from reference.symmetry import Symmetry, canonical

PositionId = int
"""A position's number in the graph; 0 is the empty board."""

NO_POSITION = -1

OpponentTable = Sequence[Sequence[PositionId]]
"""An opponent as data: for each position, the positions it may move to, each equally likely."""


class Result(IntEnum):
    """How a position stands: still being played, or how the game ended."""

    ONGOING = 0
    X_WINS = 1
    O_WINS = 2
    DRAWN = 3


@dataclass(frozen=True)
class PositionGraph:
    """All 5,478 reachable positions, numbered in breadth-first order from the empty board."""

    boards: tuple[Board, ...]
    index: dict[Board, PositionId]
    children: tuple[tuple[PositionId, ...], ...]
    """For each position, the position after the side to move takes each cell, or -1."""
    results: tuple[Result, ...]
    labels: tuple[Board, ...]
    """The canonical label of each position: the least of its 8 images."""
    to_label: tuple[Symmetry, ...]
    """The symmetry carrying each position onto its label."""


def _result(board: Board) -> Result:
    """The result of a position."""
    mark = winner(board)
    if mark == X:
        return Result.X_WINS
    if mark == O:
        return Result.O_WINS
    return Result.ONGOING if EMPTY in board else Result.DRAWN


POSITIONS = 5_478
"""The number of positions reachable from the empty board."""

GraphData = tuple[tuple[Board, ...], tuple[tuple[int, ...], ...], tuple[int, ...],
                  tuple[Board, ...], tuple[int, ...]]
"""A position graph as plain data: boards, children, results, labels, symmetries to the labels."""


def _graph_data() -> GraphData:
    """The graph of reachable positions as plain data, built by walking the game breadth-first."""
    boards = [EMPTY_BOARD]
    index = {EMPTY_BOARD: 0}
    children: list[tuple[PositionId, ...]] = []
    results: list[int] = []
    for board in boards:  # grows as it is read: breadth-first
        result = _result(board)
        results.append(int(result))
        row = [NO_POSITION] * 9
        if result is Result.ONGOING:
            mark = X if board.count(X) == board.count(O) else O
            for cell in CELLS:
                if board[cell] == EMPTY:
                    after = board[:cell] + mark + board[cell + 1:]
                    if after not in index:
                        index[after] = len(boards)
                        boards.append(after)
                    row[cell] = index[after]
        children.append(tuple(row))
    labelled = [canonical(board) for board in boards]
    return (tuple(boards), tuple(children), tuple(results),
            tuple(label for label, _ in labelled), tuple(int(g) for _, g in labelled))


def _is_graph_data(data: object) -> bool:
    """True when `data` has the shape of a stored position graph."""
    return (isinstance(data, tuple) and len(data) == 5
            and all(isinstance(part, tuple) and len(part) == POSITIONS for part in data))


@cache
def position_graph() -> PositionGraph:
    """The graph of reachable positions, built once (and stored on disk: building takes ~50 ms)."""
    boards, children, results, labels, to_label = stored(
        "positions", ["board.py", "symmetry.py", "positions.py"], _graph_data, _is_graph_data)
    return PositionGraph(
        boards=boards,
        index={board: p for p, board in enumerate(boards)},
        children=children,
        results=tuple(map(tuple(Result).__getitem__, results)),  # Result(r) is 50 times slower
        labels=labels,
        to_label=cast(tuple[Symmetry, ...], to_label),
    )


@cache
def legal_successors() -> OpponentTable:
    """For each position, the positions that one legal move leads to (none once it is over)."""
    return tuple([
        tuple([p for p in children if p != NO_POSITION]) for children in position_graph().children
    ])


def result_of(player: str, outcome: Outcome) -> Result:
    """The Result of a finished game that ended in `outcome` for `player`."""
    if outcome is Outcome.DRAW:
        return Result.DRAWN
    return Result.X_WINS if (outcome is Outcome.WIN) == (player == X) else Result.O_WINS


def outcome_codes(player: str) -> list[int]:
    """Each finished game's Outcome for `player`, by its Result code (0 for a game still on)."""
    codes = [0] * len(Result)
    for outcome in Outcome:
        codes[result_of(player, outcome)] = outcome
    return codes
