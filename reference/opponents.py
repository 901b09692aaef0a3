"""Opponents as data: for each position, the positions they may move to, each equally likely."""

from __future__ import annotations

from functools import cache

from reference.positions import NO_POSITION, OpponentTable, Result, position_graph
from reference.solver import best_moves


@cache
def random_opponent() -> OpponentTable:
    """An opponent that takes any empty square, uniformly at random."""
    graph = position_graph()
    return tuple(
        tuple(p for p in children if p != NO_POSITION) for children in graph.children
    )


@cache
def perfect_opponent() -> OpponentTable:
    """An opponent that never throws away a result: uniformly random among minimax-best moves."""
    graph = position_graph()
    return tuple(
        tuple(graph.children[p][c] for c in best_moves(board))
        if result is Result.ONGOING else ()
        for p, (board, result) in enumerate(zip(graph.boards, graph.results))
    )
