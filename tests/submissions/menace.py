"""MENACE, Donald Michie's matchbox machine, playing X against a person on stdin/stdout.

Run as it is, the canonical program of SPEC section 6: canonical boards and dump, a flush before
every read, and `--seed N` for a reproducible run. Each box starts with 1 to 4 beads of each
empty square, at random. `--fault NAME` (given once or more) changes one behaviour each, as
FAULTS lists: a fault the judge must catch, or a variation it must accept. The fixture folders
under tests/submissions/ name theirs in their manifest's command; every change a fault makes is
a branch under `fault("NAME")`. `--after N` is the last game before the after-game fault (30).
"""

import os
import random
import sys
import time

FAULTS = frozenset({
    # variations the judge accepts
    "challenge-drawings", "one-line-boards", "spaces-one-line-boards", "symbols-in-labels",
    "hash-empty-pipes", "spaces-rows", "spaces-spaced-rows", "list-boards", "nested-list-boards",
    "lowercase-marks", "blank-line-after-boards", "prompts-on-stderr", "greatest-image-labels",
    "shuffled-dumps", "random-orientation-labels", "new-frame-every-dump", "beads-one-to-nine",
    "beads-as-letters", "unlabelled-dump", "digit-moves", "one-bead-boxes", "refill-on-draw",
    "no-flush", "draws-with-numpy",
    # faults
    "reads-all-input-first", "busy-before-second-move", "303-boxes",
    "box-repeated-under-symmetry", "illegal-bead", "empty-box", "learning-win", "learning-draw",
    "learning-loss", "dump-before-learning", "refill-two-beads", "refills-lowest-square",
    "skips-last-bead", "reseeds-every-game", "uniform-over-squares", "always-most-frequent",
    "illegal-menace-move", "wrong-board-after-opponent", "board-not-cleared", "missing-new-game",
    "one-game-too-many", "move-after-game-over", "one-game-too-few", "leaves-child-process",
    "hangs-after-last-game", "crash-mid-game", "exit-nonzero", "closes-stdin", "closes-stdout",
    "closes-its-terminal", "floods-output", "hoards-memory", "binary-garbage",
    "draws-front-half", "draws-printed-first", "refills-pair-and-one", "draws-alternate-places",
    "uniform-after-corner", "uniform-in-bursts", "uniform-every-third-game",
    "takes-wins-and-blocks",
    # faults whose reports carry a hint (tests/test_hints.py)
    "boxes-when-met", "beads-a-to-i", "misses-a-diagonal", "slow-start",
    # faults that show late, or only in some positions, for the shrinker (tests/test_shrink.py)
    "fourth-move", "after-refill", "one-symmetry", "one-diagonal", "after-game", "unseeded",
    "unlucky-game",
    # faults whose fixtures' reports are asserted line by line ([expected] fact and hint)
    "box-for-every-image", "box-for-the-last-square", "never-refills", "beads-run-into-label",
    "unlabelled-one-line-spaced", "boxes-miss-a-diagonal", "win-adds-three",
    "learns-in-board-frame", "move-adds-no-x",
})


def chosen_faults(args):
    """The faults named by `--fault NAME` in the arguments; an unknown one ends the program."""
    names = {args[i + 1] if i + 1 < len(args) else "" for i, arg in enumerate(args)
             if arg == "--fault"}
    unknown = sorted(names - FAULTS)
    if unknown:
        sys.exit(f"menace: no fault named {unknown[0]!r} (FAULTS in menace.py lists them)")
    return frozenset(names)


ARGS = sys.argv[1:]
CHOSEN = chosen_faults(ARGS)
SEED = int(ARGS[ARGS.index("--seed") + 1]) if "--seed" in ARGS else None
AFTER = int(ARGS[ARGS.index("--after") + 1]) if "--after" in ARGS else 30
"""The last game before the after-game fault."""


def fault(name):
    """True when the fault `name` is switched on."""
    assert name in FAULTS, name
    return name in CHOSEN


NUMPY = __import__("numpy").random.default_rng(SEED) if fault("draws-with-numpy") else None
"""numpy's generator, which draws every bead (draws-with-numpy): an installed package imported."""

