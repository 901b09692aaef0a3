"""Opponents as data: for each position, the positions they may move to, each equally likely."""

from __future__ import annotations

from functools import cache

from reference.board import CELLS, O, X, play, to_move, winner
from reference.positions import (
    NO_POSITION,
    OpponentTable,
    Result,
    legal_successors,
    position_graph,
)
from reference.solver import best_moves


def random_opponent() -> OpponentTable:
    """An opponent that takes any empty square, uniformly at random."""
    return legal_successors()


@cache
def perfect_opponent() -> OpponentTable:
    """An opponent that never throws away a result: uniformly random among minimax-best moves."""
    graph = position_graph()
    return tuple(
        tuple(graph.children[p][c] for c in best_moves(board))
        if result is Result.ONGOING else ()
        for p, (board, result) in enumerate(zip(graph.boards, graph.results, strict=True))
    )


CENTRE_CORNERS_SIDES = ((4,), (0, 2, 6, 8), (1, 3, 5, 7))
"""The positional player's preference: the centre, then the corners, then the sides."""


@cache
def positional_opponent() -> OpponentTable:
    """An opponent that takes the centre if free, else a random free corner, else a random side."""
    graph = position_graph()
    rows: list[tuple[int, ...]] = []
    for children in graph.children:
        row: tuple[int, ...] = ()
        for group in CENTRE_CORNERS_SIDES:
            row = tuple(children[c] for c in group if children[c] != NO_POSITION)
            if row:
                break
        rows.append(row)
    return tuple(rows)


@cache
def defensive_opponent() -> OpponentTable:
    """An opponent that completes its line if it can, else blocks MENACE's, else plays at random."""
    graph = position_graph()
    rows: list[tuple[int, ...]] = []
    for board, children in zip(graph.boards, graph.children, strict=True):
        legal = [c for c in CELLS if children[c] != NO_POSITION]
        if not legal:
            rows.append(())
            continue
        mark = to_move(board)
        other = O if mark == X else X
        wins = [c for c in legal if winner(play(board, c)) == mark]
        blocks = [c for c in legal if winner(board[:c] + other + board[c + 1:]) == other]
        chosen = wins or blocks or legal
        rows.append(tuple(children[c] for c in chosen))
    return tuple(rows)
