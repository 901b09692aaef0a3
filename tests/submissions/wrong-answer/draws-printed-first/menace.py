"""MENACE that shuffles each box as it prints it, then draws the first bead printed: draws fixed by the printed order."""

import random
import sys

# Each symmetry as a source list: the image of board b is "".join(b[s] for s in source),
# so a bead on square i of a label means square source[i] of the board it was made from.
ROTATE = (6, 3, 0, 7, 4, 1, 8, 5, 2)
MIRROR = (2, 1, 0, 5, 4, 3, 8, 7, 6)
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
ROWS = COLUMNS = "LMR"


def then(first, second):
    """The source list of applying `first`, then `second`."""
    return tuple(first[s] for s in second)


def symmetries():
    """The 8 symmetries of the square, the identity first."""
    turns = [tuple(range(9))]
    for _ in range(3):
        turns.append(then(turns[-1], ROTATE))
    return turns + [then(t, MIRROR) for t in turns]


SYMMETRIES = symmetries()


def image(board, source):
    """The board moved by one symmetry."""
    return "".join(board[s] for s in source)


def label_of(board):
    """The box label of a board (its least image) and the symmetry that carries it there."""
    return min((image(board, s), s) for s in SYMMETRIES)


def winner(board):
    """The mark with three in a row, or None."""
    for a, b, c in LINES:
        if board[a] != "." and board[a] == board[b] == board[c]:
            return board[a]
    return None


def is_over(board):
    """True when someone has three in a row or the board is full."""
    return winner(board) is not None or "." not in board


def empty_squares(board):
    """The empty squares of a board, in cell order."""
    return [c for c in range(9) if board[c] == "."]


def play(board, square, mark):
    """The board with `mark` on `square`."""
    return board[:square] + mark + board[square + 1:]


def needs_box(board):
    """True when MENACE faces a choice on this board: its turn, game on, two squares free."""
    return board.count("X") == board.count("O") and winner(board) is None and board.count(".") >= 2


def all_boxes(rng):
    """The 304 matchboxes, each empty square of a label holding 1 to 4 beads at random."""
    boxes = {}
    seen = set()
    frontier = ["." * 9]
    while frontier:
        board = frontier.pop()
        if board in seen:
            continue
        seen.add(board)
        if needs_box(board):
            label = label_of(board)[0]
            if label not in boxes:
                boxes[label] = [c for c in empty_squares(label) for _ in range(rng.randint(1, 4))]
        if not is_over(board):
            mark = "X" if board.count("X") == board.count("O") else "O"
            frontier.extend(play(board, c, mark) for c in empty_squares(board))
    assert len(boxes) == 304
    return boxes


def print_board(board):
    """Print a board as three lines of three cells."""
    for row in range(3):
        print(" ".join(board[row * 3:row * 3 + 3]))


def print_boxes(boxes, rng):
    """Print every box: its label, then its beads as cell numbers, shuffled in place."""
    for label in sorted(boxes, key=lambda b: (9 - b.count("."), b)):
        rng.shuffle(boxes[label])
        print(label, " ".join(str(bead) for bead in boxes[label]))


def read_line():
    """The next input line, after flushing everything printed so far."""
    sys.stdout.flush()
    line = sys.stdin.readline()
    if not line:
        sys.exit("menace: input ended in the middle of a session")
    return line


def read_move(board):
    """The opponent's move, asked for again until it names an empty square."""
    while True:
        text = read_line().strip().upper()
        if len(text) == 2 and text[0] in ROWS and text[1] in COLUMNS:
            square = ROWS.index(text[0]) * 3 + COLUMNS.index(text[1])
            if board[square] == ".":
                return square
        print(f"not a move onto an empty square: {text!r}", file=sys.stderr)


def menace_move(board, boxes, drawn, rng):
    """MENACE's square: a bead drawn from the board's box, set aside in `drawn`."""
    if board.count(".") == 1:
        return board.index(".")
    label, source = label_of(board)
    beads = boxes[label]
    bead = beads.pop(0)
    if not beads:
        beads.extend(rng.choice(empty_squares(label)) for _ in range(3))
    drawn.append((label, bead))
    return source[bead]


def learn(boxes, drawn, result):
    """Put the drawn beads back: two each after a win, one after a draw, none after a loss."""
    copies = {"X": 2, None: 1, "O": 0}[result]
    for label, bead in drawn:
        boxes[label].extend([bead] * copies)


def play_game(boxes, rng):
    """One game, MENACE moving first; the beads are returned as the game's result says."""
    print("new game")
    board = "." * 9
    drawn = []
    while True:
        board = play(board, menace_move(board, boxes, drawn, rng), "X")
        print_board(board)
        if is_over(board):
            break
        board = play(board, read_move(board), "O")
        print_board(board)
        if is_over(board):
            break
    learn(boxes, drawn, winner(board))
    print_boxes(boxes, rng)


def main():
    """Read N, play N games, print the boxes after each."""
    args = sys.argv[1:]
    rng = random.Random(int(args[1]) if args[:1] == ["--seed"] else None)
    games = int(read_line())
    boxes = all_boxes(rng)
    for _ in range(games):
        play_game(boxes, rng)


main()
