"""Hypothesis's shrinker over candidate runs, loaded only when a rejection is shrunk.

A candidate is drawn as a choice sequence: the game count, then each game's script length and
squares. The smallest failing run found so far is saved in an example database under the
secondary key (replayed, then shrunk; the primary corpus counts as already shrunk), and
hypothesis deletes games, shortens scripts and lowers squares while `fails` holds.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from hypothesis import HealthCheck, Phase, find, settings
from hypothesis import strategies as st
from hypothesis.database import InMemoryExampleDatabase, choices_to_bytes
from hypothesis.errors import HypothesisException

from judge.deciding.opponents import Choices

MOST_O_MOVES: Final = 4
"""O moves at most four times in a game, MENACE moving first."""
DATABASE_KEY: Final = b"menace-judge-shrink"


def _encoded(choices: Choices) -> list[int]:
    """A candidate as the choice sequence `_candidates` draws it from."""
    sequence = [len(choices)]
    for game in choices:
        script = list(game)[:MOST_O_MOVES]
        sequence += [len(script), *(min(c, 8) for c in script)]
    return sequence


@st.composite
def _candidates(draw: st.DrawFn, most_games: int) -> Choices:
    """Candidates of at most `most_games` games, drawn so that hypothesis shrinks them well."""
    games = []
    for _ in range(draw(st.integers(0, most_games))):
        length = draw(st.integers(0, MOST_O_MOVES))
        games.append(tuple(draw(st.integers(0, 8)) for _ in range(length)))
    return tuple(games)


def shrink_with_hypothesis(fails: Callable[[Choices], bool], start: Choices) -> None:
    """Let hypothesis's shrinker simplify `start`, known to fail, by `fails` on each candidate."""
    database = InMemoryExampleDatabase()
    # The secondary corpus is replayed and then shrunk (the primary one counts as shrunk).
    database.save(DATABASE_KEY + b".secondary", choices_to_bytes(_encoded(start)))
    config = settings(database=database, phases=[Phase.reuse, Phase.shrink], deadline=None,
                      derandomize=False, max_examples=1_000_000,
                      suppress_health_check=list(HealthCheck), report_multiple_bugs=False)
    try:
        find(_candidates(len(start)), fails, settings=config, database_key=DATABASE_KEY)
    except HypothesisException:
        pass  # no better candidate, or the program was not repeatable: `fails` saw them all
