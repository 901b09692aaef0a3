"""MENACE's chance: every number below n equally likely, the same numbers from the same seed."""

from __future__ import annotations

import gc
import random
import weakref
from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from reference.draws import REMAINDERS, SMALL, Draws, draws_from


def test_each_small_remainder_comes_from_equally_many_kept_bytes() -> None:
    for n in range(2, SMALL):
        table, deleted = REMAINDERS[n]
        kept = [b for b in range(256) if b not in deleted]
        assert len(kept) % n == 0 and len(kept) > 256 - n
        assert set(Counter(table[b] for b in kept).values()) == {len(kept) // n}
        assert sorted(table[b] for b in kept)[-1] == n - 1


@given(seed=st.integers(0, 2**32), n=st.integers(1, 10**6))
def test_a_draw_is_below_n_and_the_seed_repeats_it(seed: int, n: int) -> None:
    first = [Draws(random.Random(seed)).below(n) for _ in range(2)]
    again = Draws(random.Random(seed))
    assert first[0] == first[1] == again.below(n)
    assert all(0 <= again.below(n) < n for _ in range(20))


def test_a_stream_draws_what_below_draws() -> None:
    for n in (2, 7, 255, 256, 1000):
        one, other = Draws(random.Random(n)), Draws(random.Random(n))
        stream = one.stream(n)
        assert [next(stream) for _ in range(50)] == [other.below(n) for _ in range(50)]


def test_a_draw_among_one_takes_no_number() -> None:
    rng = random.Random(4)
    state = rng.getstate()
    assert [Draws(rng).below(1) for _ in range(5)] == [0] * 5
    assert rng.getstate() == state


@given(seed=st.integers(0, 2**32), n=st.integers(SMALL, 10**9))
def test_a_large_box_is_drawn_from_as_randrange_draws(seed: int, n: int) -> None:
    assert [Draws(random.Random(seed)).below(n)] == [random.Random(seed).randrange(n)]


def test_one_generator_has_one_draws_which_go_with_it() -> None:
    rng = random.Random(1)
    draws = draws_from(rng)
    assert draws_from(rng) is draws and draws_from(random.Random(1)) is not draws
    gone = weakref.ref(draws)
    del rng, draws
    gc.collect()
    assert gone() is None
