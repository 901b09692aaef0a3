"""The fast path's tables: from each position straight to its box, and to where each bead leads."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from reference.board import CELLS, EMPTY, Board, Cell, to_move
from reference.boxes import BoxId, box_labels, needs_box
from reference.positions import NO_POSITION, POSITIONS, PositionId, Result, position_graph
from reference.stored import stored
from reference.symmetry import PERMUTATIONS, inverse

NO_BOX = -1


@dataclass(frozen=True)
class BoxTable:
    """The matchboxes of one player and, for every position, how to use them."""

    player: str
    labels: tuple[Board, ...]
    """Each box's label: the canonical (least) image of the boards it stands for."""
    move_numbers: tuple[int, ...]
    """Each box's move number: 0 for MENACE's first move, up to 3."""
    label_empties: tuple[tuple[Cell, ...], ...]
    """Each box's legal beads: the empty squares of its label."""
    box_at: tuple[BoxId, ...]
    """For each position, the box MENACE draws from there, or -1."""
    after_bead: tuple[tuple[PositionId, ...], ...]
    """For each position, the position after playing each bead of its label's frame, or -1."""
    bead_to_cell: tuple[tuple[Cell, ...], ...]
    """For each position with a box, the board square each label square stands for."""
    forced: tuple[PositionId, ...]
    """For each position with one empty square and the player to move, the position after it."""


PositionTables = tuple[tuple[BoxId, ...], tuple[tuple[PositionId, ...], ...],
                       tuple[tuple[Cell, ...], ...], tuple[PositionId, ...]]
"""A BoxTable's tables by position, as plain data: box_at, after_bead, bead_to_cell, forced."""


def _position_tables(player: str) -> PositionTables:
    """Each position's box for the player, the position after each bead, its frame, forced move."""
    graph = position_graph()
    needs = [needs_box(board, player) for board in graph.boards]
    index = {label: box for box, label in enumerate(box_labels(player))}
    box_at: list[BoxId] = []
    after_bead: list[tuple[PositionId, ...]] = []
    bead_to_cell: list[tuple[Cell, ...]] = []
    forced: list[PositionId] = []
    for p, board in enumerate(graph.boards):
        children = graph.children[p]
        if needs[p]:
            back = PERMUTATIONS[inverse(graph.to_label[p])]  # label square -> board square
            box_at.append(index[graph.labels[p]])
            bead_to_cell.append(back)
            after_bead.append(tuple(children[back[c]] for c in CELLS))
        else:
            box_at.append(NO_BOX)
            bead_to_cell.append(())
            after_bead.append(())
        lone = [child for child in children if child != NO_POSITION]
        single = graph.results[p] is Result.ONGOING and to_move(board) == player and len(lone) == 1
        forced.append(lone[0] if single else NO_POSITION)
    return tuple(box_at), tuple(after_bead), tuple(bead_to_cell), tuple(forced)


def _is_position_tables(data: object) -> bool:
    """True when `data` has the shape of stored position tables."""
    return (isinstance(data, tuple) and len(data) == 4
            and all(isinstance(part, tuple) and len(part) == POSITIONS for part in data))


@cache
def box_table(player: str) -> BoxTable:
    """The matchboxes for MENACE playing `player` (X moves first), built once (stored on disk)."""
    labels = box_labels(player)
    box_at, after_bead, bead_to_cell, forced = stored(
        f"boxes-{player}", ["board.py", "symmetry.py", "boxes.py", "positions.py", "tables.py"],
        lambda: _position_tables(player), _is_position_tables)
    return BoxTable(
        player=player,
        labels=labels,
        move_numbers=tuple(label.count(player) for label in labels),
        label_empties=tuple(
            tuple(Cell(c) for c in CELLS if label[c] == EMPTY) for label in labels
        ),
        box_at=box_at,
        after_bead=after_bead,
        bead_to_cell=bead_to_cell,
        forced=forced,
    )
