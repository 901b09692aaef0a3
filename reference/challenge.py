"""The challenge program's session: N games against a person, the boards and boxes (SPEC 3)."""

from __future__ import annotations

from collections.abc import Callable

from reference.board import CELLS, EMPTY_BOARD, Board, Cell, X, play
from reference.console import Console
from reference.loop import Match, play_games
from reference.menace import Menace
from reference.notation import (
    InvalidMoveTextError,
    format_board,
    format_dump,
    move_name,
    parse_move,
)
from reference.numbers import NumberTextError, whole_number
from reference.outcome import Outcome, Tally
from reference.positions import PositionId, Result, outcome_codes, position_graph

MOVE_HELP = (
    "Type a move as two letters from L, M, R: the row (L top, M middle, R bottom), "
    "then the column (L left, M middle, R right). MM is the centre, LL the top left."
)


MAX_GAMES = 1_000_000_000
"""The most games one session can be asked for."""

LEARNING = {
    Outcome.WIN: "MENACE won: each bead it drew goes back with one more of its colour.",
    Outcome.DRAW: "A draw: each bead MENACE drew goes back into its box.",
    Outcome.LOSS: "MENACE lost: the beads it drew stay out of their boxes.",
}


def score_text(score: Tally) -> str:
    """The score as the person reads it: MENACE's wins, theirs, and the draws."""
    return f"MENACE {score.wins}, you {score.losses}, draws {score.draws}"


def read_game_count(console: Console) -> int:
    """The number of games, asked for until a positive whole number comes."""
    while True:
        text = console.ask("How many games do you want to play against MENACE? ")
        try:
            return whole_number(text, 1, MAX_GAMES, "a number of games")
        except NumberTextError as error:
            console.say(f"{error}: type a whole number, e.g. 3")


def read_move(console: Console, board: Board) -> Cell:
    """The person's next move, asked for until it names an empty square."""
    while True:
        text = console.ask("Your move (row then column, e.g. MM): ")
        if not text:
            console.say(f"an empty line is not a move. {MOVE_HELP}")
            continue
        try:
            cell = parse_move(text)
        except InvalidMoveTextError as error:
            console.say(str(error))
            continue
        if board[cell] != ".":
            console.say(f"{text.upper()!r} is taken by {board[cell]}: choose an empty square (.)")
            continue
        return cell


class Player:
    """The person at the console, one side of MENACE's match: shows each board, reads each move."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.board = EMPTY_BOARD
        """The last board shown: after the person's move, or the empty board."""

    def choose(self, position: PositionId) -> PositionId:
        """Show MENACE's move that led to `position`, read the person's: the position after it."""
        graph = position_graph()
        self.show_menace_move(graph.boards[position])
        cell = read_move(self.console, self.board)
        self.board = play(self.board, cell)
        self.console.narrate(f"You play {move_name(cell)}:")
        self.console.show(format_board(self.board))
        return graph.children[position][cell]

    def show_menace_move(self, board: Board) -> None:
        """Show `board`, one move of MENACE's after the last board shown."""
        cell = next(c for c in CELLS if board[c] != self.board[c])
        self.board = board
        self.console.narrate(f"MENACE plays {move_name(cell)}:")
        self.console.show(format_board(board))


def play_game(menace: Menace, player: Player, match: Match) -> tuple[Outcome, Board]:
    """One game of `match`, MENACE moving first, each board shown; MENACE learns; the outcome
    and the board the game ended on."""
    console = player.console
    console.show("new game")
    player.board = EMPTY_BOARD
    played = play_games([match], 1, menace.draws)
    graph = position_graph()
    if graph.results[played.last_position] is Result.ONGOING:
        console.say("MENACE's box for this position is empty: MENACE resigns.")
    elif graph.boards[played.last_position] != player.board:
        player.show_menace_move(graph.boards[played.last_position])
    outcome = Outcome(outcome_codes(menace.player)[played.results[0]])
    console.narrate(f"{LEARNING[outcome]} Its 304 matchboxes now hold (label: the board row by "
                    "row; then its beads: squares 0-8 row by row from the top left):")
    console.show(format_dump(menace.contents()))
    return outcome, graph.boards[played.last_position]


def play_session(
    menace: Menace, console: Console, after_game: Callable[[Tally], None] = lambda score: None
) -> Tally:
    """The whole session: the game count, then that many games; the final score."""
    if console.interactive:
        console.say(f"MENACE plays {X} and moves first. {MOVE_HELP}")
        console.say("After each game MENACE learns and all 304 of its matchboxes are shown.")
    games = read_game_count(console)
    player = Player(console)
    match = Match(menace, player)
    score = Tally()
    for number in range(1, games + 1):
        outcome, final = play_game(menace, player, match)
        score = score.after(outcome)
        said = {Outcome.WIN: "MENACE wins", Outcome.DRAW: "a draw", Outcome.LOSS: "you win"}
        console.narrate(f"The final board of game {number}, shown again below its 304 "
                        f"matchboxes:\n{format_board(final)}")
        console.say(f"Game {number} of {games}: {said[outcome]}. Score: {score_text(score)}.")
        after_game(score)
    console.stdout.flush()
    return score
