"""A record of the conversation, kept for people, that stays small whatever the program prints.

Lines are as in a transcript: `> ` judge to program, `< ` program to judge, `  (...)` notes.
A run of blank lines from the program is counted, not stored: the first BLANKS_KEPT are kept
as they came, then one note says how many more there were. The first lines are kept whole up
to `head_bytes` of memory; after that only the last lines are (at least `tail_lines` of them,
or as many as `tail_bytes` holds, and never twice that: the tail is cut in batches, so that a
line costs little), and a note stands where the lines in between were cut. A record of the
report's last lines only is one with no head. Memory is counted as Python holds the lines
(`sys.getsizeof`), so a flood of short lines is bounded as well as a few long ones.
"""

from __future__ import annotations

import sys
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Final

BLANKS_KEPT: Final = 2
"""Blank lines of a run kept as they came, before the rest are only counted."""
MARK_TAIL: Final = 16
"""Last lines a bookmark keeps, to show them again after a rewind past the tail."""


REFERENCE: Final = 8
"""Bytes of the reference to a kept line."""


def _size(line: str) -> int:
    """The memory a kept line takes: the string and the reference to it."""
    return sys.getsizeof(line) + REFERENCE


@dataclass(frozen=True)
class Bookmark:
    """Where a record stood: its length, its run of blank lines, and its last lines."""

    count: int
    cut: int
    blanks: int
    hidden: int
    tail: tuple[str, ...]


class Record:
    """Lines of a conversation, blank runs counted and the whole kept within a size."""

    def __init__(self, *, head_bytes: int, tail_lines: int, tail_bytes: int) -> None:
        self.head_bytes = head_bytes
        self.tail_lines = tail_lines
        self.tail_bytes = tail_bytes
        self._head: list[str] = []
        self._head_size = 0
        self._head_open = head_bytes > 0
        """True until a line goes past the head."""
        self._tail: deque[str] = deque()
        self._tail_size = 0
        self._count = 0
        """Lines stored so far, those cut since included."""
        self._cut = 0
        """Lines cut between the head and the tail."""
        self._blanks = 0
        """Blank lines in the run going on."""
        self._hidden = 0
        """Blank lines of that run only counted."""

    # -- adding --------------------------------------------------------------------------

    def append(self, line: str) -> None:
        """Add a line; a blank one past the first BLANKS_KEPT of its run is only counted."""
        if line[:1] == "<" and not line[1:].strip():  # a blank line from the program
            self._blanks += 1
            if self._blanks > BLANKS_KEPT:
                self._hidden += 1
                return
        elif self._blanks:
            hidden, self._blanks, self._hidden = self._hidden, 0, 0
            if hidden:
                self.append(f"  ({hidden:,} more blank lines)")
        size = sys.getsizeof(line) + REFERENCE
        self._count += 1
        if self._head_open:
            if self._head_size + size <= self.head_bytes:
                self._head.append(line)
                self._head_size += size
                return
            self._head_open = False
        tail = self._tail
        tail.append(line)
        self._tail_size += size
        if len(tail) > 2 * self.tail_lines or self._tail_size > 2 * self.tail_bytes:
            self._cut_tail()

    def extend(self, lines: Iterable[str]) -> None:
        """Add lines; with no head, those that would be cut at once are only counted."""
        batch = lines if isinstance(lines, list) else list(lines)
        if not self.head_bytes and len(batch) > self.tail_lines:
            skipped = len(batch) - self.tail_lines
            self._count += skipped + self._hidden
            self._cut += skipped + self._hidden
            self._blanks = self._hidden = 0
            batch = batch[skipped:]
        for line in batch:
            self.append(line)

    def _cut_tail(self) -> None:
        """Cut the oldest lines of the tail down to its size, keeping the newest line."""
        tail = self._tail
        while len(tail) > 1 and (len(tail) > self.tail_lines
                                 or self._tail_size > self.tail_bytes):
            self._tail_size -= _size(tail.popleft())
            self._cut += 1

    # -- reading ---------------------------------------------------------------------------

    def lines(self) -> tuple[str, ...]:
        """The lines kept, with a note where lines were cut and one for a blank run counted.

        Of the tail, the newest lines within its size are shown, whatever the tail holds
        between two cuts: what a record shows depends on its lines, not on how they came (one
        by one, in batches, or again after a rewind), but that a batch past the tail counts a
        run of blank lines among the lines cut."""
        shown = self._shown_tail()
        cut = self._cut + len(self._tail) - len(shown)
        note = (f"  ({cut:,} lines not kept here: the record is kept small)",) if cut else ()
        blanks = (f"  ({self._hidden:,} more blank lines)",) if self._hidden else ()
        return (*self._head, *note, *shown, *blanks)

    def _shown_tail(self) -> list[str]:
        """The newest lines of the tail, at most `tail_lines` of them within `tail_bytes`, and
        always the newest one."""
        shown: list[str] = []
        size = 0
        for line in reversed(self._tail):
            size += _size(line)
            if shown and (len(shown) >= self.tail_lines or size > self.tail_bytes):
                break
            shown.append(line)
        return shown[::-1]

    def __iter__(self) -> Iterator[str]:
        """The lines kept, notes included."""
        return iter(self.lines())

    # -- going back ------------------------------------------------------------------------

    def bookmark(self) -> Bookmark:
        """Where the record stands now."""
        tail = tuple(self._tail)[-MARK_TAIL:] if self._tail else ()
        return Bookmark(self._count, self._cut, self._blanks, self._hidden, tail)

    def rewind(self, mark: Bookmark) -> None:
        """The record as it stood at `mark`: lines added since are taken away (where lines
        were cut since, the tail is as the bookmark kept it)."""
        if mark.count <= len(self._head):
            del self._head[mark.count:]
            self._head_size = sum(map(_size, self._head))
            self._head_open = True
            self._tail.clear()
            self._tail_size = 0
        elif self._count - mark.count <= len(self._tail) and self._cut == mark.cut:
            for _ in range(self._count - mark.count):
                self._tail_size -= _size(self._tail.pop())
        else:
            self._tail = deque(mark.tail)
            self._tail_size = sum(map(_size, self._tail))
        self._count = mark.count
        self._cut = mark.count - len(self._head) - len(self._tail)
        self._blanks, self._hidden = mark.blanks, mark.hidden
