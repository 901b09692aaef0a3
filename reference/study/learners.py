"""Many independent MENACEs trained side by side: vectorised with numpy, or one by one without."""

from __future__ import annotations

import random
from collections.abc import Sequence

from reference.menace import Menace
from reference.rules import Rules
from reference.study.curves import Curve, curve_from_results
from reference.study.progress import Progress
from reference.study.training import Training, opponent_sides

NUMPY_FROM = 50
"""The fewest learners for which 'auto' picks the vectorised engine (below, pure Python wins)."""


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
    """The curve of `learners` fresh MENACEs, `games` games each against the opponents in turn.

    `engine` is 'numpy' (vectorised), 'python' (one MENACE after another) or 'auto' (numpy if
    installed and there are at least NUMPY_FROM learners). Each learner meeting `menace` in the
    list has its own MENACE opponent.
    """
    if engine not in ("auto", "numpy", "python"):
        raise ValueError(f"unknown engine {engine!r}: choose auto, numpy or python")
    if engine == "numpy" or (engine == "auto" and learners >= NUMPY_FROM and numpy_available()):
        if not numpy_available():  # the engine's module may be loaded already
            raise ImportError("the numpy engine needs numpy (the optional extra 'fast')")
        from reference.study.vectorised import train_vectorised

        return train_vectorised(rules, player, opponents, games, learners, seed, progress)
    return _train_python(rules, player, opponents, games, learners, seed, progress)


def _train_python(
    rules: Rules, player: str, opponents: Sequence[str], games: int, learners: int,
    seed: int | None, progress: Progress | None,
) -> Curve:
    """The pure-Python engine: each learner trained in turn by the single-learner loop.

    The learners are one MENACE (and one of each MENACE opponent) set back to fresh boxes before
    each, drawing from one generator in turn, so that their matches are made once.
    """
    rng = random.Random(seed)
    learner = Menace(rules, player=player, rng=rng)
    pool = opponent_sides(opponents, learner, rng)
    training = Training(learner, pool)
    results, empties = [], []
    dry = 0
    for k in range(learners):
        for side in (learner, *pool):
            if isinstance(side, Menace):
                side.reset()
        training.played = 0
        record = training.play(games)
        results.append(record.results)
        empties.append(record.empty_boxes)
        dry += bool(first_move_boxes_empty(learner))
        if progress is not None:
            progress((k + 1) * games)
    return curve_from_results(results, empties, first_move_dry=dry)


def first_move_boxes_empty(menace: Menace) -> list[str]:
    """The labels of MENACE's boxes for its first move that hold no beads."""
    return [label for label, row in menace.counts().items()
            if not any(row) and label.count(menace.player) == 0]
