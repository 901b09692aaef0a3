"""Saving MENACE's matchboxes to a JSON file and loading them back; one writer at a time.

The file is a JSON object: `"format": "menace-boxes"`, `"version": 2`, the `"player"` MENACE
plays, the `"games"` it learned from, and `"boxes"`: for each box's label, its beads counted per
square, nine whole numbers for squares 0 to 8 (0 on a taken square), so the file stays small
however long MENACE trains. Version 1, which listed every bead (`[0, 0, 4, ...]`), is still read.

A save is atomic: the new boxes go to a temporary file beside the old one, which replaces it
in one step, so an interrupted save leaves the previous boxes whole. A symbolic link is
written through (its target is replaced, the link stays) and the file keeps its mode.
A session that will save holds an advisory lock on the file (`BoxesLock`): a second session
with the same file is refused with a message before it plays, so no game is lost to it.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import Final

from reference.board import CELLS, Board, InvalidBoardError, validate
from reference.files import replace_file

FORMAT: Final = "menace-boxes"
VERSION: Final = 2
"""The version written: beads counted per square."""
LISTED: Final = 1
"""The version that listed every bead, still read."""
LARGEST_FILE: Final = 64 << 20
"""The largest boxes file read, in bytes: 304 boxes of counts take about 16 KB, however many
beads they hold; a version 1 file grows with the beads."""


class BoxFileError(ValueError):
    """A boxes file that cannot be read, written or does not fit: it is left as it is."""


def target(path: Path) -> Path:
    """The file that saving to `path` replaces: the end of any chain of symbolic links."""
    return Path(os.path.realpath(path))


def _mode(file: Path) -> int:
    """The mode a saved file gets: the old file's, else what the umask allows."""
    try:
        return file.stat().st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def check_writable(path: Path) -> None:
    """Fail now, before any game, if the boxes could not be saved at `path`."""
    import tempfile

    file = target(path)
    linked = file != Path(path).absolute()
    where = f"{str(path)!r}" + (f" (a link to {str(file)!r})" if linked else "")
    if file.exists() and not file.is_file():
        raise BoxFileError(f"cannot save the boxes to {where}: it is not a regular file")
    if not file.parent.is_dir():
        raise BoxFileError(f"cannot save the boxes to {where}: its folder does not exist")
    try:
        handle, probe = tempfile.mkstemp(prefix=f".{file.name}.", suffix=".tmp", dir=file.parent)
    except OSError as error:
        raise BoxFileError(f"cannot save the boxes to {where}: {error.strerror}") from None
    os.close(handle)
    os.unlink(probe)


def save_boxes(path: Path, player: str, counts: Mapping[Board, Sequence[int]], games: int) -> None:
    """Write the boxes (beads counted per square) to `path` atomically: the old file stays whole
    until the new one is."""
    document = {
        "format": FORMAT,
        "version": VERSION,
        "player": player,
        "games": games,
        "boxes": {label: list(row) for label, row in counts.items()},
    }
    file = target(path)
    try:
        replace_file(file, json.dumps(document, indent=0) + "\n", _mode(file))
    except OSError as error:
        raise BoxFileError(f"cannot save the boxes to {str(path)!r}: {error.strerror}") from None


