"""The one game loop: every game a MENACE plays, against a person, an opponent given as data or another MENACE.

The rules are data. A `Match` merges the two sides into tables indexed by position, and a
`Plan` binds them to the draws of one generator. The loop stops only where a MENACE draws a
bead: each bead of each box leads straight on to the next position where a MENACE draws (the
opponent's move, drawn in C from a stream of numbers, and a MENACE's forced last move folded
in), or to `OVER + p` for the position p where the game is over, so one comparison ends a game.

A drawn bead goes back into its box at once with one more of its square, as after the
challenge's win (see `reference.beads`); when the game ends otherwise, `settle` gives it what
the result returns, walking the game's draws back from the last (`before`). The lists end in
the order the plain rules leave them in, and every number is drawn from the same `Draws` in the
same order as `Menace.move` draws it, so the loop plays the plain rules' games exactly.

What keeps the loop fast, in CPython 3.11: each draw of a bead is one `next` on a stream of
small ints cut in C (for a box of fewer than 256 beads); the opponent's move is a `next` on a
`map` over a list's `__getitem__`, all in C; every table is indexed from zero up, which the
interpreter's fast paths for indexing require; the loop's conditional jumps stay short enough
for the interpreter to specialise the comparisons before them.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import cycle, islice, repeat
from typing import Final, NamedTuple, Protocol, cast, runtime_checkable

from reference.beads import AT_ONCE, put_back, settle, take_out
from reference.board import EMPTY, Cell, O, X
from reference.boxes import BoxId
from reference.draws import SMALL, Draws
from reference.outcome import Outcome
from reference.positions import (
    POSITIONS,
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
"""Where the game goes on: a position where a MENACE draws, or OVER + the position where it is over."""

OVER: Final = POSITIONS
"""The least step that ends a game: step OVER + p ends it at position p."""

Onward = Iterator[Step]
"""The steps that follow arriving at one position, one per `next`: the opponent's moves drawn in turn."""

Draw = tuple[list[Cell], tuple[Onward, ...]]
"""What a MENACE draws from at one position: its box's live beads, and for each bead (in the
label's frame) what follows it."""


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


FEW: Iterator[int] = iter(())
"""The loop's stream for a box of fewer than two beads: it stops at once, for the rare path."""

NO_BEADS: list[Cell] = []
"""The beads at a position where no MENACE draws: none, and never drawn from."""

NO_DRAW: Draw = (NO_BEADS, ())
"""The draw at a position where no MENACE draws: never made."""


class _Hand:
    """A MENACE's side of a match: its rules, its boxes by position and what each result returns."""

    def __init__(self, menace: Learner, learner: bool) -> None:
        self.menace = menace
        self.learner = learner
        """True for the side whose empty boxes the match counts."""
        self.returned = beads_returned(menace.rules, menace.player)
        self.table = box_table(menace.player)


class Plan(NamedTuple):
    """A match bound to one generator's draws: what the loop reads, in the order it reads it."""

    match: Match
    opening: Onward
    """The steps that start a game: where the first MENACE to move draws."""
    draw_at: list[Draw]
    """For each position, what its MENACE draws from there, one tuple for one lookup (NO_DRAW elsewhere)."""
    settles: tuple[bool, ...]
    """For each Result code, True when some MENACE's beads must be settled (not the challenge's win)."""


class _Asker:
    """A person's moves as steps: the person chooses, the match says where the game goes on."""

    def __init__(self, person: Person, steps: Sequence[Step]) -> None:
        self.person, self.steps = person, steps

    def step(self, position: PositionId) -> Step:
        """The step after the person's move from `position`."""
        return self.steps[self.person.choose(position)]


@cache
def _turns(player: str) -> tuple[PositionId, ...]:
    """The positions where `player` is to move and the game goes on."""
    graph = position_graph()
    odd = player == X  # X moves when an odd number of squares is empty
    return tuple(p for p, (board, result) in enumerate(zip(graph.boards, graph.results, strict=True))
                 if result is Result.ONGOING and (board.count(EMPTY) % 2 == 1) == odd)


@cache
def _draws_at(player: str) -> tuple[tuple[PositionId, BoxId], ...]:
    """Each position where `player`'s MENACE draws a bead, with the box it draws from."""
    box_at = box_table(player).box_at
    return tuple((p, box_at[p]) for p in _turns(player) if box_at[p] >= 0)


