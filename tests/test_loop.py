"""The one game loop plays exactly the plain rules' games: same seed, same games, same boxes."""

from __future__ import annotations

import gc
import io
import random
import weakref
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.board import (
    EMPTY_BOARD,
    Board,
    Cell,
    O,
    X,
    is_over,
    legal_moves,
    play,
    to_move,
)
from reference.challenge import play_session
from reference.console import Console
from reference.draws import draws_from
from reference.loop import Match, final_results, play_games
from reference.menace import Menace, initial_contents
from reference.notation import format_board, format_dump, move_name
from reference.outcome import Outcome, outcome_of
from reference.positions import OpponentTable, Result, legal_successors, position_graph
from reference.rules import CHALLENGE, MICHIE, EmptyBox, Rules
from reference.study.evaluation import frozen_rules
from reference.study.opponents import perfect_opponent, positional_opponent

RULES = {
    "challenge": CHALLENGE,
    "michie": MICHIE,
    "random from an empty box": Rules(initial_beads=(1, 1, 1, 1), loss=-1,
                                      empty_box=EmptyBox.RANDOM),
    "frozen (evaluation)": frozen_rules(CHALLENGE),
    "two beads back": Rules(win=3, draw=1, refill_beads=1),
    "a draw worth more than a win": Rules(win=0, draw=3, loss=-1),
    "boxes of blocks": Rules(initial_beads=(1000, 999, 250, 2), win=1000, draw=3, loss=-1,
                             empty_box=EmptyBox.RESIGN),
}
"""Rule sets; the last starts most boxes with blocks of beads and adds 1,000 beads a win, so
boxes change their blocks, keep last blocks that draws reject, and grow past 255 entries at once."""
TABLES = {"legal moves": legal_successors, "perfect": perfect_opponent,
          "positional": positional_opponent}


def plain_game(x: Menace | OpponentTable, o: Menace | OpponentTable, rng: random.Random) -> int:
    """One game by the plain rules: `Menace.move` and `learn`, opponents picking with `rng`."""
    graph = position_graph()
    board, resigned = EMPTY_BOARD, None
    while not is_over(board):
        side = x if to_move(board) == X else o
        if isinstance(side, Menace):
            cell = side.move(board)
            if cell is None:
                resigned = side.player
                break
            board = play(board, cell)
        else:
            row = side[graph.index[board]]
            board = graph.boards[row[draws_from(rng).below(len(row))]]
    result = (Result.O_WINS if resigned == X else Result.X_WINS) if resigned else (
        final_results()[graph.index[board]])
    for side in (x, o):
        if isinstance(side, Menace):
            side.learn(outcome_of(board, side.player) if resigned is None else
                       Outcome.LOSS if resigned == side.player else Outcome.WIN)
    return int(result)


def rival(learner: Menace, name: str, rng: random.Random) -> Menace | OpponentTable:
    """The learner's opponent: another MENACE sharing its rng, or a table by name."""
    other = O if learner.player == X else X
    return Menace(learner.rules, player=other, rng=rng) if name == "menace" else TABLES[name]()


def play_both_ways(seed: int, rules: str, player: str, opponent: str, games: int) -> list[object]:
    """Each game's Result, every MENACE's boxes, the next numbers drawn: by loop, then plainly."""
    runs: list[object] = []
    for fast in (True, False):
        rng = random.Random(seed)
        learner = Menace(RULES[rules], player=player, rng=rng)
        other = rival(learner, opponent, rng)
        x, o = (learner, other) if player == X else (other, learner)
        if fast:
            results = list(play_games([Match(learner, other)], games, learner.draws).results)
        else:
            results = [plain_game(x, o, rng) for _ in range(games)]
        boxes = [side.contents() for side in (x, o) if isinstance(side, Menace)]
        draws = draws_from(rng)
        runs.append((results, boxes, draws.below(7), draws.below(1000), rng.random()))
    return runs


@pytest.mark.e2e
@settings(max_examples=25)
@given(seed=st.integers(0, 2**32 - 1), rules=st.sampled_from(sorted(RULES)),
       player=st.sampled_from((X, O)), opponent=st.sampled_from(sorted(TABLES) + ["menace"]),
       games=st.integers(1, 60))
def test_the_loop_plays_the_games_of_the_plain_rules(
    seed: int, rules: str, player: str, opponent: str, games: int,
) -> None:
    fast, plain = play_both_ways(seed, rules, player, opponent, games)
    assert fast == plain


@pytest.mark.parametrize(("rules", "player", "opponent"), [
    ("michie", X, "menace"), ("michie", O, "perfect"), ("random from an empty box", O, "menace"),
    ("challenge", X, "menace"), ("boxes of blocks", X, "legal moves"),
    ("boxes of blocks", O, "menace"),
    ("a draw worth more than a win", X, "legal moves"),
])
def test_long_runs_with_resignations_refills_and_empty_boxes_play_the_same(
    rules: str, player: str, opponent: str,
) -> None:
    fast, plain = play_both_ways(2026, rules, player, opponent, 400)
    assert fast == plain
    results = fast[0]
    assert isinstance(results, list) and len(set(results)) >= 2


