"""Saving MENACE's matchboxes to a JSON file and loading them back."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Final

from reference.board import Board, InvalidBoardError, validate

FORMAT: Final = "menace-boxes"
VERSION: Final = 1


class BoxFileError(ValueError):
    """A boxes file that cannot be read or does not fit: it is left as it is."""


def save_boxes(path: Path, player: str, contents: Mapping[Board, Sequence[int]], games: int) -> None:
    """Write the boxes to `path` atomically: the old file stays whole until the new one is."""
    document = {
        "format": FORMAT,
        "version": VERSION,
        "player": player,
        "games": games,
        "boxes": {label: list(beads) for label, beads in contents.items()},
    }
    import tempfile  # only needed when saving: keeps start-up short

    folder = path.resolve().parent
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            json.dump(document, stream, indent=0)
            stream.write("\n")
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def load_boxes(path: Path, player: str) -> tuple[dict[Board, list[int]], int]:
    """The boxes and the number of games learned from, read from `path`."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise BoxFileError(f"cannot read {str(path)!r}: {error.strerror}") from error
    except UnicodeDecodeError as error:
        raise BoxFileError(f"{str(path)!r} is not a text file") from error
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise BoxFileError(f"{str(path)!r} is not valid JSON: {error}") from error
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise BoxFileError(f"{str(path)!r} is not a MENACE boxes file (no \"format\": {FORMAT!r})")
    if document.get("version") != VERSION:
        raise BoxFileError(
            f"{str(path)!r} has version {document.get('version')!r}; this program reads {VERSION}"
        )
    if document.get("player") != player:
        raise BoxFileError(
            f"{str(path)!r} holds boxes for player {document.get('player')!r}, not {player!r}"
        )
    games = document.get("games", 0)
    boxes = document.get("boxes")
    if not isinstance(games, int) or games < 0 or not isinstance(boxes, dict):
        raise BoxFileError(f"{str(path)!r} has no valid \"games\" count and \"boxes\" table")
    contents: dict[Board, list[int]] = {}
    for label, beads in boxes.items():
        try:
            validate(label)
        except InvalidBoardError as error:
            raise BoxFileError(f"{str(path)!r}: {error}") from error
        if not isinstance(beads, list) or not all(type(b) is int for b in beads):
            raise BoxFileError(f"{str(path)!r}: the beads of box {label!r} are not a list of cells")
        contents[label] = beads
    return contents, games
