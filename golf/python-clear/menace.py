# MENACE, clear golf: the ideas of ../python/menace.py with names and comments.
from random import choice, choices

CELLS = range(9)


def images(board):
    """The 8 images of the board, each paired with the cell numbers it was made from."""
    pair, found = (board, list(CELLS)), []
    for turn in (0, 2, 2, 2, 0, 2, 2, 2):  # 0: transpose, 2: quarter turn
        pair = [s[turn::3] + s[1::3] + s[2 - turn::3] for s in pair]
        found.append(pair)
    return found


def lines(board):
    """The 8 lines: the first two rows and the diagonal of every image."""
    return {line for image, _ in images(board) for line in (image[:3], image[3:6], image[::4])}


def label(board):
    """The box label (the least image) and, for each cell of it, the board cell it stands for."""
    return min(images(board))


def three_beads(name):
    """Three beads, each an empty square of the label chosen uniformly."""
    return choices(CELLS, [c == '.' for c in name], k=3)


boxes = {}
for number in range(3 ** 9):
    board = ''.join('.XO'[number // 3 ** i % 3] for i in CELLS)
    if board.count('X') == board.count('O') < 4 and not {'XXX', 'OOO'} & lines(board):
        name = label(board)[0]
        boxes[name] = [cell for cell in CELLS if name[cell] == '.']
assert len(boxes) == 304

for game in range(int(input())):
    print('new game')
    board, drawn = '.' * 9, []
    for mark in 'XOXOXOXOX':
        if mark == 'X':
            name, cells = label(board)
            box = boxes.get(name) or three_beads(name)  # one square left: no box
            bead = choice(box)
            box.remove(bead)
            if not box:
                box += three_beads(name)
            drawn.append((box, bead))
            cell = cells[bead]
        else:
            row, column = input().strip().upper()
            cell = 'LMR'.index(row) * 3 + 'LMR'.index(column)
        board = board[:cell] + mark + board[cell + 1:]
        print(board)
        if mark * 3 in lines(board):
            break
    returned = 2 if 'XXX' in lines(board) else 0 if 'OOO' in lines(board) else 1
    for box, bead in drawn:
        box += [bead] * returned
    for name, box in boxes.items():
        print(name, *box)