# Each symmetry as a source list: the image of board b is "".join(b[s] for s in source),
# so a bead on square i of a label means square source[i] of the board it was made from.
ROTATE = (6, 3, 0, 7, 4, 1, 8, 5, 2)
MIRROR = (2, 1, 0, 5, 4, 3, 8, 7, 6)
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
ROWS = COLUMNS = "LMR"
INPUT = iter(sys.stdin.readlines() if fault("reads-all-input-first") else [])
"""The whole input, read at the start (reads-all-input-first)."""
GRID = ["."] * 9
"""Every mark printed so far, never cleared (board-not-cleared)."""
ORIENTATIONS = {}
"""The orientation each box is printed in, chosen at its first dump (random-orientation-labels)."""
HISTORY = []
"""Ten gigabytes kept for nothing (hoards-memory)."""


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
    images = ((image(board, s), s) for s in SYMMETRIES)
    return max(images) if fault("greatest-image-labels") else min(images)


def winner(board, lines=LINES):
    """The mark with three in a row on one of `lines`, or None."""
    for a, b, c in lines:
        if board[a] != "." and board[a] == board[b] == board[c]:
            return board[a]
    return None


def is_over(board, lines=LINES):
    """True when someone has three in a row (on one of `lines`) or the board is full."""
    return winner(board, lines) is not None or "." not in board


def empty_squares(board):
    """The empty squares of a board, in cell order."""
    return [c for c in range(9) if board[c] == "."]


def play(board, square, mark):
    """The board with `mark` on `square`."""
    return board[:square] + mark + board[square + 1:]


def needs_box(board, lines=LINES):
    """True when MENACE faces a choice on this board: its turn, game on, two squares free."""
    return (board.count("X") == board.count("O") and winner(board, lines) is None
            and board.count(".") >= 2)


def first_beads(label, rng):
    """The beads a box starts with: 1 to 4 of each empty square, at random."""
    if fault("one-bead-boxes"):
        return [rng.choice(empty_squares(label))]
    beads = [c for c in empty_squares(label) for _ in range(rng.randint(1, 4))]
    return [rng.choice(empty_squares(label))] if fault("after-refill") else beads


class WhenMet(dict):
    """Boxes made the first time their board is met (a box is printed once it exists)."""

    def __init__(self, made):
        super().__init__()
        self.made = made

    def __getitem__(self, label):
        if label not in self:
            self[label] = self.made[label]
        return super().__getitem__(label)


def all_boxes(rng):
    """The 304 matchboxes, each with its first beads."""
    boxes = {}
    seen = set()
    frontier = ["." * 9]
    lines = LINES[:-1] if fault("boxes-miss-a-diagonal") else LINES
    while frontier:
        board = frontier.pop()
        if board in seen:
            continue
        seen.add(board)
        if needs_box(board, lines):
            label = board if fault("box-for-every-image") else label_of(board)[0]
            if label not in boxes:
                boxes[label] = first_beads(label, rng)
        if not is_over(board, lines):
            mark = "X" if board.count("X") == board.count("O") else "O"
            frontier.extend(play(board, c, mark) for c in empty_squares(board))
    if fault("box-for-every-image") or fault("boxes-miss-a-diagonal"):
        return boxes
    assert len(boxes) == 304
    if fault("boxes-when-met"):
        return WhenMet(boxes)
    if fault("empty-box"):
        boxes[max(boxes)] = []
    if fault("illegal-bead"):
        rare = max(boxes)
        boxes[rare].append(rare.index("X"))
    return boxes


def rows(board):
    """The three rows of a board, top first."""
    return [board[row * 3:row * 3 + 3] for row in range(3)]


