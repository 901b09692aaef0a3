"""Many independent MENACEs trained side by side: vectorised with numpy, or one by one without."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

from reference.board import O, X
from reference.loop import beads_returned
from reference.menace import Menace, initial_contents
from reference.outcome import Outcome
from reference.positions import (
    OpponentTable,
    legal_successors,
    outcome_codes,
    position_graph,
    result_of,
)
from reference.rules import EmptyBox, Rules
from reference.study.curves import (
    BAND,
    MEASURES,
    Band,
    Curve,
    checkpoints,
    curve_from_results,
)
from reference.study.training import OPPONENTS, SELF_PLAY, opponent_sides, play_games
from reference.tables import box_table

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    Ints = NDArray[np.int64]

NUMPY_FROM = 50
"""The fewest learners for which 'auto' picks the vectorised engine: below, pure Python is faster."""

Progress = Callable[[int], None]
"""Told the number of games finished so far, by every learner together."""


def numpy_available() -> bool:
    """True when numpy can be imported (the optional extra `fast`)."""
    try:
        import numpy  # noqa: F401
    except ImportError:
        return False
    return True


def train_learners(
    rules: Rules,
    player: str,
    opponents: Sequence[str],
    games: int,
    learners: int,
    *,
    seed: int | None = None,
    engine: str = "auto",
    progress: Progress | None = None,
) -> Curve:
    """Train `learners` fresh MENACEs for `games` games each against the opponents in turn; their curve.

    `engine` is 'numpy' (vectorised), 'python' (one MENACE after another) or 'auto' (numpy if
    installed and there are at least NUMPY_FROM learners). Each learner meeting `menace` in the
    list has its own MENACE opponent.
    """
    if engine not in ("auto", "numpy", "python"):
        raise ValueError(f"unknown engine {engine!r}: choose auto, numpy or python")
    if engine == "numpy" or (engine == "auto" and learners >= NUMPY_FROM and numpy_available()):
        return _train_numpy(rules, player, opponents, games, learners, seed, progress)
    return _train_python(rules, player, opponents, games, learners, seed, progress)


def _train_python(
    rules: Rules, player: str, opponents: Sequence[str], games: int, learners: int,
    seed: int | None, progress: Progress | None,
) -> Curve:
    """The pure-Python engine: each learner trained in turn by the single-learner loop."""
    master = random.Random(seed)
    results, empties = [], []
    dry = 0
    for k in range(learners):
        rng = random.Random(master.getrandbits(64))
        learner = Menace(rules, player=player, rng=rng)
        record = play_games(learner, opponent_sides(opponents, learner, rng), games)
        results.append(record.results)
        empties.append(record.empty_boxes)
        dry += bool(first_move_boxes_empty(learner))
        if progress is not None:
            progress((k + 1) * games)
    return curve_from_results(results, empties, first_move_dry=dry)


def first_move_boxes_empty(menace: Menace) -> list[str]:
    """The labels of MENACE's boxes for its first move that hold no beads."""
    return [label for label, beads in menace.contents().items()
            if not beads and label.count(menace.player) == 0]


POSITIONS_PLUS = 2
"""Two positions added after the reachable ones: X resigned (O wins) and O resigned (X wins)."""


@cache
def _graph_arrays() -> tuple[Ints, Ints]:
    """Each position's Result (the two resignations included), and its legal moves padded to 9."""
    import numpy as np

    graph = position_graph()
    count = len(graph.boards)
    results = np.zeros(count + POSITIONS_PLUS, dtype=np.int64)
    results[:count] = [int(r) for r in graph.results]
    results[count] = int(result_of(X, Outcome.LOSS))
    results[count + 1] = int(result_of(O, Outcome.LOSS))
    return results, _padded([list(row) for row in legal_successors()])


def _padded(rows: Sequence[Sequence[int]]) -> Ints:
    """Rows of positions as one array of 9 columns, a finished position (empty row) leading to itself,
    every row padded by repeating itself, so that column `int(u * count)` is a uniform pick."""
    import numpy as np

    table = np.zeros((len(rows) + POSITIONS_PLUS, 9), dtype=np.int64)
    table[len(rows):] = np.arange(len(rows), len(rows) + POSITIONS_PLUS)[:, None]
    for p, row in enumerate(rows):
        table[p] = [row[c % len(row)] for c in range(9)] if row else p
    return table


def _counts(rows: Sequence[Sequence[int]]) -> Ints:
    """How many options each row has (one for a finished position, which stays where it is)."""
    import numpy as np

    counts = np.ones(len(rows) + POSITIONS_PLUS, dtype=np.int64)
    counts[:len(rows)] = [max(1, len(row)) for row in rows]
    return counts


