"""The one game loop: each game a MENACE plays, against a person, an opponent or another MENACE.

The rules are data. A `Match` merges the two sides into tables indexed by position, and a
`Plan` binds them to the draws of one generator. The loop stops only where a MENACE draws a
bead: each square of each box leads straight on to the next position where a MENACE draws (the
opponent's move, drawn in C from a stream of numbers, and a MENACE's forced last move folded
in), or to `OVER + p` for the position p where the game is over, so one comparison ends a game.

Boxes are counts per square (`reference.beads`). A drawn bead stays in its box until the game
ends, as a box is drawn from at most once a game, and its box gets at once what a win adds
(`at_once`: `Box.grow`, inline); when the game ends otherwise, `settle` gives the box the
rest (`Box.add`), walking the game's draws back from the last (`before`). `Menace.move` and
`learn` make the same changes in the same order, and every number is drawn from the same `Draws`
in the same order, so the loop plays the plain rules' games exactly, entry for entry.

What keeps the loop fast, in CPython 3.11: each draw of an entry is one `next` on a stream of
small ints cut in C (a box keeps at most 255 entries, whatever its beads); a win changes one
count, and appends an entry only when a block fills; the opponent's move is a `next` on a
`map` over a list's `__getitem__`, all in C; every table is indexed from zero up, which the
interpreter's fast paths for indexing require; the loop's conditional jumps stay short enough
for the interpreter to specialise the comparisons before them. The tables that depend on the
sides' marks and the opponent alone are made once a process; `match_of` keeps a learner's
matches. What a fresh learner makes is made in C: a match's and a plan's tables by position are
gathered from tables by box or by draw (`_box_slots`, `_slots`), and what follows each square
taken from the arrivals by an `itemgetter`. A plan does not hold its match, so that a learner's
tables go when it goes, not at the garbage collector's next full pass over the process.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import cycle, islice, repeat
from operator import attrgetter, call, itemgetter
from typing import Final, NamedTuple, Protocol, cast, runtime_checkable

from reference.beads import BLOCK, ENTRIES, LAST, Box, remove_last
from reference.board import CELLS, EMPTY, O, X
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
from reference.tables import BoxTable, box_table

Step = int
"""Where the game goes on: a position where a MENACE draws, or OVER + the one where it is over."""

OVER: Final = POSITIONS
"""The least step that ends a game: step OVER + p ends it at position p."""

Onward = Iterator[Step]
"""The steps that follow arriving at a position, one per `next`: the opponent's moves in turn."""

Draw = tuple[list[int], list[int], list[int], int, tuple[Onward, ...], Box]
"""What a MENACE draws from at one position: its box's entries, counts and tops, the beads a
win adds to the drawn square, for each square (in the label's frame) what follows it, the box."""


@runtime_checkable
class Learner(Protocol):
    """What the loop needs of a MENACE: its player, its rules and its live boxes, in box order."""

    player: str
    rules: Rules

    @property
    def live_boxes(self) -> list[Box]:
        """Each box, in box order: the boxes themselves, which the loop changes."""


@runtime_checkable
class Person(Protocol):
    """A side that decides each move itself, such as the person at the keyboard."""

    def choose(self, position: PositionId) -> PositionId:
        """The position after this side's move from `position`."""


Side = Learner | Person | OpponentTable
"""One side of a match: a MENACE, a person, or an opponent given as data."""


@cache
def final_results() -> tuple[int, ...]:
    """Each position's `Result` for a game that stops there: a resignation where play goes on."""
    graph = position_graph()
    return tuple(
        int(result) if result is not Result.ONGOING
        else int(Result.O_WINS if board.count(EMPTY) % 2 else Result.X_WINS)
        for board, result in zip(graph.boards, graph.results, strict=False)
    )


def at_once(rules: Rules) -> int:
    """The beads of a drawn square added to its box at the draw: what a win adds (at least none).
    The drawn bead itself stays in the box until the game ends."""
    return max(0, rules.win)


CUT_SHORT: Final = int(Result.ONGOING)
"""The result of a game cut short, for `Match.settle`: none of the drawn beads go back."""


def beads_returned(rules: Rules, player: str) -> list[int]:
    """Beads of each drawn square put back after a game, by the game's Result code (none at
    CUT_SHORT)."""
    returned = [0] * len(Result)
    for outcome in Outcome:
        returned[result_of(player, outcome)] = rules.beads_returned(outcome)
    return returned


