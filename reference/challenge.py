"""The challenge program's session: N games against a person, boards and boxes after each (SPEC 3)."""

from __future__ import annotations

from collections.abc import Callable

from reference.board import EMPTY_BOARD, X, Board, Cell, is_over, play
from reference.console import Console
from reference.menace import Menace
from reference.numbers import NumberTextError, whole_number
from reference.notation import (
    InvalidMoveTextError, format_board, format_dump, move_name, parse_move,
)
from reference.outcome import Outcome, Tally, outcome_of

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


def outcome_for(menace: Menace, board: Board, resigned: bool) -> Outcome:
    """How the game on `board` ended for MENACE."""
    return Outcome.LOSS if resigned else outcome_of(board, menace.player)


def play_game(menace: Menace, console: Console) -> Outcome:
    """One game, MENACE moving first, each board shown; MENACE learns; the outcome."""
    console.show("new game")
    board = EMPTY_BOARD
    resigned = False
    while True:
        cell = menace.move(board)
        if cell is None:
            console.say("MENACE's box for this position is empty: MENACE resigns.")
            resigned = True
            break
        board = play(board, cell)
        console.narrate(f"MENACE plays {move_name(cell)}:")
        console.show(format_board(board))
        if is_over(board):
            break
        mine = read_move(console, board)
        board = play(board, mine)
        console.narrate(f"You play {move_name(mine)}:")
        console.show(format_board(board))
        if is_over(board):
            break
    outcome = outcome_for(menace, board, resigned)
    menace.learn(outcome)
    console.narrate(f"{LEARNING[outcome]} Its 304 matchboxes now hold (label: the board row by "
                    "row; then its beads: squares 0-8 row by row from the top left):")
    console.show(format_dump(menace.contents()))
    return outcome


def play_session(
    menace: Menace, console: Console, after_game: Callable[[Tally], None] = lambda score: None
) -> Tally:
    """The whole session: the game count, then that many games; the final score."""
    if console.interactive:
        console.say(f"MENACE plays {X} and moves first. {MOVE_HELP}")
        console.say("After each game MENACE learns and all 304 of its matchboxes are shown.")
    games = read_game_count(console)
    score = Tally()
    for number in range(1, games + 1):
        outcome = play_game(menace, console)
        score = score.after(outcome)
        said = {Outcome.WIN: "MENACE wins", Outcome.DRAW: "a draw", Outcome.LOSS: "you win"}
        console.say(f"Game {number} of {games}: {said[outcome]}. Score: {score_text(score)}.")
        after_game(score)
    console.stdout.flush()
    return score
