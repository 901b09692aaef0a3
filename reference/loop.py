"""The one game loop: every game a MENACE plays, against a person, an opponent given as data or another MENACE.

The rules are data. A `Match` merges the two sides into tables indexed by position: at each
position the side to move either draws a bead from its box (`beads_at`, then `after_bead`) or
picks one of its options, each equally likely (`options`). The loop itself never asks who is to
move. A move's result is a step: the position it leads to, or that position's complement
(`~p`, below zero) once the game is over there, so one sign test ends a game. A MENACE's forced
move (one square left, no box) is folded into the step that leads to it: it draws nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import cycle, islice
from typing import Protocol, cast, runtime_checkable

from reference.board import EMPTY, Cell, X
from reference.outcome import Outcome
from reference.positions import (
    OpponentTable,
    PositionId,
    Result,
    legal_successors,
    position_graph,
    result_of,
)
from reference.rules import EmptyBox, Rules
from reference.tables import box_table

Step = int
"""Where a move leads: a position's id, or its complement `~id` (below zero) when the game is over there."""

Chance = Callable[[], float]
"""A source of numbers uniform in [0, 1), such as `random.Random().random`."""


@runtime_checkable
class Learner(Protocol):
    """What the loop needs of a MENACE: its player, its rules and its live bead lists, box by box."""

    player: str
    rules: Rules

    @property
    def live_beads(self) -> list[list[Cell]]:
        """Each box's beads, in box order: the lists themselves, which the loop changes."""


@runtime_checkable
class Person(Protocol):
    """A side that decides each move itself, such as the person at the keyboard."""

    def choose(self, position: PositionId) -> PositionId:
        """The position after this side's move from `position`."""


Side = Learner | Person | OpponentTable
"""One side of a match: a MENACE, a person, or an opponent given as data."""


def first_option() -> float:
    """The chance for sides that never have more than one option (a person): always the first."""
    return 0.0


@cache
def final_results() -> tuple[int, ...]:
    """For each position, the `Result` of a game that stops there: a resignation where play goes on."""
    graph = position_graph()
    return tuple(
        int(result) if result is not Result.ONGOING
        else int(Result.O_WINS if board.count(EMPTY) % 2 else Result.X_WINS)
        for board, result in zip(graph.boards, graph.results, strict=False)
    )


def beads_returned(rules: Rules, player: str) -> list[int]:
    """Beads of each drawn square put back after a game, by the game's Result code."""
    returned = [0] * len(Result)
    for outcome in Outcome:
        returned[result_of(player, outcome)] = rules.beads_returned(outcome)
    return returned


class _Hand:
    """A MENACE's side of a match: its beads drawn this game, and what it does with an empty box."""

    def __init__(self, menace: Learner, learner: bool) -> None:
        self.menace = menace
        self.learner = learner
        """True for the side whose empty boxes the match counts."""
        self.kept: list[tuple[list[Cell], Cell]] = []
        """The beads drawn this game, kept aside: for each draw, the box's bead list and the bead."""
        self.returned = beads_returned(menace.rules, menace.player)
        self.table = box_table(menace.player)


def _arrivals(results: Sequence[Result], hand_at: Sequence[_Hand | None]) -> list[Step]:
    """For each position, the step for arriving there: the position itself, or its complement
    where the game is over, or (for a MENACE with one square left) the finished position after
    its forced move."""
    steps = []
    for position, (result, hand) in enumerate(zip(results, hand_at, strict=True)):
        if result is not Result.ONGOING:
            steps.append(~position)
        elif hand is not None and hand.table.box_at[position] < 0:
            steps.append(~hand.table.forced[position])  # one square left: the game ends there
        else:
            steps.append(position)
    return steps


def _as_table(side: _Hand | Side) -> OpponentTable | None:
    """The side as an opponent given as data, or None for a MENACE or a person."""
    return None if isinstance(side, _Hand | Learner | Person) else side


NOWHERE: list[tuple[list[Cell], Cell]] = []
"""Where a bead drawn at a position with no box would be kept: never used."""


class _Asking:
    """A person's options at one position: a single option, whatever the person chooses."""

    def __init__(self, person: Person, position: PositionId, step: Callable[[PositionId], Step]):
        self.person, self.position, self.step = person, position, step

    def __len__(self) -> int:
        return 1

    def __getitem__(self, index: int) -> Step:
        return self.step(self.person.choose(self.position))