FEW: Iterator[int] = iter(())
"""The loop's stream for a box of fewer than two entries: it stops at once, for the rare path."""

NO_DRAW: Draw = ([], [], [], 0, (), Box([0] * len(CELLS)))
"""The draw at a position where no MENACE draws: never made."""

Settle = tuple[Box, list[int], list[int], list[int], list[int]]
"""What the end of a game changes at one position where a MENACE draws: its box, what each
result changes there, and the box's counts, tops and entries."""


class _Hand:
    """A MENACE's side of a match: its player, rules and live boxes, and what each result changes.
    It does not hold the MENACE, which may hold the match (`match_of`): no cycle."""

    def __init__(self, menace: Learner, learner: bool) -> None:
        self.player = menace.player
        self.boxes = menace.live_boxes
        """The MENACE's boxes in box order: the list itself, which the MENACE changes in place."""
        self.learner = learner
        """True for the side whose empty boxes the match counts."""
        rules = menace.rules
        self.at_once = at_once(rules)
        self.change = [returned - 1 - self.at_once
                       for returned in beads_returned(rules, menace.player)]
        """By Result code, the beads of each drawn square still to add when the game ends (the
        drawn bead counted in its box, with `at_once` more); at CUT_SHORT, the drawn bead out."""
        self.table: BoxTable = box_table(menace.player)
        self.rules = rules


class Plan(NamedTuple):
    """A match bound to one generator's draws: what the loop reads, in the order it reads it
    after the match itself (which the plan does not hold, so that the two make no cycle that
    only the garbage collector can free)."""

    opening: Onward
    """The steps that start a game: where the first MENACE to move draws."""
    draw_at: list[Draw]
    """For each position, what its MENACE draws from there, one tuple a lookup (else NO_DRAW)."""
    settles: tuple[bool, ...]
    """For each Result code, True when some MENACE's drawn beads change again at the end."""


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
    rows = enumerate(zip(graph.boards, graph.results, strict=True))
    return tuple(p for p, (board, result) in rows
                 if result is Result.ONGOING and (board.count(EMPTY) % 2 == 1) == odd)


@cache
def _draws_at(player: str) -> tuple[tuple[PositionId, int], ...]:
    """Each position where `player`'s MENACE draws a bead, with the box it draws from."""
    box_at = box_table(player).box_at
    return tuple((p, box_at[p]) for p in _turns(player) if box_at[p] >= 0)


@cache
def _steps(players: tuple[str, ...]) -> tuple[Step, ...]:
    """For each position, the step for arriving there when these players are MENACEs: the
    position, or OVER + the finished one (after a MENACE's forced last move, if it has one)."""
    graph = position_graph()
    steps = [OVER + p if result is not Result.ONGOING else p
             for p, result in enumerate(graph.results)]
    for player in players:
        forced = box_table(player).forced
        for p in _turns(player):
            if forced[p] >= 0:
                steps[p] = OVER + forced[p]  # one square left: the game ends there
    return tuple(steps)


@cache
def _arrivals(players: tuple[str, ...]) -> tuple[Onward, ...]:
    """For each position, its step forever: what follows arriving there when nobody moves from
    there at random. Made once a process and shared (a `repeat` keeps no state)."""
    return tuple(map(repeat, _steps(players)))


@cache
def _draw_rows(player: str) -> tuple[tuple[PositionId, ...], tuple[int, ...],
                                     tuple[tuple[PositionId, ...], ...]]:
    """Where `player`'s MENACE draws: the positions, their boxes, the position after each square."""
    after_bead = box_table(player).after_bead
    draws = _draws_at(player)
    return (tuple(p for p, _ in draws), tuple(box for _, box in draws),
            tuple(after_bead[p] for p, _ in draws))


@cache
def _afters(player: str) -> tuple[Callable[[Sequence[Onward]], tuple[Onward, ...]], ...]:
    """Where `player`'s MENACE draws, in `_draw_rows` order: what takes from the arrivals what
    follows each square, in one call from C."""
    return tuple(itemgetter(*row) for row in _draw_rows(player)[2])


