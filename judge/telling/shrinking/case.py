"""A shrunk case as people read and keep it: each game's moves read back from the transcript, and
a pytest test that holds the case and fails until the program is fixed."""

from __future__ import annotations

import shlex
from pathlib import Path

from reference.board import EMPTY, Board, Cell, X, is_over
from reference.outcome import outcome_of

from judge.deciding.opponents import Choices
from judge.reading.formats import BoardAssembler, Symbols, UnreadableError, move_text
from judge.running.workspace import with_full_paths
from judge.telling.shrinking.search import Shrunk
from judge.terms.manifest import Manifest
from judge.terms.options import MoveFormat


def game_moves(transcript: tuple[str, ...], symbols: Symbols) -> list[list[Cell]]:
    """The squares played in each game of a transcript, X first, read from its boards."""
    games: list[list[Cell]] = []
    board: Board = EMPTY * 9
    assembler = BoardAssembler(symbols)
    for line in transcript:
        text = line[2:]
        if text.strip().lower() == "new game":
            games.append([])
            board, assembler = EMPTY * 9, BoardAssembler(symbols)
            continue
        if not games or not line.startswith("<"):
            continue
        try:
            after = assembler.take(text)
        except UnreadableError:
            continue
        if after is None:
            continue
        changed = [c for c in range(9) if board[c] == EMPTY and after[c] != EMPTY]
        if len(changed) == 1:
            games[-1].append(Cell(changed[0]))
            board = after
    return games


def describe_game(moves: list[Cell]) -> str:
    """A game as its moves, `X MM, O LL, ...`, and how it ended for MENACE."""
    board = EMPTY * 9
    shown = []
    for index, cell in enumerate(moves):
        mark = "X" if index % 2 == 0 else "O"
        board = board[:cell] + mark + board[cell + 1:]
        shown.append(f"{mark} {move_text(cell, MoveFormat.LETTERS)}")
    result = f"MENACE's {outcome_of(board, X).word}" if is_over(board) else "unfinished"
    return ", ".join(shown) + f" ({result})"


def declarations(manifest: Manifest) -> dict[str, str]:
    """A manifest's declarations that differ from the defaults, as words."""
    defaults = Manifest(command=manifest.command)
    found = {key: str(getattr(manifest, key)) for key in ("moves", "beads", "refill", "x", "o",
                                                          "empty")
             if getattr(manifest, key) != getattr(defaults, key)}
    if manifest.seed_args:
        plain = all(word and not any(c.isspace() or c in "'\"\\" for c in word)
                    for word in manifest.seed_args)
        found["seed_args"] = (" ".join if plain else shlex.join)(manifest.seed_args)
    if manifest.transport is not None:
        found["transport"] = str(manifest.transport)
    return found


def choices_source(choices: Choices) -> str:
    """Choices as a Python expression, a run of one game written once: `((),) * 29 + ((1,),)`."""
    parts: list[str] = []
    index = 0
    while index < len(choices):
        end = index
        while end < len(choices) and choices[end] == choices[index]:
            end += 1
        count = end - index
        parts.append(f"({choices[index]!r},)" + (f" * {count}" if count > 1 else ""))
        index = end
    return " + ".join(parts) if parts else "()"


def test_body(shrunk: Shrunk, manifest: Manifest, seed: int) -> str:
    """A pytest test that holds the shrunk case: it fails until the program is fixed."""
    origin = manifest.origin()
    if origin is not None:
        if origin.is_relative_to(Path.cwd()):
            origin = origin.relative_to(Path.cwd())
        subject = f"Path({str(origin)!r})"
    else:
        subject = repr(list(with_full_paths(manifest.command, manifest.files)))
    declared = "" if manifest.folder is not None else "".join(
        f", {key}={text!r}" for key, text in declarations(manifest).items())
    name = "".join(c if c.isascii() and c.isalnum() else "_"
                   for c in manifest.name.lower()).strip("_")[:40]
    line = shrunk.run.decision.line()
    return "\n".join([
        "from pathlib import Path",
        "",
        "from judge.testing import assert_accepted",
        "",
        "",
        f"def test_{name or 'submission'}_shrunk_rejection() -> None:",
        f'    """Found by `python -m judge --shrink`: {line} in game {len(shrunk.choices)}."""',
        f"    assert_accepted({subject}, {choices_source(shrunk.choices)}, seed={seed}{declared})",
        "",
    ])