@cache
def _forced_at(player: str) -> tuple[tuple[PositionId, PositionId], ...]:
    """Each position where `player` has one square left, with the finished position after it."""
    forced = box_table(player).forced
    return tuple((p, forced[p]) for p in _turns(player) if forced[p] >= 0)


@cache
def _arrival_steps() -> tuple[Step, ...]:
    """For each position, the step for arriving there when no forced move follows."""
    return tuple(OVER + p if result is not Result.ONGOING else p
                 for p, result in enumerate(position_graph().results))


class Match:
    """Two sides merged into tables indexed by position: whoever is to move there decides there."""

    def __init__(self, learner: Learner, opponent: Side) -> None:
        """The match of `learner` against `opponent`, who plays the other mark."""
        if isinstance(opponent, Learner) and opponent.player == learner.player:
            raise ValueError(f"a MENACE opponent must play the other mark than {learner.player}")
        first = _Hand(learner, True)
        second = _Hand(opponent, False) if isinstance(opponent, Learner) else None
        self.hands = (first,) if second is None else (first, second)
        self._hand_at: list[_Hand | None] = [None] * POSITIONS
        """For each position, the MENACE to move there, or None."""
        self.beads_at: list[list[Cell]] = [NO_BEADS] * POSITIONS
        """For each position, the live beads of the box its MENACE draws from there (NO_BEADS elsewhere)."""
        self.steps: list[Step] = list(_arrival_steps())
        """For each position, the step for arriving there: the position, or the complement of
        the finished one (after a MENACE's forced last move, if it has one there)."""
        for hand in self.hands:
            player, beads = hand.menace.player, hand.menace.live_beads
            for p in _turns(player):
                self._hand_at[p] = hand
            for p, box in _draws_at(player):
                self.beads_at[p] = beads[box]
            for p, finished in _forced_at(player):
                self.steps[p] = OVER + finished  # one square left: the game ends there
        self._opponent_rows: list[tuple[PositionId, list[Step]]] = []
        """For each position where an opponent given as data moves, the steps it picks from."""
        self._asked: list[tuple[PositionId, Person]] = []
        """Each position where a person moves, and the person."""
        if second is None:
            turns = _turns(O if learner.player == X else X)
            if isinstance(opponent, Person):
                self._asked = [(p, opponent) for p in turns]
            else:
                table = cast(OpponentTable, opponent)
                step = self.steps.__getitem__
                self._opponent_rows = [(p, list(map(step, table[p]))) for p in turns]
                for p, row in self._opponent_rows:
                    if not row:
                        raise ValueError(f"the opponent has no move from position {p}")
        self._settles = tuple(any(hand.returned[r] != AT_ONCE for hand in self.hands)
                              for r in range(len(Result)))
        self._plan: Plan | None = None
        self._bound: Draws | None = None
        """The draws the plan is bound to."""
        self._arrivals: list[Onward] = []
        """For each position, what follows arriving there, under the plan's draws."""

    def plan(self, draws: Draws) -> Plan:
        """The match bound to `draws`, made once and kept for the next call with the same draws."""
        if self._plan is not None and self._bound is draws:
            return self._plan
        arrivals: list[Onward] = list(map(repeat, self.steps))
        for p, row in self._opponent_rows:  # a list's own __getitem__ is the cheapest call from C
            arrivals[p] = (repeat(row[0]) if len(row) == 1
                           else map(row.__getitem__, draws.stream(len(row))))
        for p, person in self._asked:
            arrivals[p] = map(_Asker(person, self.steps).step, repeat(p))
        draw_at = [NO_DRAW] * POSITIONS
        arrival = arrivals.__getitem__
        for hand in self.hands:
            after_bead = hand.table.after_bead
            for p, _ in _draws_at(hand.menace.player):  # an illegal bead's step: never taken
                draw_at[p] = (self.beads_at[p], tuple(map(arrival, after_bead[p])))
        self._bound = draws
        self._arrivals = arrivals
        self._plan = Plan(self, arrivals[0], draw_at, self._settles)
        return self._plan

    def from_few_beads(self, position: PositionId, draws: Draws, before: list[PositionId], last: PositionId,
                       ) -> tuple[Step, bool, PositionId]:
        """The step from a box of fewer than two beads at `position`, drawn as the plain rules
        draw, whether the box was the learner's and empty, and the game's last draw's position."""
        hand = self._hand_at[position]
        beads = self.beads_at[position]
        assert hand is not None and self._plan is not None
        rules = hand.menace.rules
        if beads:  # one bead: taken out, the box refilled if the rules say so, the bead put back
            bead = take_out(beads, draws.below(1))
            if rules.empty_box is EmptyBox.REFILL:
                empties = hand.table.label_empties[hand.table.box_at[position]]
                beads.extend(empties[draws.below(len(empties))] for _ in range(rules.refill_beads))
            put_back(beads, 0, bead, AT_ONCE)
            before[position] = last
            try:
                return next(self._plan.draw_at[position][1][bead]), False, position
            except BaseException:  # a game cut short: the bead stays out, as `move` leaves it
                settle(beads, 0)
                raise
        if rules.empty_box is EmptyBox.RESIGN:
            return OVER + position, hand.learner, last
        legal = legal_successors()[position]
        return next(self._arrivals[legal[draws.below(len(legal))]]), hand.learner, last

    def settle(self, before: list[PositionId], last: PositionId, result: int | None) -> None:
        """Give each bead drawn this game, from the last back (`before` leads from each draw to
        the one before it), what its MENACE's rules return for `result` (None: a game cut short,
        the beads kept out as `move` leaves them)."""
        position = last
        while position >= 0:
            hand = self._hand_at[position]
            assert hand is not None
            settle(self.beads_at[position], 0 if result is None else hand.returned[result])
            position = before[position]