@cache
def _picked_at(players: tuple[str, ...]) -> tuple[int, ...]:
    """For each position, where its arrival is among the shared arrivals followed by those
    where the side that is no MENACE moves: what gathers them in C."""
    index = list(range(POSITIONS))
    for k, p in enumerate(_turns(O if players[0] == X else X)):
        index[p] = POSITIONS + k
    return tuple(index)


@cache
def _slots(players: tuple[str, ...]) -> tuple[int, ...]:
    """For each position, where its draw is among the draws of these players' MENACEs, in turn
    (-1 where none draws): what gathers a table by position from one by draw, in C."""
    slots = [-1] * POSITIONS
    for slot, p in enumerate(p for player in players for p in _draw_rows(player)[0]):
        slots[p] = slot
    return tuple(slots)


@cache
def _box_slots(players: tuple[str, ...]) -> tuple[int, ...]:
    """For each position, where the box drawn from there is among these players' MENACEs'
    boxes, in turn (-1 where none draws): what gathers a table by position from one by box."""
    slots = [-1] * POSITIONS
    first = 0
    for player in players:
        for p, box in _draws_at(player):
            slots[p] = first + box
        first += len(box_table(player).labels)
    return tuple(slots)


class OpponentRows(NamedTuple):
    """Where an opponent given as data moves: the positions, the steps each picks from (a list's
    own `__getitem__`, the cheapest call from C) and how many."""

    positions: tuple[PositionId, ...]
    pickers: tuple[Callable[[int], Step], ...]
    sizes: tuple[int, ...]

_ROWS: dict[tuple[tuple[str, ...], int], tuple[OpponentTable, OpponentRows]] = {}
"""The opponent rows made in this process, by the MENACEs' marks and the table's identity."""

KEPT_TABLES: Final = 16
"""The most opponent tables whose rows are kept."""


def _opponent_rows(players: tuple[str, ...], table: OpponentTable) -> OpponentRows:
    """The steps an opponent given as data picks from, made once a process for each table."""
    key = (players, id(table))
    kept = _ROWS.get(key)
    if kept is not None and kept[0] is table:
        return kept[1]
    step = _steps(players).__getitem__
    positions = _turns(O if players[0] == X else X)
    steps = [list(map(step, table[p])) for p in positions]
    for p, row in zip(positions, steps, strict=True):
        if not row:
            raise ValueError(f"the opponent has no move from position {p}")
    rows = OpponentRows(positions, tuple(row.__getitem__ for row in steps), tuple(map(len, steps)))
    if len(_ROWS) >= KEPT_TABLES:
        del _ROWS[next(iter(_ROWS))]
    _ROWS[key] = (table, rows)
    return rows