class _Table:
    """An opponent given as data, for K games at once."""

    def __init__(self, table: OpponentTable) -> None:
        self.choices_flat = _padded(table).reshape(-1)
        """For each position and column (index p * 9 + column), its options padded to 9 columns."""
        self.counts = _counts(table)

    def move(self, pos: Ints, rng: np.random.Generator) -> Ints:
        """The positions after this opponent's moves from `pos` (a finished game stays put)."""
        import numpy as np

        pick = (rng.random(pos.size) * self.counts[pos]).astype(np.int64)
        moved: Ints = self.choices_flat[pos * 9 + pick]
        return moved


SINK_BEADS = 1 << 20
"""The beads of each learner's sink box, which a learner whose game is over draws from: never empty."""


class _Population:
    """K MENACEs of one player under the same rules, their beads counted per box and square.

    Each learner has one more box, its sink, drawn from once its game is over, so that every ply
    treats all K learners alike; the sink is filled up again after each game.
    """

    def __init__(self, rules: Rules, player: str, k: int) -> None:
        import numpy as np

        table = box_table(player)
        graph = position_graph()
        positions = len(graph.boards)
        boxes = len(table.labels)
        self.player = player
        self.boxes = boxes
        self.k = k
        start = np.zeros((boxes + 1, 9), dtype=np.int32)
        for box, beads in enumerate(initial_contents(rules, player).values()):
            for bead in beads:
                start[box, bead] += 1
        start[boxes] = SINK_BEADS
        self.counts = np.tile(start, (k, 1))  # row k * (boxes + 1) + box
        self.flat = self.counts.reshape(-1)  # the same beads, indexed row * 9 + square
        self.first_row = np.arange(k, dtype=np.int64) * (boxes + 1)
        """Each learner's first row of `counts`."""
        self.sinks = self.first_row + boxes
        self.box_at = np.full(positions + POSITIONS_PLUS, boxes, dtype=np.int64)
        """For each position, the box drawn from there, or the sink where the game is over."""
        self.box_at[:positions] = [box if box >= 0 else boxes for box in table.box_at]
        after = np.zeros((positions + POSITIONS_PLUS, 9), dtype=np.int64)
        after[:] = np.arange(positions + POSITIONS_PLUS)[:, None]  # a finished game stays put
        for p, row in enumerate(table.after_bead):
            if row:
                after[p] = row
        self.after_flat = after.reshape(-1)
        """For each position and bead (index p * 9 + bead), the position after it."""
        forced = np.arange(positions + POSITIONS_PLUS, dtype=np.int64)
        forced[:positions] = [f if f >= 0 else p for p, f in enumerate(table.forced)]
        self.forced = forced
        """For each position with one square left and this player to move, the position after it."""
        self.label_empties = np.zeros((boxes, 9), dtype=np.int64)
        self.label_empty_counts = np.array([len(e) for e in table.label_empties], dtype=np.int64)
        for box, empties in enumerate(table.label_empties):
            self.label_empties[box, :len(empties)] = empties
        self.results, self.legal = _graph_arrays()
        self.legal_counts = _counts(legal_successors())
        self.resigned = positions + (0 if player == X else 1)
        """The position that stands for this player having resigned."""
        self.returned = np.array(beads_returned(rules, player), dtype=np.int32)
        self.refill = rules.empty_box is EmptyBox.REFILL
        self.resign = rules.empty_box is EmptyBox.RESIGN
        self.refill_beads = rules.refill_beads
        self.empty_met = np.zeros(k, dtype=np.int64)
        self.drawn: list[Ints] = []

    def beads(self) -> NDArray[np.int32]:
        """The beads of every learner's boxes, by learner, box and square (the sinks left out)."""
        return self.counts.reshape(self.k, self.boxes + 1, 9)[:, :self.boxes]

    def move(self, pos: Ints, rng: np.random.Generator) -> Ints:
        """The positions after every learner draws a bead at `pos` (a finished game draws from its sink)."""
        import numpy as np

        rows = self.first_row + self.box_at[pos]
        # np.take gathers whole rows several times faster than fancy indexing; int32 sums need
        # no cast, and argmax stops at the first square whose running sum passes the draw.
        running = np.cumsum(np.take(self.counts, rows, axis=0), axis=1, dtype=np.int32)
        total = running[:, 8]
        dry_new = None
        if not total.all():  # empty boxes, possible unless the rules refill them
            dry = np.flatnonzero(total == 0)
            self.empty_met[dry] += 1
            if self.resign:
                dry_new = np.full(dry.size, self.resigned, dtype=np.int64)
            else:
                pick = (rng.random(dry.size) * self.legal_counts[pos[dry]]).astype(np.int64)
                dry_new = self.legal[pos[dry], pick]
            rows[dry] = self.sinks[dry]
            running[dry] = np.cumsum(self.counts[rows[dry]], axis=1, dtype=np.int32)
        draw = (rng.random(pos.size) * total).astype(np.int32)
        bead = np.argmax(running > draw[:, None], axis=1)
        flat = rows * 9 + bead
        self.flat[flat] -= 1
        if self.refill and (emptied := np.flatnonzero(total == 1)).size:
            refill_rows = rows[emptied]
            refill_boxes = refill_rows - self.first_row[emptied]
            n = self.label_empty_counts[refill_boxes]
            for _ in range(self.refill_beads):
                pick = (rng.random(emptied.size) * n).astype(np.int64)
                self.counts[refill_rows, self.label_empties[refill_boxes, pick]] += 1
        self.drawn.append(flat)
        new: Ints = self.after_flat[pos * 9 + bead]
        if dry_new is not None:
            new[dry] = dry_new
        return new

    def forced_move(self, pos: Ints) -> Ints:
        """The positions after every learner's forced move (one square left; a finished game stays)."""
        forced: Ints = self.forced[pos]
        return forced

    def learn(self, results: Ints) -> None:
        """Put the beads drawn this game back as each learner's result says; fill the sinks up."""
        back = self.returned[results]
        for flat in self.drawn:
            self.flat[flat] += back
        self.drawn = []
        self.counts[self.sinks] = SINK_BEADS


