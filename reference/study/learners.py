"""Many independent MENACEs trained side by side: vectorised with numpy, or one by one without."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

from reference.board import O, X
from reference.study.curves import BAND, MEASURES, Band, Curve, checkpoints, curve_from_results
from reference.menace import Menace, beads_returned, initial_contents
from reference.outcome import Outcome
from reference.positions import NO_POSITION, OpponentTable, outcome_codes, position_graph, result_of
from reference.rules import EmptyBox, Rules
from reference.tables import box_table
from reference.study.training import OPPONENTS, SELF_PLAY, opponent_sides, play_games

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


class _Table:
    """An opponent given as data, for K games at once."""

    def __init__(self, table: OpponentTable) -> None:
        import numpy as np

        self.choices = np.zeros((len(table), 9), dtype=np.int64)
        self.counts = np.ones(len(table), dtype=np.int64)
        for p, row in enumerate(table):
            if row:
                self.choices[p, :len(row)] = row
                self.counts[p] = len(row)

    def move(self, idx: Ints, pos: Ints, rng: np.random.Generator) -> tuple[Ints, Ints | None]:
        """The positions after this opponent's moves, and no resignations."""
        import numpy as np

        pick = (rng.random(pos.size) * self.counts[pos]).astype(np.int64)
        return self.choices[pos, pick], None


class _Population:
    """K MENACEs of one player under the same rules, their beads counted per box and square."""

    def __init__(self, rules: Rules, player: str, k: int) -> None:
        import numpy as np

        table = box_table(player)
        graph = position_graph()
        boxes = len(table.labels)
        start = np.zeros((boxes, 9), dtype=np.int32)
        for box, beads in enumerate(initial_contents(rules, player).values()):
            for bead in beads:
                start[box, bead] += 1
        self.boxes = boxes
        self.counts = np.tile(start, (k, 1))  # row k * boxes + box
        self.box_at = np.array(table.box_at, dtype=np.int64)
        self.after = np.full((len(graph.boards), 9), NO_POSITION, dtype=np.int64)
        for p, row in enumerate(table.after_bead):
            if row:
                self.after[p] = row
        self.forced = np.array(table.forced, dtype=np.int64)
        self.label_empties = np.zeros((boxes, 9), dtype=np.int64)
        self.label_empty_counts = np.array([len(e) for e in table.label_empties], dtype=np.int64)
        for box, empties in enumerate(table.label_empties):
            self.label_empties[box, :len(empties)] = empties
        self.legal = np.zeros((len(graph.boards), 9), dtype=np.int64)
        self.legal_counts = np.ones(len(graph.boards), dtype=np.int64)
        for p, children in enumerate(graph.children):
            legal = [c for c in children if c != NO_POSITION]
            if legal:
                self.legal[p, :len(legal)] = legal
                self.legal_counts[p] = len(legal)
        self.returned = np.array(beads_returned(rules, player), dtype=np.int32)
        self.refill = rules.empty_box is EmptyBox.REFILL
        self.resign = rules.empty_box is EmptyBox.RESIGN
        self.refill_beads = rules.refill_beads
        self.empty_met = np.zeros(k, dtype=np.int64)
        self.drawn: list[tuple[Ints, Ints]] = []
        self.flat = self.counts.reshape(-1)  # the same beads, indexed row * 9 + square
        self.after_flat = self.after.reshape(-1)

    def move(self, idx: Ints, pos: Ints, rng: np.random.Generator) -> tuple[Ints, Ints | None]:
        """The positions after the moves of learners `idx` at positions `pos`, and who resigned."""
        import numpy as np

        box = self.box_at[pos]
        new = self.forced[pos]  # right where there is no box
        resigned = None
        drawing = np.nonzero(box >= 0)[0]
        if drawing.size:
            who = idx[drawing]
            rows = who * self.boxes + box[drawing]
            running = np.cumsum(self.counts[rows], axis=1)
            total = running[:, 8]
            full = total > 0
            if not full.all():
                dry = drawing[~full]
                self.empty_met[idx[dry]] += 1
                if self.resign:
                    resigned = dry
                    new[dry] = pos[dry]
                else:
                    pick = (rng.random(dry.size) * self.legal_counts[pos[dry]]).astype(np.int64)
                    new[dry] = self.legal[pos[dry], pick]
                drawing, who, rows, running, total = (
                    drawing[full], who[full], rows[full], running[full], total[full])
            draw = (rng.random(drawing.size) * total).astype(np.int64)
            bead = (running <= draw[:, None]).sum(axis=1)
            flat = rows * 9 + bead
            self.flat[flat] -= 1
            if self.refill:
                emptied = np.nonzero(total == 1)[0]
                if emptied.size:
                    refill_rows = rows[emptied]
                    refill_boxes = box[drawing[emptied]]
                    n = self.label_empty_counts[refill_boxes]
                    for _ in range(self.refill_beads):
                        pick = (rng.random(emptied.size) * n).astype(np.int64)
                        self.counts[refill_rows, self.label_empties[refill_boxes, pick]] += 1
            self.drawn.append((who, flat))
            new[drawing] = self.after_flat[pos[drawing] * 9 + bead]
        return new, resigned

    def learn(self, results: Ints) -> None:
        """Put the beads drawn this game back as each learner's result says."""
        for who, flat in self.drawn:
            self.flat[flat] += self.returned[results[who]]
        self.drawn = []


Mover = Any
"""A _Population or a _Table: anything with move(idx, pos, rng) -> (positions, resigned)."""


def play_round(movers: tuple[Mover, Mover], learners: int, rng: np.random.Generator) -> Ints:
    """Play one game for every learner at once, X's mover first; each game's Result."""
    import numpy as np

    results_of = _results_array()
    position = np.zeros(learners, dtype=np.int64)
    result = np.zeros(learners, dtype=np.int64)
    active = np.arange(learners, dtype=np.int64)
    turn = 0
    while active.size:
        new, resigned = movers[turn].move(active, position[active], rng)
        position[active] = new
        ended = results_of[new]
        if resigned is not None:
            ended[resigned] = int(result_of(X if turn == 0 else O, Outcome.LOSS))
        done = ended != 0
        result[active[done]] = ended[done]
        active = active[~done]
        turn ^= 1
    return result


@cache
def _results_array() -> Ints:
    """Each position's Result, as a numpy array."""
    import numpy as np

    return np.array([int(r) for r in position_graph().results], dtype=np.int64)


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
            for measure, v in values.items():
                low, high = np.quantile(v, BAND)
                band_values[measure].append((float(low), float(high)))
        if progress is not None and ((g + 1) % 16 == 0 or g + 1 == games):
            progress((g + 1) * learners)
    bands = {
        m: Band(games=tuple(marks), low=tuple(lo for lo, _ in v), high=tuple(hi for _, hi in v))
        for m, v in band_values.items()
    } if marks else {}
    first_moves = np.array(box_table(player).move_numbers) == 0
    beads = me.counts.reshape(learners, me.boxes, 9).sum(axis=2)
    dry = int((beads[:, first_moves] == 0).any(axis=1).sum())
    return Curve(
        first_move_dry=dry,
        learners=learners,
        wins=tuple(int(c) for c in totals[0]), draws=tuple(int(c) for c in totals[1]),
        losses=tuple(int(c) for c in totals[2]),
        empty_boxes=tuple(int(c) for c in empty_totals), bands=bands,
    )
