"""Replay files: the seed and the opponent's moves of a run, so that `--replay` plays it again.

A replay file may come from someone else: every field is checked, and a message names the
first one that is wrong. The command it holds is never run without asking (see the cli).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from judge.terms import options
from judge.terms.options import Choice, OpponentKind, Transport

LARGEST_FILE: Final = 16 << 20
"""The largest replay file read, in bytes: a run of the most games allowed needs far less."""
FIELDS: Final = ("seed", "games", "opponent", "transport", "moves", "submission", "command",
                  "files")


class ReplayError(ValueError):
    """A replay file that cannot be read, or a field of it that is wrong."""


@dataclass(frozen=True)
class Replay:
    """What it takes to play a run again: seed, games, opponent, and O's moves in each game."""

    seed: int
    games: int
    opponent: OpponentKind
    transport: Transport
    moves: tuple[tuple[int, ...], ...]
    submission: str = ""
    """The submission folder or bare source file, if the run judged one."""
    command: tuple[str, ...] = ()
    files: tuple[str, ...] = ()
    """The files a bare command's run copied in, by their full paths."""

    def files_here(self, here: Path) -> tuple[Path, ...]:
        """The files to copy in for the command, each of which must lie inside `here`: a
        replay file may come from someone else, and names nothing outside the folder the
        judge runs in."""
        inside = here.resolve()
        found = []
        for name in self.files:
            path = Path(name)
            if not path.is_absolute() or not path.resolve().is_relative_to(inside):
                raise ReplayError(f"the replay names the file {_short(name)}, outside the "
                                  "folder the judge runs in: run the replay from a folder that "
                                  "holds its files")
            found.append(path)
        return tuple(found)


def replay_text(replay: Replay) -> str:
    """A replay as the JSON text of its file."""
    data = {
        "seed": replay.seed, "games": replay.games, "opponent": replay.opponent,
        "transport": replay.transport, "submission": replay.submission,
        "command": list(replay.command), "files": list(replay.files),
        "moves": [list(game) for game in replay.moves],
    }
    return json.dumps(data) + "\n"


def _whole(data: dict[str, Any], key: str, low: int, high: int) -> int:
    """A whole-number field, in its range."""
    value = data[key]
    if type(value) is not int or not low <= value <= high:
        raise ReplayError(f"field {key!r} must be a whole number from {low:,} to {high:,}, "
                          f"not {_short(value)}")
    return value


def _choice(data: dict[str, Any], key: str, kind: type[Choice]) -> Choice:
    """A field that names one of an option's choices."""
    value = data[key]
    for choice in kind:
        if choice.value == value:
            return choice
    raise ReplayError(f"field {key!r} must be one of {', '.join(kind)}, not {_short(value)}")


def _strings(data: dict[str, Any], key: str) -> tuple[str, ...]:
    """A field that is a list of strings."""
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ReplayError(f"field {key!r} must be a list of strings, not {_short(value)}")
    return tuple(value)


def _moves(data: dict[str, Any], games: int) -> tuple[tuple[int, ...], ...]:
    """The `moves` field: for each game played, O's moves as squares 0 to 8."""
    value = data["moves"]
    if not isinstance(value, list) or len(value) > games:
        raise ReplayError(f"field 'moves' must be a list of at most {games} games' moves")
    for number, game in enumerate(value, 1):
        if not isinstance(game, list) or len(game) > 4 or \
                not all(type(c) is int and 0 <= c <= 8 for c in game):
            raise ReplayError(f"field 'moves', game {number}: not a list of at most 4 squares "
                              f"from 0 to 8: {_short(game)}")
    return tuple(tuple(game) for game in value)


def parse_replay(text: str) -> Replay:
    """The replay written in `text`, every field checked."""
    try:
        data = json.loads(text)
    except RecursionError:
        raise ReplayError("not a replay file: its JSON is nested too deeply") from None
    except ValueError as error:
        raise ReplayError(f"not a replay file: {error}") from None
    if not isinstance(data, dict):
        raise ReplayError("not a replay file: not a JSON object")
    unknown = sorted(set(data) - set(FIELDS))
    if unknown:
        raise ReplayError(f"unknown field {_short(unknown[0])}")
    missing = [key for key in ("seed", "games", "opponent", "moves") if key not in data]
    if missing:
        raise ReplayError(f"field {missing[0]!r} is missing")
    games = _whole(data, "games", 1, options.MAX_GAMES)
    submission = data.get("submission", "")
    if not isinstance(submission, str) or "\0" in submission:
        raise ReplayError("field 'submission' must be a submission folder's or source file's "
                          f"path, not {_short(submission)}")
    command, files = _strings(data, "command"), _strings(data, "files")
    for key, parts in (("command", command), ("files", files)):
        if any("\0" in part for part in parts):
            raise ReplayError(f"field {key!r} holds a NUL character")
    return Replay(
        seed=_whole(data, "seed", 0, options.MAX_SEED), games=games,
        opponent=_choice(data, "opponent", OpponentKind),
        transport=_choice({"transport": data.get("transport", options.TRANSPORT.value)},
                          "transport", Transport),
        moves=_moves(data, games), submission=submission, command=command, files=files,
    )


def read_replay(path: Path) -> Replay:
    """The replay saved in `path`."""
    try:
        with path.open("rb") as file:
            raw = file.read(LARGEST_FILE + 1)
    except OSError as error:
        raise ReplayError(f"cannot read replay {str(path)!r}: {error.strerror}") from None
    if len(raw) > LARGEST_FILE:
        raise ReplayError(f"replay {str(path)!r} is larger than {LARGEST_FILE >> 20} MB")
    try:
        return parse_replay(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ReplayError(f"replay {str(path)!r} is not UTF-8 text") from None
    except ReplayError as error:
        raise ReplayError(f"replay {str(path)!r}: {error}") from None


def _short(value: object) -> str:
    """A value from the file, quoted for a message and cut to a readable length."""
    text = repr(value)
    return text if len(text) <= 40 else text[:40] + "..."
