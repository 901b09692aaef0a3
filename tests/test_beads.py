"""A box of counts: entries made from the counts alone, at most 255, a draw exact to the bead."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from reference.beads import BLOCK, ENTRIES, LAST, SHRINK, Box, InvalidCountsError, counts_of
from reference.draws import Draws

big = st.integers(0, 3) | st.integers(0, 300) | st.integers(0, 10**7)
countings = st.lists(big, min_size=9, max_size=9).filter(any)
"""Nine counts, not all zero: tiny, a few hundred, or millions of beads a square."""

changes = st.lists(st.tuples(st.integers(0, 8), st.integers(-1000, 1000)), max_size=40)


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


def assert_entries_stand_for_the_counts(box: Box) -> None:
    """Each square's blocks but the last, and its last block once blocks hold more than a bead."""
    expected = Counter({square: count if not box.shift else (count - 1) >> box.shift
                        for square, count in enumerate(box.counts) if count})
    if box.shift:
        expected += Counter(LAST + square for square, count in enumerate(box.counts) if count)
    assert Counter(box.entries) == +expected
    assert box.top[BLOCK] == 1 << box.shift
    for square, count in enumerate(box.counts):
        top, block = box.top[square], box.top[BLOCK]
        assert top - block < count <= top or count == top == 0
    assert accepted(box) == +Counter(dict(enumerate(box.counts)))


@given(countings)
@example([0, 0, 0, 0, 1, 0, 0, 0, 0])
@example([255, 0, 0, 0, 0, 0, 0, 0, 0])
@example([256, 0, 0, 0, 0, 0, 0, 0, 0])
@example([10**7, 1, 1, 1, 1, 1, 1, 1, 1])
def test_a_try_keeps_each_square_for_exactly_as_many_numbers_as_it_has_beads(
        counts: list[int]) -> None:
    box = Box(counts)
    assert_entries_stand_for_the_counts(box)


@given(countings)
def test_a_box_starts_with_the_smallest_blocks_that_keep_the_entries_few(counts: list[int]) -> None:
    box = Box(counts)
    assert 1 <= len(box.entries) <= ENTRIES and box.entries == sorted(box.entries)
    assert sum(counts) > ENTRIES or box.shift == 0 and box.entries == list(box.beads())
    if box.shift:
        assert sum(-(-c >> (box.shift - 1)) for c in counts) > ENTRIES


@given(countings, changes, st.data())
@example([1, 0, 0, 0, 0, 0, 0, 0, 0], [(1, 3), (0, -1), (1, -3), (0, 300), (0, -298)], None)
@example([200, 40, 0, 0, 0, 0, 0, 0, 0], [(0, 20), (1, -1), (1, 1), (2, 1), (0, -40)], None)
def test_after_any_changes_the_entries_stand_for_the_counts_and_stay_few(
    counts: list[int], steps: list[tuple[int, int]], data: st.DataObject | None,
) -> None:
    """`grow` (a draw: more beads of a square that has some) and `add` (a game's end), any order."""
    box = Box(counts)
    for square, beads in steps:
        if data is not None and beads > 0 and box.counts[square] and data.draw(st.booleans()):
            box.grow(square, beads)
            assert_entries_stand_for_the_counts(box)
            box.draw(Draws(random.Random(0)))  # regroups a box grown past ENTRIES
        else:
            box.add(square, max(beads, -box.counts[square]))
        assert_entries_stand_for_the_counts(box)
        assert len(box.entries) <= ENTRIES and box.total == sum(box.counts)


def test_a_box_that_lost_most_of_its_beads_gets_smaller_blocks_when_a_draw_rejects_one() -> None:
    box = Box([10_000, 1, 0, 0, 0, 0, 0, 0, 0])
    assert box.shift == 6
    box.add(0, -9_990)  # ten beads left, in blocks of 64: two last blocks, nearly always rejected
    assert box.shift == 6 and box.entries == [LAST, LAST + 1]
    draws = Draws(random.Random(4))
    assert box.draw(draws) in (0, 1)
    assert box.shift == 0 and box.entries == list(box.beads()) == [0] * 10 + [1]
    assert len(Box([200] * 9).entries) > SHRINK  # a fresh box of blocks is never this thin


def test_a_box_drawn_from_with_one_entry_too_many_is_regrouped_first() -> None:
    box = Box([200, 55, 0, 0, 0, 0, 0, 0, 0])
    assert box.shift == 0 and len(box.entries) == ENTRIES
    box.grow(1, 1)  # what the game loop does at a draw: one more entry at the end
    assert len(box.entries) == ENTRIES + 1 and box.entries[-1] == 1
    box.draw(Draws(random.Random(0)))
    fresh = Box([200, 56, 0, 0, 0, 0, 0, 0, 0])
    assert (box.entries, box.top, box.shift) == (fresh.entries, fresh.top, 1)


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