class BoxesLock:
    """An advisory lock on a boxes file, held while a session may save to it.

    The lock is taken on a hidden file beside the boxes (`.NAME.lock`), since the boxes file
    itself is replaced at every save; the lock file is removed when the lock is released.
    """

    def __init__(self, path: Path) -> None:
        file = target(path)
        self.path = path
        self.lock_path = file.with_name(f".{file.name}.lock")
        self._handle: int | None = None

    def acquire(self) -> None:
        """Take the lock, or fail with a message if another session holds it."""
        import fcntl

        while True:
            try:
                handle = os.open(self.lock_path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
            except OSError as error:
                raise BoxFileError(f"cannot lock {str(self.path)!r}: {error.strerror}") from None
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(handle)
                raise BoxFileError(
                    f"{str(self.path)!r} is in use by another session (pid {self._holder()}); "
                    "wait for it to end, or use another boxes file") from None
            try:
                same = os.stat(self.lock_path).st_ino == os.fstat(handle).st_ino
            except FileNotFoundError:
                same = False
            if same:  # not a lock file that its last holder removed meanwhile
                os.ftruncate(handle, 0)
                os.write(handle, f"{os.getpid()}\n".encode())
                self._handle = handle
                return
            os.close(handle)

    def _holder(self) -> str:
        """The process id the holder wrote in the lock file, or '?'."""
        try:
            return self.lock_path.read_text(encoding="ascii").strip() or "?"
        except (OSError, UnicodeDecodeError):
            return "?"

    def release(self) -> None:
        """Remove the lock file and let go of the lock."""
        if self._handle is not None:
            self.lock_path.unlink(missing_ok=True)
            os.close(self._handle)
            self._handle = None

    def __enter__(self) -> BoxesLock:
        self.acquire()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.release()


def load_boxes(path: Path, player: str) -> tuple[dict[Board, tuple[int, ...]], int]:
    """The boxes, their beads counted per square, and the number of games learned from, read from
    `path` (version 2, or version 1 that lists every bead)."""
    try:
        with path.open("rb") as file:
            if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
                raise BoxFileError(f"{str(path)!r} is not a regular file")
            raw = file.read(LARGEST_FILE + 1)
    except OSError as error:
        raise BoxFileError(f"cannot read {str(path)!r}: {error.strerror}") from error
    if len(raw) > LARGEST_FILE:
        raise BoxFileError(f"{str(path)!r} is larger than {LARGEST_FILE >> 20} MB: "
                           "not a boxes file")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise BoxFileError(f"{str(path)!r} is not a text file") from error
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise BoxFileError(f"{str(path)!r} is not valid JSON: {error}") from error
    except RecursionError:
        raise BoxFileError(f"{str(path)!r} is not a MENACE boxes file: its JSON is nested "
                           "too deeply to read") from None
    except ValueError as error:  # a number of thousands of digits
        raise BoxFileError(f"{str(path)!r} is not a MENACE boxes file: {error}") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise BoxFileError(f"{str(path)!r} is not a MENACE boxes file (no \"format\": {FORMAT!r})")
    version = document.get("version")
    if version not in (LISTED, VERSION) or type(version) is not int:
        raise BoxFileError(f"{str(path)!r} has version {_short(version)}; this program reads "
                           f"{LISTED} and {VERSION}")
    if document.get("player") != player:
        raise BoxFileError(
            f"{str(path)!r} holds boxes for player {_short(document.get('player'))}, not {player!r}"
        )
    games = document.get("games", 0)
    boxes = document.get("boxes")
    if type(games) is not int or games < 0 or not isinstance(boxes, dict):
        raise BoxFileError(f"{str(path)!r} has no valid \"games\" count and \"boxes\" table")
    counts: dict[Board, tuple[int, ...]] = {}
    for label, beads in boxes.items():
        try:
            validate(label)
        except InvalidBoardError:
            raise BoxFileError(f"{str(path)!r}: {_short(label)} is not a board label") from None
        read = _listed if version == LISTED else _counted
        counts[label] = read(path, label, beads)
    return counts, games


def _listed(path: Path, label: str, beads: object) -> tuple[int, ...]:
    """The counts per square of a version 1 box, which lists its beads."""
    if not isinstance(beads, list) or not all(type(b) is int for b in beads):
        raise BoxFileError(f"{str(path)!r}: the beads of box {label!r} are not a list of cells")
    counts = [0] * len(CELLS)
    for bead in beads:
        if not 0 <= bead < len(CELLS):
            raise BoxFileError(f"{str(path)!r}: box {label!r} holds a bead {_short(bead)}, "
                               "not a square from 0 to 8")
        counts[bead] += 1
    return tuple(counts)


def _counted(path: Path, label: str, counts: object) -> tuple[int, ...]:
    """The counts per square of a version 2 box, checked."""
    if not isinstance(counts, list) or len(counts) != len(CELLS) or not all(
            type(c) is int and c >= 0 for c in counts):
        raise BoxFileError(f"{str(path)!r}: box {label!r} does not hold nine bead counts "
                           "(squares 0 to 8) of at least 0")
    return tuple(counts)


def _short(value: object) -> str:
    """A value from the file, quoted for a message and cut to a readable length."""
    text = repr(value)
    return text if len(text) <= 40 else text[:40] + "..."
