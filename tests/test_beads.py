"""Where beads go: put back undoes taking out, and settling a bead put back at once gives what learning gives."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from reference.beads import AT_ONCE, first_of, put_back, settle, take_out
from reference.board import Cell

boxes = st.lists(st.integers(0, 8).map(Cell), min_size=1, max_size=12)


@given(beads=boxes, data=st.data())
def test_putting_back_once_undoes_taking_out(beads: list[Cell], data: st.DataObject) -> None:
    place = data.draw(st.integers(0, len(beads) - 1))
    box = list(beads)
    bead = take_out(box, place)
    assert bead == beads[place] and len(box) == len(beads) - 1
    put_back(box, place, bead, 1)
    assert box == beads


@given(beads=boxes, data=st.data())
def test_the_bead_taken_out_is_the_first_of_the_square_drawn(beads: list[Cell], data: st.DataObject) -> None:
    place = data.draw(st.integers(0, len(beads) - 1))
    first = first_of(beads, place)
    assert first <= place and beads[first] == beads[place] and beads[place] not in beads[:first]


@given(beads=boxes, count=st.integers(0, 5), data=st.data())
def test_settling_gives_what_putting_back_gives(
    beads: list[Cell], count: int, data: st.DataObject,
) -> None:
    place = data.draw(st.integers(0, len(beads) - 1))
    learned, settled = list(beads), list(beads)
    first = first_of(learned, place)
    bead = take_out(learned, first)
    put_back(learned, first, bead, count)
    settled.append(settled[place])  # the game loop: put back at once, with one more
    assert settled == _put_back_at_once(beads, first)
    settle(settled, count)
    assert settled == learned


def _put_back_at_once(beads: list[Cell], place: int) -> list[Cell]:
    """The list after a draw from `place` put back AT_ONCE times by the plain rules."""
    box = list(beads)
    put_back(box, place, take_out(box, place), AT_ONCE)
    return box