Mover = Any
"""A _Population or a _Table."""


def play_round(movers: tuple[Mover, Mover], learners: int, rng: np.random.Generator) -> Ints:
    """Play one game for every learner at once, X's mover first, all nine plies; each game's Result.

    A game that is over stays at its final position (a MENACE draws from its sink), so every ply
    treats all learners alike. X's fifth move, with one square left, is forced.
    """
    import numpy as np

    position = np.zeros(learners, dtype=np.int64)
    for ply in range(9):
        mover = movers[ply % 2]
        if isinstance(mover, _Table):
            position = mover.move(position, rng)
        elif ply == 8:
            position = mover.forced_move(position)
        else:
            position = mover.move(position, rng)
    results: Ints = _graph_arrays()[0][position]
    return results


def _train_numpy(
    rules: Rules, player: str, opponents: Sequence[str], games: int, learners: int,
    seed: int | None, progress: Progress | None,
) -> Curve:
    """The vectorised engine: game g of every learner is played at once, ply by ply."""
    import numpy as np

    rng = np.random.default_rng(seed)
    other = O if player == X else X
    me = _Population(rules, player, learners)
    pool: list[_Population | _Table] = [
        _Population(rules, other, learners) if name == SELF_PLAY else _Table(OPPONENTS[name]())
        for name in opponents
    ]
    code = np.array(outcome_codes(player), dtype=np.int64)  # Result -> Outcome
    totals = np.zeros((3, games), dtype=np.int64)
    empty_totals = np.zeros(games, dtype=np.int64)
    cumulative = np.zeros((3, learners), dtype=np.int64)
    marks = checkpoints(games) if learners > 1 else []
    mark_set = set(marks)
    band_values: dict[str, list[tuple[float, float]]] = {m: [] for m in MEASURES}
    everyone = np.arange(learners, dtype=np.int64)
    for g in range(games):
        opponent = pool[g % len(pool)]
        movers: tuple[Any, Any] = (me, opponent) if player == X else (opponent, me)
        result = play_round(movers, learners, rng)
        me.learn(result)
        if isinstance(opponent, _Population):
            opponent.learn(result)
        outcome = code[result]
        counts = np.bincount(outcome, minlength=3)
        totals[:, g] = counts
        empty_totals[g] = me.empty_met.sum()
        me.empty_met[:] = 0
        cumulative[outcome, everyone] += 1
        if g + 1 in mark_set:
            played = g + 1
            values = {
                "win": cumulative[0] / played, "draw": cumulative[1] / played,
                "loss": cumulative[2] / played,
                "score": (cumulative[0] + cumulative[1] - cumulative[2]).astype(np.float64),
            }
            lows, highs = np.quantile(np.stack(list(values.values())), BAND, axis=1)
            for measure, low, high in zip(values, lows, highs, strict=True):
                band_values[measure].append((float(low), float(high)))
        if progress is not None and ((g + 1) % 16 == 0 or g + 1 == games):
            progress((g + 1) * learners)
    bands = {
        m: Band(games=tuple(marks), low=tuple(lo for lo, _ in v), high=tuple(hi for _, hi in v))
        for m, v in band_values.items()
    } if marks else {}
    first_moves = np.array(box_table(player).move_numbers) == 0
    beads = me.beads().sum(axis=2)
    dry = int((beads[:, first_moves] == 0).any(axis=1).sum())
    return Curve(
        first_move_dry=dry,
        learners=learners,
        wins=tuple(int(c) for c in totals[0]), draws=tuple(int(c) for c in totals[1]),
        losses=tuple(int(c) for c in totals[2]),
        empty_boxes=tuple(int(c) for c in empty_totals), bands=bands,
    )