class Match:
    """Two sides merged into tables indexed by position: whoever is to move there decides there."""

    def __init__(self, learner: Learner, opponent: Side) -> None:
        """The match of `learner` against `opponent`, who plays the other mark."""
        if isinstance(opponent, Learner) and opponent.player == learner.player:
            raise ValueError(f"a MENACE opponent must play the other mark than {learner.player}")
        first = _Hand(learner, True)
        second = _Hand(opponent, False) if isinstance(opponent, Learner) else None
        self.hands = (first,) if second is None else (first, second)
        self.opponent = opponent
        players = tuple(hand.player for hand in self.hands)
        self.players = players
        """The marks of the MENACEs, the learner's first."""
        self.steps = _steps(players)
        """For each position, the step for arriving there."""
        self._drawn_from: list[list[Box]] = [
            list(map(hand.boxes.__getitem__, _draw_rows(hand.player)[1]))
            for hand in self.hands]
        """For each hand, the box of each position where it draws, in `_draw_rows` order."""
        by_box: list[Settle] = []
        hand_by_box: list[_Hand | None] = []
        for hand in self.hands:
            boxes = hand.boxes
            by_box += zip(boxes, repeat(hand.change), map(attrgetter("counts"), boxes),
                          map(attrgetter("top"), boxes), map(attrgetter("entries"), boxes))
            hand_by_box += [hand] * len(boxes)
        by_box.append((Box([0] * len(CELLS)), [], [], [], []))
        hand_by_box.append(None)
        slots = _box_slots(players)
        self._settle_at: list[Settle] = list(map(by_box.__getitem__, slots))
        """For each position where a MENACE draws, what the end of a game changes there."""
        self._hand_at: list[_Hand | None] = list(map(hand_by_box.__getitem__, slots))
        """For each position, the MENACE that draws there, or None."""
        self._opponent_rows = OpponentRows((), (), ())
        self._asked: list[tuple[PositionId, Person]] = []
        """Each position where a person moves, and the person."""
        if second is None:
            if isinstance(opponent, Person):
                self._asked = [(p, opponent) for p in _turns(O if learner.player == X else X)]
            else:
                self._opponent_rows = _opponent_rows(players, cast(OpponentTable, opponent))
        self._settles = tuple(any(hand.change[r] for hand in self.hands)
                              for r in range(len(Result)))
        self._plan: Plan | None = None
        self._bound: Draws | None = None
        """The draws the plan is bound to."""
        self._arrivals: list[Onward] = []
        """For each position, what follows arriving there, under the plan's draws."""

    def box_at(self, position: PositionId) -> Box:
        """The box the MENACE to move at `position` draws from there (one where a MENACE draws)."""
        return self._settle_at[position][0]

    def plan(self, draws: Draws) -> Plan:
        """The match bound to `draws`, made once and kept for the next call with the same draws."""
        if self._plan is not None and self._bound is draws:
            return self._plan
        arrivals: list[Onward] = list(_arrivals(self.players))
        rows = self._opponent_rows
        if rows.positions:
            below = draws.below_small.__getitem__ if max(rows.sizes) < SMALL else draws.stream
            streams = map(below, rows.sizes)
            picked = [*arrivals, *map(map, rows.pickers, streams)]
            arrivals = list(map(picked.__getitem__, _picked_at(self.players)))
        for p, person in self._asked:
            arrivals[p] = map(_Asker(person, self.steps).step, repeat(p))
        by_draw: list[Draw] = []
        for hand, boxes in zip(self.hands, self._drawn_from, strict=True):
            afters = map(call, _afters(hand.player), repeat(arrivals))
            by_draw += zip(map(attrgetter("entries"), boxes), map(attrgetter("counts"), boxes),
                           map(attrgetter("top"), boxes), repeat(hand.at_once), afters,
                           boxes)  # an illegal square's step: never taken
        by_draw.append(NO_DRAW)
        draw_at = list(map(by_draw.__getitem__, _slots(self.players)))
        self._bound = draws
        self._arrivals = arrivals
        self._plan = Plan(arrivals[0], draw_at, self._settles)
        return self._plan

    def from_few_beads(self, position: PositionId, draws: Draws, empty_boxes: bytearray,
                       results: list[int]) -> tuple[int, Step]:
        """A draw from a box of fewer than two entries, or more than ENTRIES, at `position`,
        made as `Menace.move` makes it.

        A box of one bead: the square, and the position; the bead was taken out, the box refilled
        if the rules say so, and the bead put back until the game ends. An empty box: -1, and the
        step after resigning or a random move; counted in the game's `empty_boxes` if it is the
        learner's. Any other box (its blocks regrouped first if it has too many entries): the
        square drawn, and the position.
        """
        hand, box = self._hand_at[position], self.box_at(position)
        assert hand is not None
        rules = hand.rules
        beads = box.total
        if beads > 1 or len(box.entries) > ENTRIES:
            return box.draw(draws), position
        if beads:
            square = box.draw(draws)
            box.add(square, -1)
            if rules.empty_box is EmptyBox.REFILL:
                empties = hand.table.label_empties[hand.table.box_at[position]]
                for _ in range(rules.refill_beads):
                    box.add(empties[draws.below(len(empties))], 1)
            box.add(square, 1)
            return square, position
        empty_boxes[len(results)] += hand.learner
        if rules.empty_box is EmptyBox.RESIGN:
            return -1, OVER + position
        legal = legal_successors()[position]
        return -1, next(self._arrivals[legal[draws.below(len(legal))]])

    def settle(self, before: list[PositionId], drawn: list[int], last: PositionId,
               result: int) -> None:
        """Give each bead drawn this game, from the last back (`before` leads from each draw to
        the one before it, `drawn` holds its square), what its MENACE's rules return for
        `result` (CUT_SHORT: a game cut short, the beads kept out as `move` leaves them)."""
        settle_at, position = self._settle_at, last
        while position >= 0:
            box, changes, counts, top, entries = settle_at[position]
            change = changes[result]
            if change:  # Box.add, its common cases inline
                square = drawn[position]
                count = counts[square] + change
                if top[square] - top[BLOCK] < count <= top[square]:  # never at shift 0
                    counts[square] = count  # the same entries
                elif top[BLOCK] == 1 and change < 0 and len(entries) + change <= ENTRIES:
                    counts[square] = top[square] = count  # an entry a bead: the square's last go
                    if change > changes[CUT_SHORT]:  # some of those put in at the draw, which
                        del entries[change:]  # are the last of the box's entries
                    else:  # all of them, then the drawn bead's own
                        del entries[len(entries) + change + 1:]
                        remove_last(entries, square)
                else:
                    box.add(square, change)
            position = before[position]