class Match:
    """Two sides merged into tables indexed by position: whoever is to move there decides there."""

    def __init__(self, learner: Learner, opponent: Side) -> None:
        """The match of `learner` against `opponent`, who plays the other mark."""
        if isinstance(opponent, Learner) and opponent.player == learner.player:
            raise ValueError(f"a MENACE opponent must play the other mark than {learner.player}")
        graph = position_graph()
        first = _Hand(learner, True)
        second = _Hand(opponent, False) if isinstance(opponent, Learner) else None
        self.hands = (first,) if second is None else (first, second)
        self.learning = tuple((hand.kept, hand.returned) for hand in self.hands)
        """For each MENACE of the match, the beads it drew this game and how many go back per Result."""
        x_side = first if learner.player == X else second or opponent
        o_side = second or opponent if learner.player == X else first
        movers = [x_side if board.count(EMPTY) % 2 else o_side for board in graph.boards]
        self._hand_at = [side if isinstance(side, _Hand) else None for side in movers]
        self.steps = _arrivals(graph.results, self._hand_at)
        """For each position, the step for arriving there (see `step`)."""
        step = self.steps.__getitem__
        self.beads_at: list[list[Cell] | None] = []
        """For each position, the beads of the box the side to move draws from there, or None."""
        self.after_bead: list[tuple[Step, ...]] = []
        """For each position with a box, the step each bead leads to (beads in the label's frame)."""
        self.options: list[Sequence[Step] | _Asking] = []
        """For each position without a box, the steps the side to move picks from, each equally
        likely; for a MENACE's box, the legal steps it picks from once the box is empty."""
        self.keep_aside: list[list[tuple[list[Cell], Cell]]] = []
        """For each position with a box, where a drawn bead goes until the game ends."""
        self.tables = (self.beads_at, self.after_bead, self.options, self.keep_aside)
        """The four tables the loop reads, in one tuple."""
        legal = legal_successors()
        tables = {id(side): _as_table(side) for side in (x_side, o_side)}
        for p, (side, hand) in enumerate(zip(movers, self._hand_at, strict=False)):
            box = hand.table.box_at[p] if hand is not None else -1
            if hand is not None and box >= 0:
                self.beads_at.append(hand.menace.live_beads[box])
                self.after_bead.append(tuple(map(step, hand.table.after_bead[p])))
                self.options.append(tuple(map(step, legal[p])))
                self.keep_aside.append(hand.kept)
                continue
            self.beads_at.append(None)
            self.after_bead.append(())
            self.keep_aside.append(NOWHERE)
            if hand is not None or graph.results[p] is not Result.ONGOING:
                self.options.append(())  # a forced move or a finished game: never played from
            elif (table := tables[id(side)]) is not None:
                self.options.append(tuple(map(step, table[p])))
            else:  # neither a MENACE nor a table: a person
                self.options.append(_Asking(cast(Person, side), p, self.step))

    def step(self, position: PositionId) -> Step:
        """The step for arriving at `position`: after a MENACE's forced move there, if it has one."""
        return self.steps[position]

    def refill(self, position: PositionId, beads: list[Cell], chance: Chance) -> None:
        """Refill the box just emptied at `position`, if its MENACE's rules say so."""
        hand = self._hand_at[position]
        assert hand is not None
        rules = hand.menace.rules
        if rules.empty_box is EmptyBox.REFILL:
            empties = hand.table.label_empties[hand.table.box_at[position]]
            beads.extend(empties[int(chance() * len(empties))] for _ in range(rules.refill_beads))

    def after_empty_box(self, position: PositionId, chance: Chance) -> tuple[Step, bool]:
        """The step a MENACE takes from an empty box at `position`, and whether it is the learner's."""
        hand = self._hand_at[position]
        assert hand is not None
        if hand.menace.rules.empty_box is EmptyBox.RESIGN:
            return ~position, hand.learner
        legal = self.options[position]
        return legal[int(chance() * len(legal))], hand.learner


@dataclass(frozen=True)
class Played:
    """What a run of games left: each game's `Result` code, the learner's empty boxes, the last position."""

    results: bytes
    empty_boxes: bytes
    """For each game, how often the learner found a box empty."""
    last_position: PositionId
    """Where the last game stopped: a finished position, or the one where a MENACE resigned
    (-1 when no game was played)."""


def play_games(
    matches: Sequence[Match], games: int, chance: Chance, *,
    choose: Chance | None = None, first_game: int = 0,
) -> Played:
    """Play `games` games, game g as matches[(first_game + g) % len(matches)], every MENACE learning.

    Beads are drawn with `chance`; opponents given as data pick with `choose` (default: `chance`).
    A game cut short by an exception (from a person's side) leaves the beads it drew out of their
    boxes, as MENACE's `move` without `learn` does; the next run forgets them.
    """
    for match in matches:
        for kept, _ in match.learning:
            kept.clear()
    pick = choose if choose is not None else chance
    outcome_of = final_results()
    results = bytearray(games)
    empty_boxes = bytearray(games)
    start = first_game % len(matches)
    schedule = islice(cycle((*matches[start:], *matches[:start])), games)
    p: Step = 0
    for game, match in enumerate(schedule):
        beads_at, after_bead, options, keep_aside = match.tables
        p = 0
        while True:
            beads = beads_at[p]
            if beads:  # the side to move draws a bead and keeps it aside
                n = len(beads)
                i = int(chance() * n)
                bead = beads[i]
                beads[i] = beads[-1]
                beads.pop()
                if n == 1:
                    match.refill(p, beads, chance)
                keep_aside[p].append((beads, bead))
                p = after_bead[p][bead]
            elif beads is None:  # the side to move picks one of its options
                row = options[p]
                p = row[int(pick() * len(row))]
            else:  # a MENACE's box is empty
                p, counted = match.after_empty_box(p, chance)
                empty_boxes[game] += counted
            if p < 0:
                break
        result = outcome_of[~p]
        results[game] = result
        for kept, returned in match.learning:  # each MENACE puts back the beads it drew
            back = returned[result]
            if back == 2:  # a win under the challenge's rules: the most common case first
                for beads, bead in kept:
                    beads.append(bead)
                    beads.append(bead)
            elif back == 1:
                for beads, bead in kept:
                    beads.append(bead)
            elif back:
                for beads, bead in kept:
                    beads.extend([bead] * back)
            kept.clear()
    return Played(results=bytes(results), empty_boxes=bytes(empty_boxes), last_position=~p)

