"""Files the judge writes: checked before a run, written atomically, never through a planted link.

A report, a transcript or a replay is written to a temporary file in the same folder, which
then replaces the named file in one step: an interrupted write leaves the old file whole, and
a symbolic link at that name is replaced, never followed. Replays that the user did not name
go to a private folder of the user's own (mode 0700), each under a new, unique name.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path
from typing import Final

NAME_CHARACTERS: Final = 40
"""The most characters of a submission's name kept in a replay's file name."""


class OutputError(OSError):
    """A file the judge cannot write; the message says which and why."""


def check_output(path: Path) -> None:
    """Fail now if `path` could not be written: a folder, a missing folder, no permission."""
    if path.is_dir():
        raise OutputError(f"{str(path)!r} is a folder, not a file")
    folder = path.absolute().parent
    if not folder.is_dir():
        raise OutputError(f"the folder of {str(path)!r} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError(f"the folder of {str(path)!r} is not writable")


def write_atomically(path: Path, text: str) -> None:
    """Write `text` to `path` in one step, replacing (not following) whatever is there."""
    folder = path.absolute().parent
    try:
        handle, temporary = tempfile.mkstemp(prefix=f".{path.name[:NAME_CHARACTERS]}.",
                                             suffix=".tmp", dir=folder)
    except OSError as error:
        raise OutputError(f"{str(path)!r}: {error.strerror}") from None
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException as error:
        Path(temporary).unlink(missing_ok=True)
        if isinstance(error, OSError):
            raise OutputError(f"{str(path)!r}: {error.strerror}") from None
        raise


def private_folder() -> Path:
    """The user's own folder for replays, made with mode 0700; refused if anyone else could use it."""
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    folder = Path(cache) / "menace-judge" / "replays"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = os.lstat(folder)
    except OSError as error:
        raise OutputError(f"cannot make the replay folder {str(folder)!r}: {error.strerror}") from None
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o077:
        raise OutputError(f"the replay folder {str(folder)!r} is not private to you (a folder of "
                          "yours with mode 0700): use --save-replay FILE")
    return folder


def default_replay_path(name: str, seed: int) -> Path:
    """A new, unique file in the private folder for a replay of submission `name`."""
    safe = "".join(c if c.isascii() and (c.isalnum() or c in "-_") else "-" for c in name)
    folder = private_folder()
    try:
        handle, path = tempfile.mkstemp(prefix=f"replay-{safe[:NAME_CHARACTERS]}-{seed}-",
                                        suffix=".json", dir=folder)
    except OSError as error:
        raise OutputError(f"cannot make a replay file in {str(folder)!r}: {error.strerror}") from None
    os.close(handle)
    return Path(path)