def test_a_pool_is_played_in_turn_and_resumes_where_it_stopped() -> None:
    def run(chunks: Sequence[int]) -> tuple[bytes, dict[Board, tuple[Cell, ...]]]:
        rng = random.Random(5)
        learner = Menace(rng=rng)
        matches = [Match(learner, perfect_opponent()), Match(learner, Menace(player=O, rng=rng))]
        played, results = 0, b""
        for games in chunks:
            results += play_games(matches, games, learner.draws, first_game=played).results
            played += games
        return results, learner.contents()

    assert run([300]) == run([101, 1, 198])
    rng = random.Random(5)
    learner = Menace(rng=rng)
    alone = play_games([Match(learner, perfect_opponent())], 1, learner.draws).results
    assert run([1])[0] == alone


def test_empty_boxes_met_by_the_learner_are_counted_game_by_game() -> None:
    contents = {label: list(beads) for label, beads in initial_contents(MICHIE).items()}
    contents[EMPTY_BOARD] = []
    menace = Menace(MICHIE, rng=random.Random(3), contents=contents)
    played = play_games([Match(menace, legal_successors())], 7, menace.draws)
    assert played.empty_boxes == bytes([1] * 7) and set(played.results) == {Result.O_WINS}
    assert played.last_position == 0


def test_a_learner_its_matches_and_their_plans_go_without_the_garbage_collector() -> None:
    menace = Menace(MICHIE, rng=random.Random(1))
    match = Match(menace, legal_successors())
    play_games([match], 20, menace.draws)
    menace.train(perfect_opponent(), 20)  # a match kept on the learner (match_of)
    gone = weakref.ref(match), weakref.ref(menace)
    enabled = gc.isenabled()
    gc.disable()
    try:
        del match, menace
        assert [ref() for ref in gone] == [None, None]
    finally:
        if enabled:
            gc.enable()


def test_a_menace_opponent_must_play_the_other_mark() -> None:
    with pytest.raises(ValueError, match="other mark"):
        Match(Menace(), Menace())


class Typist:
    """A person who types a random legal move, the same one for the same seed and board."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def move(self, board: Board) -> Cell:
        """The move for this board."""
        return self.rng.choice(legal_moves(board))


def plain_session(menace: Menace, typist: Typist, games: int) -> str:
    """The challenge's transcript by the plain rules, as the program printed it before the loop."""
    lines = []
    for _ in range(games):
        lines.append("new game")
        board = EMPTY_BOARD
        while True:
            cell = menace.move(board)
            assert cell is not None
            board = play(board, cell)
            lines.append(format_board(board))
            if is_over(board):
                break
            board = play(board, typist.move(board))
            lines.append(format_board(board))
            if is_over(board):
                break
        menace.learn(outcome_of(board, X))
        lines.append(format_dump(menace.contents()))
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("seed", [0, 7, 11])
def test_the_challenge_prints_the_transcript_of_the_plain_rules(seed: int) -> None:
    games = 12
    typist = Typist(seed)
    moves: list[str] = []

    class Keyboard(io.StringIO):
        """Stdin that answers the game count, then each move for the board last shown."""

        def readline(self, size: int | None = -1) -> str:
            if not moves:
                moves.append("count")
                return f"{games}\n"
            board = position_graph().boards[0] if len(out.getvalue()) == 0 else last_board()
            moves.append(move_name(typist.move(board)))
            return moves[-1] + "\n"

    def last_board() -> Board:
        rows = out.getvalue().splitlines()[-3:]
        return "".join(row.replace(" ", "") for row in rows)

    out = io.StringIO()
    play_session(Menace(rng=random.Random(seed)), Console(Keyboard(), out, io.StringIO(),
                                                          interactive=False))
    expected = plain_session(Menace(rng=random.Random(seed)), Typist(seed), games)
    assert out.getvalue() == expected


class Quit(Exception):
    """A person leaving in the middle of a game."""


class Quitter:
    """A person who types the legal move a seed picks, and leaves at their `stop`-th move."""

    def __init__(self, seed: int, stop: int) -> None:
        self.rng, self.stop, self.moves = random.Random(seed), stop, 0

    def move(self, board: Board) -> Cell:
        """The move for this board, unless it is time to leave."""
        if self.moves == self.stop:
            raise Quit
        self.moves += 1
        return self.rng.choice(legal_moves(board))

    def choose(self, position: int) -> int:
        """The position after this person's move (as a side of a match)."""
        graph = position_graph()
        return graph.index[play(graph.boards[position], self.move(graph.boards[position]))]


@pytest.mark.parametrize(("seed", "stop"), [(0, 0), (1, 1), (2, 2), (3, 3)])
def test_a_game_cut_short_leaves_the_drawn_beads_out_as_move_does(seed: int, stop: int) -> None:
    contents = {label: list(beads) for label, beads in initial_contents().items()}
    contents[EMPTY_BOARD] = [4]  # the first draw empties the box: the refill's path
    fast = Menace(rng=random.Random(seed), contents=contents)
    with pytest.raises(Quit):
        play_games([Match(fast, Quitter(seed, stop))], 1, fast.draws)
    plain = Menace(rng=random.Random(seed), contents=contents)
    person, board = Quitter(seed, stop), EMPTY_BOARD
    with pytest.raises(Quit):
        while True:
            cell = plain.move(board)
            assert cell is not None
            board = play(board, cell)
            board = play(board, person.move(board))
    assert fast.contents() == plain.contents()