def board_text(board):
    """A board as printed: three lines of three cells, spaced."""
    if fault("one-line-boards"):
        return board
    if fault("spaces-one-line-boards"):
        return board.replace(".", " ")
    if fault("list-boards"):
        return str([" " if cell == "." else cell for cell in board])
    if fault("nested-list-boards"):
        return str([[" " if cell == "." else cell for cell in row] for row in rows(board)])
    if fault("challenge-drawings"):
        cells = [row.replace("O", "0").replace(".", " ") for row in rows(board)]
        return "\n".join(["-------", *("|" + "|".join(row) + "|" for row in cells), "-------"])
    if fault("hash-empty-pipes"):
        lines = ["|".join(row).replace(".", "#") for row in rows(board)]
    elif fault("spaces-rows"):
        lines = [row.replace(".", " ") for row in rows(board)]
    elif fault("spaces-spaced-rows"):
        lines = [" ".join(row).replace(".", " ") for row in rows(board)]
    elif fault("lowercase-marks"):
        lines = [" ".join(row).lower().replace(".", "-") for row in rows(board)]
    elif fault("symbols-in-labels"):
        lines = [" ".join(row).replace(".", "_").replace("O", "0") for row in rows(board)]
    else:
        lines = [" ".join(row) for row in rows(board)]
    return "\n".join(lines)


def print_board(board):
    """Print a board, and after it a blank line where a fault asks for one."""
    if fault("board-not-cleared"):
        for square in range(9):
            if board[square] != ".":
                GRID[square] = board[square]
        board = "".join(GRID)
    print(board_text(board))
    if fault("blank-line-after-boards"):
        print()


