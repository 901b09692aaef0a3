"""One meaning of a game's outcome: from a board, from a position's Result, and tallied."""

from __future__ import annotations

from reference.board import O, X
from reference.outcome import Outcome, Tally, outcome_for, outcome_of
from reference.positions import Result, outcome_codes, position_graph, result_of


def test_the_board_and_the_position_graph_agree_on_every_finished_game() -> None:
    graph = position_graph()
    finished = [(b, r) for b, r in zip(graph.boards, graph.results, strict=True)
                if r is not Result.ONGOING]
    assert len(finished) == 958  # the known count of finished games of noughts and crosses
    for player in (X, O):
        codes = outcome_codes(player)
        for board, result in finished:
            outcome = outcome_of(board, player)
            assert codes[result] == outcome
            assert result_of(player, outcome) is result


def test_each_side_sees_the_other_side_of_a_win() -> None:
    assert outcome_for(X, X) is Outcome.WIN and outcome_for(O, X) is Outcome.LOSS
    assert outcome_for(X, None) is outcome_for(O, None) is Outcome.DRAW
    assert [o.word for o in Outcome] == ["win", "draw", "loss"]


def test_a_tally_counts_outcomes_one_by_one_or_from_bytes() -> None:
    run = bytes([Outcome.WIN, Outcome.LOSS, Outcome.DRAW, Outcome.LOSS])
    tally = Tally.of(run)
    assert tally == Tally(wins=1, draws=1, losses=2) and tally.games == 4
    built = Tally()
    for code in run:
        built = built.after(Outcome(code))
    assert built == tally
    assert [tally.count(o) for o in Outcome] == [1, 1, 2]
    assert tally.after(Outcome.WIN, games=3).wins == 4
