"""The record of a conversation: blank runs counted, not stored; a head and a tail kept within
their sizes with a note where lines were cut; and a rewind that shows it as it stood."""

from __future__ import annotations

import sys

from hypothesis import given
from hypothesis import strategies as st

from judge.reading.record import BLANKS_KEPT, Record


def big() -> Record:
    """A record that never cuts."""
    return Record(head_bytes=1 << 30, tail_lines=1 << 20, tail_bytes=1 << 30)


def test_a_run_of_blank_lines_keeps_two_and_counts_the_rest() -> None:
    record = big()
    record.extend(["< new game", *["< "] * 1000, "<    ", "< X . .", "> LL", "< ", "< "])
    assert record.lines() == ("< new game", "< ", "< ", "  (999 more blank lines)", "< X . .",
                              "> LL", "< ", "< ")
    record.extend(["< \t"] * 5)
    assert record.lines()[-1] == "  (5 more blank lines)"  # the run still going on
    assert BLANKS_KEPT == 2


def test_past_the_head_only_the_tail_is_kept_after_a_note() -> None:
    line_size = sys.getsizeof("< line 0000") + 8
    record = Record(head_bytes=10 * line_size, tail_lines=5, tail_bytes=1 << 20)
    record.extend([f"< line {n:04}" for n in range(100)])
    lines = record.lines()
    assert lines[:10] == tuple(f"< line {n:04}" for n in range(10))
    assert lines[10].startswith("  (") and "lines not kept here" in lines[10]
    cut = int(lines[10][3:].split()[0])
    assert lines[-1] == "< line 0099" and 5 <= len(lines) - 11 <= 10
    assert 10 + cut + len(lines) - 11 == 100  # every line kept or counted


def test_the_tail_holds_its_bytes_but_always_the_newest_line() -> None:
    record = Record(head_bytes=0, tail_lines=16, tail_bytes=1 << 20)
    record.extend(["< " + "-" * (1 << 19)] * 50)
    kept = record.lines()[1:]
    assert sum(sys.getsizeof(line) for line in kept) <= 2 << 20
    record.append("< " + "x" * (3 << 20))
    assert record.lines()[-1].startswith("< xxx")


def test_the_memory_of_a_flood_stays_within_twice_the_caps() -> None:
    record = Record(head_bytes=1 << 20, tail_lines=1000, tail_bytes=1 << 20)
    for n in range(200_000):
        record.append(f"< {n}")
    kept = record.lines()
    assert sum(sys.getsizeof(line) + 8 for line in kept) <= 3 << 20
    assert kept[-1] == "< 199999"


def test_a_rewind_in_the_head_takes_back_what_came_since() -> None:
    record = big()
    record.extend(["> 3", "< new game", "< "])
    mark = record.bookmark()
    before = record.lines()
    record.extend(["< ", "< ", "< ", "< X . .", "> LL"])
    record.rewind(mark)
    assert record.lines() == before
    record.extend(["< ", "< ", "< x"])
    assert record.lines() == (*before, "< ", "  (1 more blank lines)", "< x")


def test_a_rewind_past_a_cut_shows_the_last_lines_as_they_stood() -> None:
    record = Record(head_bytes=0, tail_lines=4, tail_bytes=1 << 20)
    record.extend([f"< {n}" for n in range(10)])
    mark = record.bookmark()
    before = record.lines()
    record.extend([f"< {n}" for n in range(10, 30)])  # the tail then has none of them
    record.rewind(mark)
    assert record.lines() == before


@given(st.lists(st.sampled_from(["< ", "< x", "> LL", "<  "]), max_size=40),
       st.lists(st.sampled_from(["< ", "< y", "> MM"]), max_size=40))
def test_a_rewind_restores_exactly_what_a_record_that_never_cuts_showed(
        first: list[str], then: list[str]) -> None:
    record = big()
    record.extend(first)
    mark, before = record.bookmark(), record.lines()
    record.extend(then)
    record.rewind(mark)
    assert record.lines() == before
    fresh = big()
    fresh.extend(first + then)
    record.extend(then)
    assert record.lines() == fresh.lines()


@given(st.lists(st.sampled_from(["< x", "> LL", "< " + "y" * 300, "< z"]), max_size=120),
       st.lists(st.integers(1, 40), max_size=12))
def test_a_record_shows_the_same_whether_its_lines_come_one_by_one_or_in_batches(
        lines: list[str], cuts: list[int]) -> None:
    """So the report's last lines do not depend on how the program's output was read (a batch
    past the tail counts a run of blank lines among the lines cut, not as blank lines)."""
    def record() -> Record:
        return Record(head_bytes=0, tail_lines=6, tail_bytes=2_000)

    one_by_one, batched = record(), record()
    for line in lines:
        one_by_one.append(line)
    start = 0
    for size in cuts:
        batched.extend(lines[start:start + size])
        start += size
    batched.extend(lines[start:])
    assert batched.lines() == one_by_one.lines()