@dataclass(frozen=True)
class Played:
    """What a run of games left: each game's `Result` code, the learner's empty boxes, the last position."""

    results: bytes
    empty_boxes: bytes
    """For each game, how often the learner found a box empty."""
    last_position: PositionId
    """Where the last game stopped: a finished position, or the one where a MENACE resigned
    (-1 when no game was played)."""


def play_games(matches: Sequence[Match], games: int, draws: Draws, *, first_game: int = 0) -> Played:
    """Play `games` games, game g as matches[(first_game + g) % len(matches)], every MENACE learning.

    Every side draws with `draws`. A game cut short by an exception (from a person's side)
    leaves the beads it drew out of their boxes, as MENACE's `move` without `learn` does.
    """
    plans = [match.plan(draws)[:] for match in matches]  # [:] makes a plain tuple: unpacked fastest
    start = first_game % len(plans)
    schedule = islice(cycle((*plans[start:], *plans[:start])), games)
    ends = (0,) * OVER + final_results()  # ends[p] for p = OVER + q is the result at q
    below, bits, small, over = [FEW, FEW, *draws.below_small[2:]], draws.rng.getrandbits, SMALL, OVER
    before = [-1] * POSITIONS  # for each position where a MENACE drew this game, the draw before (-1: none)
    results: list[int] = []
    empty_boxes = bytearray(games)
    p: Step = OVER - 1
    for match, opening, draw_at, settles in schedule:
        last = -1  # where the game's last draw was: none yet
        try:
            p = next(opening)  # a MENACE draws there: no game ends before a draw
            while p < over:  # until the game is over
                beads, after = draw_at[p]
                n = len(beads)
                if n < small:  # each place below n drawn exactly as Draws.below draws it
                    try:
                        place = next(below[n])
                    except StopIteration:  # one bead or none: refill, resign or move at random
                        p, empty, last = match.from_few_beads(p, draws, before, last)
                        empty_boxes[len(results)] += empty
                        continue
                else:  # Draws.below's rejection from getrandbits, inlined
                    width = n.bit_length()
                    place = bits(width)
                    while place >= n:
                        place = bits(width)
                bead = beads[place]
                beads.append(bead)  # put back at once, with one more
                before[p] = last
                last = p
                p = next(after[bead])
        except BaseException:
            match.settle(before, last, None)
            raise
        result = ends[p]
        results.append(result)
        if settles[result]:
            match.settle(before, last, result)
    return Played(results=bytes(results), empty_boxes=bytes(empty_boxes), last_position=p - OVER)
