"""Training MENACE against opponents, other MENACEs or a pool of both, each game's result kept."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from reference import loop
from reference.board import O, X
from reference.menace import Menace
from reference.positions import OpponentTable, outcome_codes
from reference.study.opponents import (
    defensive_opponent,
    perfect_opponent,
    positional_opponent,
    random_opponent,
)

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
            raise UnknownOpponentError(f"unknown opponent {name!r}: choose from "
                                       f"{', '.join(choices)}")
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


class Training:
    """A learner and its pool of opponents, playing game after game; game g is against pool[g % n].

    Every game is played by the one game loop on the MENACEs' own boxes, so each MENACE is up
    to date after every call of `play`. The matches are kept on the learner (`loop.match_of`),
    so a new Training of the same learner and sides costs next to nothing.
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
        self._matches = [loop.match_of(learner, side) for side in pool]
        self._code = bytes(outcome_codes(learner.player)).ljust(256, b"\0")
        """Each game's Result code as the learner's Outcome, a table for `bytes.translate`."""
        self.played = 0
        """Games played so far."""

    def play(self, games: int) -> Record:
        """Play the next `games` games, every MENACE learning; the learner's record of them."""
        played = loop.play_games(
            self._matches, games, self._learner.draws, first_game=self.played)
        self.played += games
        return Record(results=played.results.translate(self._code), empty_boxes=played.empty_boxes)


def play_games(learner: Menace, pool: Sequence[Side], games: int, *, first_game: int = 0) -> Record:
    """Play `games` games of `learner` against the pool in turn, every MENACE learning; its record.

    Game g (counted from `first_game`) is played against pool[g % len(pool)]. Every side draws
    with the learner's rng.
    """
    training = Training(learner, pool)
    training.played = first_game
    return training.play(games)


def opponent_sides(names: Sequence[str], learner: Menace, rng: random.Random) -> list[Side]:
    """The pool for these names: tables by name, a fresh MENACE of the other player for `menace`."""
    other = O if learner.player == X else X
    return [
        Menace(learner.rules, player=other, rng=rng) if name == SELF_PLAY else OPPONENTS[name]()
        for name in names
    ]
