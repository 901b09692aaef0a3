"""Replay files: the seed and the opponent's moves of a run, so that `--replay` plays it again."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path


class ReplayError(ValueError):
    """A replay file that cannot be read."""


@dataclass(frozen=True)
class Replay:
    """What it takes to play a run again: seed, games, opponent, and O's moves in each game."""

    seed: int
    games: int
    opponent: str
    transport: str
    moves: tuple[tuple[int, ...], ...]
    submission: str = ""
    """The submission folder, if the run judged one."""
    command: tuple[str, ...] = ()


def write_replay(replay: Replay, path: Path) -> None:
    """Save a replay as JSON."""
    data = {
        "seed": replay.seed, "games": replay.games, "opponent": replay.opponent,
        "transport": replay.transport, "submission": replay.submission,
        "command": list(replay.command), "moves": [list(game) for game in replay.moves],
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data) + "\n", encoding="utf-8")


def read_replay(path: Path) -> Replay:
    """The replay saved in `path`."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        moves = tuple(tuple(int(c) for c in game) for game in data["moves"])
        if any(not 0 <= c <= 8 for game in moves for c in game):
            raise ValueError("a move outside 0-8")
        return Replay(
            seed=int(data["seed"]), games=int(data["games"]), opponent=str(data["opponent"]),
            transport=str(data.get("transport", "pty")), moves=moves,
            submission=str(data.get("submission", "")),
            command=tuple(str(c) for c in data.get("command", [])),
        )
    except OSError as error:
        raise ReplayError(f"cannot read replay {path}: {error.strerror}") from None
    except (ValueError, KeyError, TypeError) as error:
        raise ReplayError(f"not a replay file: {path} ({error})") from None