_MATCHES: Final = "_menace_matches"
"""Where a learner keeps its matches: on itself, so they go when it goes."""


def match_of(learner: Learner, opponent: Side) -> Match:
    """The match of `learner` against `opponent`, made once and kept on the learner."""
    kept: dict[int, Match] = vars(learner).setdefault(_MATCHES, {})
    match = kept.get(id(opponent))
    if (match is None or match.opponent is not opponent
            or [hand.rules for hand in match.hands]
            != [learner.rules] + ([opponent.rules] if isinstance(opponent, Learner) else [])):
        match = kept[id(opponent)] = Match(learner, opponent)
    return match


@dataclass(frozen=True)
class Played:
    """What games left: each game's `Result` code, the learner's empty boxes, the last position."""

    results: bytes
    empty_boxes: bytes
    """For each game, how often the learner found a box empty."""
    last_position: PositionId
    """Where the last game stopped: a finished position, or the one where a MENACE resigned
    (-1 when no game was played)."""


def play_games(matches: Sequence[Match], games: int, draws: Draws, *,
               first_game: int = 0) -> Played:
    """Play `games` games, game g as matches[(first_game + g) % len(matches)]; every MENACE learns.

    Every side draws with `draws`. A game cut short by an exception (from a person's side)
    leaves the beads it drew out of their boxes, as MENACE's `move` without `learn` does.
    """
    plans = [(match, *match.plan(draws)) for match in matches]  # a plain tuple: unpacked fastest
    start = first_game % len(plans)
    schedule = islice(cycle((*plans[start:], *plans[:start])), games)
    ends = (0,) * OVER + final_results()  # ends[p] for p = OVER + q is the result at q
    below, last_block, block, over = [FEW, FEW, *draws.below_small[2:], FEW], LAST, BLOCK, OVER
    take, size, few = next, len, (StopIteration, IndexError)  # locals: shorter code, short jumps
    before = [-1] * POSITIONS  # each position a MENACE drew at this game: the draw before, or -1
    drawn = [0] * POSITIONS  # for each position where a MENACE drew this game, the square drawn
    results: list[int] = []
    empty_boxes = bytearray(games)
    p: Step = OVER - 1
    for match, opening, draw_at, settles in schedule:
        last = -1  # where the game's last draw was: none yet
        try:
            p = next(opening)  # a MENACE draws there: no game ends before a draw
            while p < over:  # until the game is over
                entries, counts, top, at_once, after, box = draw_at[p]
                try:  # an entry drawn exactly as Draws.below draws a number below len(entries)
                    e = entries[take(below[size(entries)])]
                except few:  # a bead or none (refill, resign or a random move), an entry too many
                    e, p = match.from_few_beads(p, draws, empty_boxes, results)
                    if e < 0:
                        continue
                if e >= last_block:  # a last block: kept, or drawn again
                    e = box.resolve(e, draws)
                c = counts[e] + at_once  # back in the box at once, with what a win adds
                counts[e] = c
                if c > top[e]:  # more blocks of the square: their entries at the end (Box.grow)
                    t = top[e]
                    while c > t:
                        entries.append(e)
                        t += top[block]
                    top[e] = t
                drawn[p] = e
                before[p] = last
                last = p
                p = take(after[e])
        except BaseException:
            match.settle(before, drawn, last, CUT_SHORT)
            raise
        result = ends[p]
        results.append(result)
        if settles[result]:
            match.settle(before, drawn, last, result)
    return Played(results=bytes(results), empty_boxes=bytes(empty_boxes), last_position=p - OVER)
