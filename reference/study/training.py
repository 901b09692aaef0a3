"""Training MENACE against opponents, other MENACEs or a pool of both, with every game's result kept."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache

from reference.board import O, X
from reference.menace import Menace, beads_returned
from reference.study.opponents import (
    defensive_opponent, perfect_opponent, positional_opponent, random_opponent,
)
from reference.outcome import Outcome
from reference.positions import OpponentTable, outcome_codes, position_graph, result_of
from reference.rules import EmptyBox
from reference.tables import box_table

OPPONENTS: dict[str, Callable[[], OpponentTable]] = {
    "random": random_opponent,
    "perfect": perfect_opponent,
    "positional": positional_opponent,
    "defensive": defensive_opponent,
}
"""The opponents given as data, by name; `menace` (another learning MENACE) is not among them."""

SELF_PLAY = "menace"
"""The name that stands for another MENACE, learning as it plays, in a list of opponents."""

Side = Menace | OpponentTable
"""One side of a game: a learning MENACE, or an opponent given as data."""


class UnknownOpponentError(ValueError):
    """An opponent name that is not one of OPPONENTS or `menace`."""


def opponent_names() -> tuple[str, ...]:
    """Every name an opponent list may use."""
    return (*OPPONENTS, SELF_PLAY)


def parse_opponents(text: str, allowed: Sequence[str] | None = None) -> tuple[str, ...]:
    """The opponent names in a comma-separated list like 'random,perfect,menace'."""
    choices = tuple(allowed) if allowed is not None else opponent_names()
    names = tuple(name.strip().lower() for name in text.split(","))
    for name in names:
        if name not in choices:
            raise UnknownOpponentError(f"unknown opponent {name!r}: choose from {', '.join(choices)}")
    return names


@dataclass(frozen=True)
class Record:
    """Every game's Outcome for one learner, from its side, as bytes."""

    results: bytes
    empty_boxes: bytes
    """For each game, how often the learner found a box empty."""

    @property
    def games(self) -> int:
        """The number of games."""
        return len(self.results)


@cache
def _results() -> tuple[int, ...]:
    """Each position's Result as a plain int, for the hot loop."""
    return tuple(int(r) for r in position_graph().results)


class _Boxes:
    """A MENACE's beads as plain lists, with the tables and settings the hot loops need."""

    def __init__(self, menace: Menace) -> None:
        table = box_table(menace.player)
        self.menace = menace
        self.beads: list[list[int]] = [list(b) for b in menace.contents().values()]
        self.box_at = table.box_at
        self.after_bead = table.after_bead
        self.forced = table.forced
        self.label_empties = table.label_empties
        rules = menace.rules
        self.refill = rules.empty_box is EmptyBox.REFILL
        self.resign = rules.empty_box is EmptyBox.RESIGN
        self.refill_beads = rules.refill_beads
        self.returned = beads_returned(rules, menace.player)
        """Beads of the drawn square put back after each game Result."""
        self.lost_by_resigning = int(result_of(menace.player, Outcome.LOSS))

    def store(self) -> None:
        """Write the beads back into the MENACE."""
        self.menace.load(dict(zip(self.menace.labels, self.beads)))


