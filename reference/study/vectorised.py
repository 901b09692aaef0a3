"""Many MENACEs trained at once with numpy: game g of all of them ply by ply, as bead counts."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

import numpy as np
from numpy.typing import NDArray

from reference.board import O, X
from reference.loop import beads_returned
from reference.menace import initial_counts
from reference.outcome import Outcome
from reference.positions import (
    OpponentTable,
    legal_successors,
    position_graph,
    result_of,
)
from reference.rules import EmptyBox, Rules
from reference.study.curves import BAND, MEASURES, Band, Curve, checkpoints
from reference.study.progress import Progress
from reference.study.training import OPPONENTS, SELF_PLAY
from reference.tables import box_table

Ints = NDArray[np.intp]
Floats = NDArray[np.float64]

POSITIONS_PLUS = 2
"""Two positions added after the reachable ones: X resigned (O wins) and O resigned (X wins)."""


@cache
def _graph_arrays() -> tuple[Ints, Ints]:
    """Each position's Result (the two resignations included), and its legal moves padded to 9."""
    graph = position_graph()
    count = len(graph.boards)
    results = np.zeros(count + POSITIONS_PLUS, dtype=np.intp)
    results[:count] = [int(r) for r in graph.results]
    results[count] = int(result_of(X, Outcome.LOSS))
    results[count + 1] = int(result_of(O, Outcome.LOSS))
    return results, _padded([list(row) for row in legal_successors()])


def _padded(rows: Sequence[Sequence[int]]) -> Ints:
    """Rows of positions as one array of 9 columns, a finished position (empty row) leading to
    itself, every row padded by repeating itself: column `int(u * count)` is a uniform pick."""
    table = np.zeros((len(rows) + POSITIONS_PLUS, 9), dtype=np.intp)
    table[len(rows):] = np.arange(len(rows), len(rows) + POSITIONS_PLUS)[:, None]
    for p, row in enumerate(rows):
        table[p] = [row[c % len(row)] for c in range(9)] if row else p
    return table


def _counts(rows: Sequence[Sequence[int]]) -> Ints:
    """How many options each row has (one for a finished position, which stays where it is)."""
    counts = np.ones(len(rows) + POSITIONS_PLUS, dtype=np.intp)
    counts[:len(rows)] = [max(1, len(row)) for row in rows]
    return counts


class _Table:
    """An opponent given as data, for K games at once."""

    def __init__(self, table: OpponentTable) -> None:
        self.choices_flat = _padded(table).reshape(-1)
        """For each position and column (index p * 9 + column), its options padded to 9 columns."""
        self.options = _counts(table).astype(np.float64)
        """For each position, how many options it has, as a float to scale uniform numbers by."""

    def move(self, pos: Ints, uniform: Floats, rng: np.random.Generator, empty: int) -> Ints:
        """The positions after this opponent's moves from `pos` (a finished game stays put)."""
        pick = (uniform * self.options[pos]).astype(np.intp)
        pick += pos * 9
        moved: Ints = self.choices_flat[pick]
        return moved


ROW_BYTES = 32
"""The size of row that numpy's take copies fastest (it has fast paths up to 32 bytes)."""

SINK_BEADS = 1
"""The beads on each square of a sink box, which a learner whose game is over draws from.

A sink never changes during a game (beads leave a box only when the game is learnt from), so
one bead a square keeps it from ever looking empty or about to be emptied."""


def bead_dtype(rules: Rules, games: int) -> np.dtype[np.signedinteger[Any]]:
    """The smallest integer type that holds any box's beads over `games` games under `rules`.

    A box starts with at most nine squares' initial beads and, being drawn from at most once a
    game, gains at most the largest incentive and one refill a game.
    """
    refill = rules.refill_beads if rules.empty_box is EmptyBox.REFILL else 0
    gain = max(0, *(rules.incentive(o) for o in Outcome)) + refill
    most = 9 * max(rules.initial_beads) + games * gain
    for dtype in (np.int16, np.int32):
        if most <= np.iinfo(dtype).max:
            return np.dtype(dtype)
    return np.dtype(np.int64)


