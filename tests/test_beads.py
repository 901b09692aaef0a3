"""A box of counts: entries made from the counts alone, at most 255, and a draw exact to the bead."""

from __future__ import annotations

import random
from bisect import insort
from collections import Counter

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from reference.beads import BLOCK, ENTRIES, LAST, Box, InvalidCountsError, counts_of
from reference.board import CELLS
from reference.draws import Draws

big = st.integers(0, 3) | st.integers(0, 300) | st.integers(0, 10**7)
countings = st.lists(big, min_size=9, max_size=9).filter(any)
"""Nine counts, not all zero: tiny, a few hundred, or millions of beads a square."""

changes = st.lists(st.tuples(st.integers(0, 8), st.integers(-1000, 1000)), max_size=40)


def state(box: Box) -> tuple[list[int], list[int], list[int], int]:
    """Everything a box holds."""
    return list(box.counts), list(box.entries), list(box.top), box.shift


def accepted(box: Box) -> Counter[int]:
    """For one try of a draw, how many (entry, number below 2**shift) pairs give each square."""
    kept: Counter[int] = Counter()
    block = 1 << box.shift
    for entry in box.entries:
        if entry < LAST:
            kept[entry] += block
        else:  # a last block of r beads is kept for numbers 0 to r - 1
            kept[entry - LAST] += (box.counts[entry - LAST] - 1) % block + 1
    return kept


@given(countings)
@example([0, 0, 0, 0, 1, 0, 0, 0, 0])
@example([255, 0, 0, 0, 0, 0, 0, 0, 0])
@example([256, 0, 0, 0, 0, 0, 0, 0, 0])
@example([10**7, 1, 1, 1, 1, 1, 1, 1, 1])
def test_a_try_keeps_each_square_for_exactly_as_many_numbers_as_it_has_beads(counts: list[int]) -> None:
    box = Box(counts)
    assert accepted(box) == +Counter(dict(enumerate(counts)))


@given(countings)
def test_the_entries_are_few_and_the_blocks_the_smallest_that_keep_them_few(counts: list[int]) -> None:
    box = Box(counts)
    assert 1 <= len(box.entries) <= ENTRIES and box.entries == sorted(box.entries)
    assert sum(counts) > ENTRIES or box.shift == 0 and box.entries == list(box.beads())
    if box.shift:
        assert sum(-(-c >> (box.shift - 1)) for c in counts) > ENTRIES
    assert box.top[BLOCK] == 1 << box.shift
    for square in CELLS:
        assert box.top[square] >= counts[square]


@given(countings, changes)
def test_the_entries_depend_on_the_counts_alone_whatever_the_changes(
    counts: list[int], steps: list[tuple[int, int]],
) -> None:
    box = Box(counts)
    for square, beads in steps:
        beads = max(beads, -box.counts[square])
        box.add(square, beads)
        assert state(box) == state(Box(box.counts))


@given(countings, st.lists(st.tuples(st.integers(0, 8), st.integers(1, 5)), max_size=40))
def test_a_count_raised_past_its_top_is_made_whole_by_regroup(
    counts: list[int], steps: list[tuple[int, int]],
) -> None:
    """The game loop adds to a count alone while it stays within its top."""
    box = Box(counts)
    for square, beads in steps:
        if not box.counts[square]:
            continue
        box.counts[square] += beads
        if box.counts[square] > box.top[square]:
            box.regroup(square)
        assert state(box) == state(Box(box.counts))


def test_a_box_drawn_from_with_one_entry_too_many_is_regrouped_first() -> None:
    box = Box([200, 55, 0, 0, 0, 0, 0, 0, 0])
    assert box.shift == 0 and len(box.entries) == ENTRIES
    box.counts[1] += 1  # what the game loop does past a top: one more entry, the top a block up
    insort(box.entries, 1)
    box.top[1] += box.top[BLOCK]
    assert len(box.entries) == ENTRIES + 1
    box.draw(Draws(random.Random(0)))
    assert state(box) == state(Box([200, 56, 0, 0, 0, 0, 0, 0, 0])) and box.shift == 1


def test_counts_that_are_not_nine_whole_numbers_are_refused() -> None:
    for bad in ([1] * 8, [1] * 10, [1, -1, 1, 1, 1, 1, 1, 1, 1], [1.0] * 9, [True] * 9):
        with pytest.raises(InvalidCountsError, match="nine whole numbers"):
            Box(bad)
    box = Box([1] * 9)
    with pytest.raises(ValueError, match="cannot be taken out"):
        box.add(4, -2)
    assert box.counts == [1] * 9


def test_beads_list_every_bead_and_counts_of_counts_them_back() -> None:
    box = Box([2, 0, 0, 0, 1, 0, 0, 0, 3])
    assert box.beads() == (0, 0, 4, 8, 8, 8)
    assert counts_of(box.beads()) == (2, 0, 0, 0, 1, 0, 0, 0, 3) and box.total == 6


def test_draws_from_a_box_of_blocks_follow_the_bead_counts() -> None:
    # 1,000,000 : 3,000 : 1,000 : 7 beads (blocks of 8,192, part-filled last blocks, and a square
    # of 7 beads with only a last block): 200,000 draws. Chi-square with 3 degrees of freedom;
    # 33.4 is its 1-in-a-million tail (false alarm rate 1e-6 unseeded; seeded here).
    counts = [1_000_000, 3_000, 0, 0, 1_000, 0, 0, 0, 7]
    box = Box(counts)
    assert box.shift > 0 and any(entry >= LAST for entry in box.entries)
    draws = Draws(random.Random(8))
    seen = Counter(box.draw(draws) for _ in range(200_000))
    total = sum(counts)
    expected = {c: 200_000 * n / total for c, n in enumerate(counts) if n}
    assert set(seen) <= set(expected)
    assert sum((seen[c] - e) ** 2 / e for c, e in expected.items()) < 33.4