def box_line(label, beads, rng):
    """A box's line in the dump: its label, then its beads as cell numbers in increasing order."""
    if fault("shuffled-dumps"):
        beads = rng.sample(beads, len(beads))
    elif fault("draws-printed-first"):
        rng.shuffle(beads)  # in the box itself: its next draw takes the first bead printed
    elif fault("new-frame-every-dump"):
        source = rng.choice(SYMMETRIES)
        label, beads = image(label, source), [source.index(bead) for bead in beads]
    elif fault("random-orientation-labels"):
        if label not in ORIENTATIONS:
            ORIENTATIONS[label] = rng.choice(SYMMETRIES)
        source = ORIENTATIONS[label]
        label, beads = image(label, source), sorted(source.index(bead) for bead in beads)
    else:
        beads = sorted(beads)
    if fault("symbols-in-labels"):
        label = label.replace(".", "_").replace("O", "0")
    if fault("beads-as-letters"):
        return label, " ".join(ROWS[bead // 3] + COLUMNS[bead % 3] for bead in beads)
    if fault("beads-a-to-i"):
        return label, " ".join("abcdefghi"[bead] for bead in beads)
    if fault("beads-one-to-nine"):
        return label, " ".join(str(bead + 1) for bead in beads)
    if fault("beads-run-into-label"):
        return (label + "".join(str(bead) for bead in beads),)
    return label, " ".join(str(bead) for bead in beads)


def print_boxes(boxes, rng):
    """Print every box, one line each, fewest marks first."""
    labels = sorted(boxes, key=lambda b: (9 - b.count("."), b))
    if fault("unlabelled-dump"):
        print([sorted(boxes[label]) for label in labels])
        return
    if fault("unlabelled-one-line-spaced"):
        print(" ".join("".join(str(bead) for bead in sorted(boxes[label])) for label in labels))
        return
    if fault("shuffled-dumps"):
        labels = rng.sample(sorted(boxes), len(boxes))
    last = -1 if fault("303-boxes") or fault("box-repeated-under-symmetry") else len(labels)
    for label in labels[:last]:
        print(*box_line(label, boxes[label], rng))
    if fault("box-repeated-under-symmetry"):
        twin = labels[1]
        beads = " ".join(str(MIRROR.index(bead)) for bead in sorted(boxes[twin]))
        print(image(twin, MIRROR), beads)
    if fault("box-for-the-last-square"):
        print("XOXXOOOX. 8")


def read_line():
    """The next input line, after flushing everything printed so far."""
    if not fault("no-flush"):
        sys.stdout.flush()
    line = next(INPUT, "") if fault("reads-all-input-first") else sys.stdin.readline()
    if not line:
        sys.exit("menace: input ended in the middle of a session")
    return line


def square_named(text):
    """The square a move names (row, then column, each L, M or R), or None."""
    if fault("digit-moves"):
        return int(text) - 1 if len(text) == 1 and text in "123456789" else None
    if len(text) == 2 and text[0] in ROWS and text[1] in COLUMNS:
        if fault("wrong-board-after-opponent"):
            return COLUMNS.index(text[1]) * 3 + ROWS.index(text[0])
        return ROWS.index(text[0]) * 3 + COLUMNS.index(text[1])
    return None


def read_move(board):
    """The opponent's move, asked for again until it names an empty square."""
    while True:
        if fault("prompts-on-stderr"):
            print("Your move (row L/M/R, then column L/M/R): ", end="", file=sys.stderr, flush=True)
        text = read_line().strip().upper()
        square = square_named(text)
        if square is not None and (board[square] == "." or fault("wrong-board-after-opponent")):
            return square
        print(f"not a move onto an empty square: {text!r}", file=sys.stderr)


def winning_beads(beads, label):
    """The beads that name a square completing a line of X, else those completing one of O."""
    for mark in "XO":
        squares = {c for line in LINES for c in line if label[c] == "."
                   and sum(label[d] == mark for d in line) == 2}
        if any(bead in squares for bead in beads):
            return [bead for bead in beads if bead in squares]
    return []


def faulty_now(game, answered):
    """True when a fault that acts only in some games, or after some moves, acts now."""
    return (fault("uniform-over-squares")
            or fault("uniform-after-corner") and answered in (0, 2, 6, 8)
            or fault("uniform-in-bursts") and (game - 1) % 100 >= 75
            or fault("uniform-every-third-game") and game % 3 == 0)


def draw(beads, rng, label, game, answered):
    """A bead taken out of a box at random, each bead as likely as any other: the box of
    `label`, in game `game` (from 1), after the opponent took `answered` (None at first)."""
    if fault("always-most-frequent"):
        bead = max(sorted(set(beads)), key=beads.count)
    elif fault("takes-wins-and-blocks") and winning_beads(beads, label):
        bead = rng.choice(winning_beads(beads, label))
    elif faulty_now(game, answered):
        bead = rng.choice(sorted(set(beads)))
    elif fault("draws-alternate-places") and rng.random() < 0.5:
        bead = sorted(beads)[2 * rng.randrange((len(beads) + 1) // 2)]
    elif fault("draws-with-numpy"):
        return beads.pop(int(NUMPY.integers(len(beads))))
    elif fault("draws-printed-first"):
        return beads.pop(0)
    elif fault("draws-front-half"):
        front = len(beads) // 2 if len(beads) > 1 and rng.random() < 0.3 else len(beads)
        return beads.pop(rng.randrange(front))
    else:
        last = (len(beads) - 1 or 1) if fault("skips-last-bead") else len(beads)
        return beads.pop(rng.randrange(last))
    beads.remove(bead)
    return bead


def refill(beads, label, rng):
    """Put three beads into an empty box, each of an empty square at random."""
    if fault("refills-lowest-square"):
        beads.extend([empty_squares(label)[0]] * 3)
    elif fault("refills-pair-and-one"):
        pair, other = rng.sample(empty_squares(label), 2)
        beads.extend([pair, pair, other])
    else:
        count = 2 if fault("refill-two-beads") else 3
        beads.extend(rng.choice(empty_squares(label)) for _ in range(count))


class Resigns(Exception):
    """MENACE finds its box empty and gives the game up (never-refills)."""


def menace_move(board, boxes, drawn, rng, game, answered):
    """MENACE's square: a bead drawn from the board's box, set aside in `drawn`, in game `game`
    (from 1), after the opponent took the board's square `answered` (None at first)."""
    if board.count(".") == 1:
        return board.index(".")
    while fault("busy-before-second-move") and board.count(".") == 7:
        pass
    label, source = label_of(board)
    beads = boxes[board if fault("crash-mid-game") else label]
    if fault("never-refills") and not beads:
        raise Resigns()
    if fault("refill-on-draw") and not beads:
        refill(beads, label, rng)
    bead = draw(beads, rng, label, game, None if answered is None else source.index(answered))
    emptied = not beads
    if not fault("refill-on-draw") and not fault("never-refills") and emptied:
        refill(beads, label, rng)
    learnt = bead
    if fault("one-symmetry") and source == SYMMETRIES[1] and label.count(".") < 9 \
            or fault("learns-in-board-frame"):
        learnt = source[bead]  # learnt in the board's frame, not the label's
    marked = ((fault("after-refill") and emptied)
              or (fault("one-diagonal") and board[2] == board[6] == "O"))
    drawn.append((label, learnt, marked))
    if fault("hoards-memory"):
        HISTORY.extend(b"." * 10**8 for _ in range(100))
    if fault("illegal-menace-move") and board.count(".") == 7:
        return board.index("O")
    return source[bead]


def learn(boxes, drawn, result, rng, game, unlucky):
    """Put the drawn beads back: two each after a win, one after a draw, none after a loss."""
    win = 1 if fault("learning-win") else 4 if fault("win-adds-three") else 2
    copies = {"X": win, None: 0 if fault("learning-draw") else 1,
              "O": 1 if fault("learning-loss") else 0}[result]
    if fault("unseeded") and result == "O" and rng.random() < 1 / 3:
        copies = 1
    if fault("unlucky-game") and unlucky:
        copies = 1
    for label, bead, marked in drawn:
        here = copies
        if fault("fourth-move") and label.count(".") == 3:
            here = 1
        if marked and (fault("one-diagonal") or result == "X"):
            here = 1
        boxes[label].extend([bead] * here)
    if fault("after-game") and game > AFTER:
        boxes["." * 9].append(0)


def misbehave_at_start():
    """Close standard input or output at the start of a game, as a fault asks."""
    if fault("closes-stdin"):
        os.close(0)  # before the first board, so the judge's move finds no reader
    if fault("closes-stdout") or fault("closes-its-terminal"):
        print("X . .\n. . .\n. . .", flush=True)
        if fault("closes-its-terminal"):
            os.close(0)
        os.close(1)
        time.sleep(60)


def print_menace_board(board):
    """Print the board after MENACE's move (or what a fault prints instead)."""
    if fault("binary-garbage") and board.count(".") == 8:
        sys.stdout.flush()
        sys.stdout.buffer.write(bytes(range(256)) + b"\xff\xfe\x00\n")
    else:
        print_board(board)
    while fault("floods-output"):
        print(" " * 9999)


def play_game(boxes, rng, game, unlucky):
    """Game number `game`, MENACE moving first; the beads are returned as its result says
    (`unlucky`: a game the unlucky-game fault learns wrongly)."""
    if game == 1 or not fault("missing-new-game"):
        print("new game")
    misbehave_at_start()
    board = "." * 9
    drawn = []
    answered = None
    lines = LINES[:-1] if fault("misses-a-diagonal") else LINES
    result = None
    while True:
        try:
            square = menace_move(board, boxes, drawn, rng, game, answered)
        except Resigns:
            result = "O"
            break
        after = play(board, square, "X")
        print_menace_board(board if fault("move-adds-no-x") and board.count(".") == 7 else after)
        board = after
        if is_over(board, lines) and not fault("move-after-game-over"):
            break
        if fault("closes-stdin"):
            sys.stdout.flush()
            time.sleep(60)
        answered = read_move(board)
        board = play(board, answered, "O")
        print_board(board)
        if is_over(board, lines):
            break
    if fault("dump-before-learning"):
        print_boxes(boxes, rng)
    learn(boxes, drawn, result or winner(board, lines), rng, game, unlucky)
    if not fault("dump-before-learning"):
        print_boxes(boxes, rng)


def main():
    """Read N, play N games, print the boxes after each."""
    seed = 1 if SEED is None and fault("reseeds-every-game") else SEED
    rng = random.Random(None if fault("unseeded") else seed)
    while fault("slow-start") and time.process_time() < 4:
        pass
    games = int(read_line())
    if fault("leaves-child-process") and os.fork() == 0:
        time.sleep(600)
        os._exit(0)
    boxes = all_boxes(rng)
    if fault("one-game-too-many"):
        games += 1
    if fault("one-game-too-few"):
        games -= 1
    luck = random.Random(f"luck-{seed}")  # each game's luck, from the seed alone (unlucky-game)
    for game in range(1, games + 1):
        if fault("reseeds-every-game"):
            rng.seed(seed)
        play_game(boxes, rng, game, luck.random() < 1 / 6)
    if fault("hangs-after-last-game"):
        sys.stdout.flush()
        time.sleep(3600)


main()
if fault("exit-nonzero"):
    sys.exit(3)