class _Population:
    """K MENACEs of one player under the same rules, their beads counted per box, learner and slot.

    A bead is held as its slot: the index of its square among the label's empty squares, so that
    at ply p, with 9 - p squares empty, only the first 9 - p counts of a row matter. The counts
    are box-major (row `box * k + learner`), so the learners drawing at one ply read rows that lie
    close together. A drawn bead stays counted in its box until the game is learnt from: each box
    is drawn from at most once a game, so no draw can tell, and a box whose last bead is drawn is
    refilled at once, as the rules say. Block `boxes` holds each learner's sink, drawn from once
    its game is over, so that every ply treats all K learners alike.
    """

    def __init__(self, rules: Rules, player: str, k: int, games: int) -> None:
        table = box_table(player)
        graph = position_graph()
        positions = len(graph.boards)
        boxes = len(table.labels)
        self.player = player
        self.boxes = boxes
        self.k = k
        self.dtype = bead_dtype(rules, games)
        most = max(len(empties) for empties in table.label_empties)
        self.width = max(most, ROW_BYTES // self.dtype.itemsize)
        """Counts a row holds: a 32-byte row, which numpy's take copies fastest, where they fit."""
        self.label_empties = np.zeros((boxes, 9), dtype=np.intp)
        """For each box and slot, the square of the label that the slot stands for."""
        for box, empties in enumerate(table.label_empties):
            self.label_empties[box, :len(empties)] = empties
        self.slot_squares = np.array([(box, slot, square) for box, empties in enumerate(
            table.label_empties) for slot, square in enumerate(empties)], dtype=np.intp).T
        """Every box's slots: three rows, of boxes, of slots and of the squares they stand for."""
        start = np.zeros((boxes + 1, self.width), dtype=self.dtype)
        for box, row in enumerate(initial_counts(rules, player).values()):
            for slot, square in enumerate(table.label_empties[box]):
                start[box, slot] = row[square]
        start[boxes] = SINK_BEADS
        self.counts = np.repeat(start, k, axis=0)  # row box * k + learner
        self.flat = self.counts.reshape(-1)  # the same beads, indexed row * width + slot
        self.sinks = self.counts[boxes * k:]
        self.learner = np.arange(k, dtype=np.intp)
        box_at = np.full(positions + POSITIONS_PLUS, boxes, dtype=np.intp)
        box_at[:positions] = [box if box >= 0 else boxes for box in table.box_at]
        self.row_at = box_at * k
        """Each position's first row of the box drawn from there (sinks where the game is over)."""
        after = np.zeros((positions + POSITIONS_PLUS, 9), dtype=np.intp)
        after[:] = np.arange(positions + POSITIONS_PLUS)[:, None]  # a finished game stays put
        for p, row in enumerate(table.after_bead):
            if row:
                empties = table.label_empties[table.box_at[p]]
                after[p, :len(empties)] = [row[square] for square in empties]
        self.after_flat = after.reshape(-1)
        """For each position and slot (index p * 9 + slot), the position after that slot's bead."""
        forced = np.arange(positions + POSITIONS_PLUS, dtype=np.intp)
        forced[:positions] = [f if f >= 0 else p for p, f in enumerate(table.forced)]
        self.forced = forced
        """For each position with one square left and this player to move, the position after it."""
        self.results, self.legal = _graph_arrays()
        self.legal_counts = _counts(legal_successors())
        self.resigned = positions + (0 if player == X else 1)
        """The position that stands for this player having resigned."""
        self.change = np.array(beads_returned(rules, player), dtype=self.dtype) - 1
        """By Result code, the beads a drawn slot gains when the game is learnt from (-1: lost)."""
        self.refill = rules.empty_box is EmptyBox.REFILL
        self.resign = rules.empty_box is EmptyBox.RESIGN
        self.refill_beads = rules.refill_beads
        self.empty_met = 0
        """How often a learner found its box empty since this count was last cleared."""
        self.drawn: list[Ints] = []
        """The slot drawn at each ply of this game, by learner (index row * width + slot)."""

    def beads(self) -> NDArray[np.signedinteger[Any]]:
        """The beads of every learner's boxes, by learner, box and square (the sinks left out)."""
        slots = self.counts[:self.boxes * self.k].reshape(self.boxes, self.k, self.width)
        boxes, slot, square = self.slot_squares
        squares = np.zeros((self.k, self.boxes, 9), dtype=self.dtype)
        squares[:, boxes, square] = slots[boxes, :, slot].T
        return squares

    def box_beads(self, boxes: Ints) -> Ints:
        """How many beads each learner holds in each of these boxes, by box and learner."""
        rows = self.counts[:self.boxes * self.k].reshape(self.boxes, self.k, self.width)
        held: Ints = rows[boxes].sum(axis=2, dtype=np.intp)
        return held

    def move(self, pos: Ints, uniform: Floats, rng: np.random.Generator, empty: int) -> Ints:
        """The positions after every learner draws a bead at `pos`, where `empty` squares are
        empty (a finished game draws from its sink).

        Each learner takes the first slot whose running count of beads exceeds `uniform` times
        the beads in its box, so each square's chance is its share of the beads.
        """
        rows = self.row_at[pos]
        rows += self.learner
        # The rows gathered and turned to one row per slot, so that the running sums and the
        # comparisons run along the learners, which numpy does fastest.
        running = np.take(self.counts, rows, axis=0)[:, :empty].T.copy()
        for slot in range(1, empty):
            np.add(running[slot - 1], running[slot], out=running[slot])
        total = running[-1]
        dry_new = None
        if not self.refill and not total.all():  # empty boxes: possible unless the rules refill
            dry = np.flatnonzero(total == 0)
            self.empty_met += dry.size
            if self.resign:
                dry_new = np.full(dry.size, self.resigned, dtype=np.intp)
            else:
                pick = (rng.random(dry.size) * self.legal_counts[pos[dry]]).astype(np.intp)
                dry_new = self.legal[pos[dry], pick]
            rows[dry] = self.boxes * self.k + dry
            running[:, dry] = np.arange(1, empty + 1, dtype=self.dtype)[:, None] * SINK_BEADS
        draw = (uniform * total).astype(self.dtype)
        slot = (running[:-1] <= draw).sum(axis=0, dtype=np.uint8)
        if self.refill and (emptied := np.flatnonzero(total == 1)).size:
            self._refill(rows[emptied], empty, rng)
        rows *= self.width
        rows += slot
        self.drawn.append(rows)
        after = pos * 9
        after += slot
        new: Ints = self.after_flat[after]
        if dry_new is not None:
            new[dry] = dry_new
        return new

    def _refill(self, rows: Ints, empty: int, rng: np.random.Generator) -> None:
        """Put `refill_beads` beads into each of these rows, each in a random one of its slots."""
        for _ in range(self.refill_beads):
            pick = (rng.random(rows.size) * empty).astype(np.intp)
            self.counts[rows, pick] += 1

    def forced_move(self, pos: Ints) -> Ints:
        """Positions after each learner's forced move (one square left; a finished game stays)."""
        forced: Ints = self.forced[pos]
        return forced

    def learn(self, results: Ints) -> None:
        """Take the beads drawn this game out, or put more in, as each learner's result says."""
        change = self.change[results]
        for flat in self.drawn:
            np.add.at(self.flat, flat, change)  # several times faster than flat[flat] += change
        self.drawn = []
        self.sinks[:] = SINK_BEADS


Mover = Any
"""A _Population or a _Table."""


def play_round(movers: tuple[Mover, Mover], learners: int, rng: np.random.Generator) -> Ints:
    """Play one game for every learner at once, X's mover first, all nine plies; each game's Result.

    A game that is over stays at its final position (a MENACE draws from its sink), so every ply
    treats all learners alike. X's fifth move, with one square left, is forced.
    """
    uniforms = rng.random((8, learners))
    position = np.zeros(learners, dtype=np.intp)
    for ply in range(8):
        position = movers[ply % 2].move(position, uniforms[ply], rng, 9 - ply)
    x = movers[0]
    position = x.forced_move(position) if isinstance(x, _Population) else x.move(
        position, rng.random(learners), rng, 1)
    results: Ints = _graph_arrays()[0][position]
    return results


def band_points(tally: NDArray[np.integer[Any]], played: int) -> dict[str, tuple[float, float]]:
    """Each measure's band over the learners, given each learner's wins, draws and losses (3 rows).

    The same percentiles as `curves.percentile`, the order statistics taken from the counts
    sorted as 32-bit integers (score = wins + draws - losses), which numpy sorts fastest.
    """
    values = np.empty((4, tally.shape[1]), dtype=np.int32)
    values[:3] = tally
    values[3] = tally[0] + tally[1] - tally[2]
    ordered = np.sort(values, axis=1)
    last = tally.shape[1] - 1
    places = [(q * last, int(q * last), min(int(q * last) + 1, last)) for q in BAND]
    points = {}
    for row, measure in enumerate(MEASURES):
        scale = 1.0 if measure == "score" else played
        ends = [(float(ordered[row, below]) / scale, float(ordered[row, above]) / scale, at - below)
                for at, below, above in places]
        low, high = (a + (b - a) * fraction for a, b, fraction in ends)
        points[measure] = (low, high)
    return points


def train_vectorised(
    rules: Rules, player: str, opponents: Sequence[str], games: int, learners: int,
    seed: int | None, progress: Progress | None,
) -> Curve:
    """The curve of `learners` fresh MENACEs trained `games` games each, game g of all at once."""
    rng = np.random.Generator(np.random.SFC64(seed))  # draws uniforms faster than the default
    other = O if player == X else X
    me = _Population(rules, player, learners, games)
    pool: list[_Population | _Table] = [
        _Population(rules, other, learners, games) if name == SELF_PLAY
        else _Table(OPPONENTS[name]()) for name in opponents
    ]
    by_result = np.zeros((games, 4), dtype=np.int64)
    """For each game, how many learners ended it with each Result."""
    empty_met = [0] * games
    tally = np.zeros(4 * learners, dtype=np.int32)
    """Each learner's games so far with each Result (index result * learners + learner)."""
    codes = [result_of(player, outcome) for outcome in Outcome]  # win, draw, loss
    marks = checkpoints(games) if learners > 1 else []
    mark_set = set(marks)
    band_values: dict[str, list[tuple[float, float]]] = {m: [] for m in MEASURES}
    for g in range(games):
        opponent = pool[g % len(pool)]
        movers: tuple[Any, Any] = (me, opponent) if player == X else (opponent, me)
        result = play_round(movers, learners, rng)
        me.learn(result)
        if isinstance(opponent, _Population):
            opponent.learn(result)
        by_result[g] = np.bincount(result, minlength=4)
        empty_met[g], me.empty_met = me.empty_met, 0
        at = result * learners
        at += me.learner
        tally[at] += 1
        if g + 1 in mark_set:
            points = band_points(tally.reshape(4, learners)[codes], g + 1)
            for measure, point in points.items():
                band_values[measure].append(point)
        if progress is not None and ((g + 1) % 16 == 0 or g + 1 == games):
            progress((g + 1) * learners)
    bands = {
        m: Band(games=tuple(marks), low=tuple(lo for lo, _ in v), high=tuple(hi for _, hi in v))
        for m, v in band_values.items()
    } if marks else {}
    first_moves = np.flatnonzero(np.array(box_table(player).move_numbers) == 0)
    dry = int((me.box_beads(first_moves) == 0).any(axis=0).sum())
    wins, draws, losses = (tuple(int(c) for c in by_result[:, code]) for code in codes)
    return Curve(
        first_move_dry=dry, learners=learners, wins=wins, draws=draws, losses=losses,
        empty_boxes=tuple(empty_met), bands=bands,
    )