class Training:
    """A learner and its pool of opponents, playing game after game; game g is against pool[g % n].

    The MENACEs' beads are read once, at the start, and written back by `store()`: between
    the two, the MENACEs themselves are stale.
    """

    def __init__(self, learner: Menace, pool: Sequence[Side]) -> None:
        if not pool:
            raise ValueError("the pool of opponents is empty")
        menaces = [learner] + [side for side in pool if isinstance(side, Menace)]
        for side in pool:
            if isinstance(side, Menace) and side.player == learner.player:
                raise ValueError(f"a MENACE opponent must play {O if learner.player == X else X}")
        if len({id(m) for m in menaces}) != len(menaces):
            raise ValueError("each MENACE may appear once among the learner and the pool")
        self._learner = learner
        self._tables_only = len(menaces) == 1
        # Self-play needs both sides' beads in one loop: they are copied out and stored back.
        self._states = [] if self._tables_only else [_Boxes(m) for m in menaces]
        by_id = {id(state.menace): state for state in self._states}
        self._members = [by_id[id(side)] if isinstance(side, Menace) else side for side in pool]
        self._code = outcome_codes(learner.player)
        self.played = 0
        """Games played so far."""

    def play(self, games: int) -> Record:
        """Play the next `games` games, every MENACE learning; the learner's record of them."""
        if self._tables_only:
            tables = [m for m in self._members if not isinstance(m, _Boxes)]
            outcomes, empties = self._learner.play_games(tables, games, first_game=self.played)
            results = bytearray(self._code[r] for r in outcomes)
        else:
            me = self._states[0]
            results, empties = _against_anyone(me, self._members, games, self.played, self._code)
        self.played += games
        return Record(results=bytes(results), empty_boxes=bytes(empties))

    def store(self) -> None:
        """Write every MENACE's beads back into it."""
        for state in self._states:
            state.store()


def play_games(learner: Menace, pool: Sequence[Side], games: int, *, first_game: int = 0) -> Record:
    """Play `games` games of `learner` against the pool in turn, every MENACE learning; its record.

    Game g (counted from `first_game`) is played against pool[g % len(pool)]. Draws use the
    learner's rng.
    """
    training = Training(learner, pool)
    training.played = first_game
    record = training.play(games)
    training.store()
    return record


def _against_anyone(
    me: _Boxes, members: list[_Boxes | OpponentTable], games: int, first_game: int,
    code: list[int],
) -> tuple[bytearray, bytearray]:
    """The loop for pools with other MENACEs in them: both sides may draw beads and learn."""
    results_of = _results()
    legal = random_opponent()
    rnd = me.menace.rng.random
    learner_is_x = me.menace.player == X
    record = bytearray(games)
    empties_record = bytearray(games)
    for g in range(games):
        other = members[(first_game + g) % len(members)]
        sides = (me, other) if learner_is_x else (other, me)
        drawn: tuple[list[tuple[list[int], int]], list[tuple[list[int], int]]] = ([], [])
        empty_here = 0
        position = 0
        turn = 0
        while True:
            side = sides[turn]
            if not isinstance(side, _Boxes):
                row = side[position]
                position = row[int(rnd() * len(row))]
            elif (box := side.box_at[position]) >= 0:
                beads = side.beads[box]
                n = len(beads)
                if n:
                    i = int(rnd() * n)
                    bead = beads[i]
                    beads[i] = beads[-1]
                    beads.pop()
                    if n == 1 and side.refill:
                        empties = side.label_empties[box]
                        beads.extend(
                            empties[int(rnd() * len(empties))] for _ in range(side.refill_beads)
                        )
                    drawn[turn].append((beads, bead))
                    position = side.after_bead[position][bead]
                else:
                    if side is me:
                        empty_here += 1
                    if side.resign:
                        result = side.lost_by_resigning
                        break
                    row = legal[position]
                    position = row[int(rnd() * len(row))]
            else:
                position = side.forced[position]
            result = results_of[position]
            if result:
                break
            turn ^= 1
        record[g] = code[result]
        empties_record[g] = empty_here
        for turn in (0, 1):
            side = sides[turn]
            if isinstance(side, _Boxes):
                back = side.returned[result]
                for kept, bead in drawn[turn]:
                    kept.extend([bead] * back)
    return record, empties_record


def opponent_sides(names: Sequence[str], learner: Menace, rng: random.Random) -> list[Side]:
    """The pool for these names: tables by name, a fresh MENACE of the other player for `menace`."""
    other = O if learner.player == X else X
    return [
        Menace(learner.rules, player=other, rng=rng) if name == SELF_PLAY else OPPONENTS[name]()
        for name in names
    ]
