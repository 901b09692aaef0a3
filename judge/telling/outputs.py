"""Files the judge writes: checked before a run, written atomically, never through a planted link.

A report, a transcript or a replay is written to a temporary file in the same folder, which
then replaces the named file in one step: an interrupted write leaves the old file whole, and
a symbolic link at that name is replaced, never followed. A device, a fifo or a socket, or a
link that leads to one or to an open descriptor (`/dev/stdout`, `/dev/fd/3`), is written
through and never replaced: it is where the user sends the output. `-` names the standard
output. Replays that the user did not name go to a private folder of the user's own (mode
0700), each under a new, unique name.

The standard output may be read by a program that stops early (`| head -1`): what the judge
prints after that goes nowhere, and the judge carries on to its verdict and its exit status.
"""

from __future__ import annotations

import io
import os
import stat
import tempfile
from pathlib import Path
from typing import Final, TextIO

from reference.files import replace_file

NAME_CHARACTERS: Final = 40
"""The most characters of a submission's name kept in a replay's file name."""
STDOUT: Final = "-"
"""The name that stands for the standard output."""
MOST_LINKS: Final = 40
"""Links followed at most from a name to what it names, as the kernel does."""


class ReaderMayLeave(io.TextIOWrapper):
    """Standard output read through a pipe whose reader may stop reading: from then on, what
    is written goes to /dev/null."""

    def write(self, text: str) -> int:
        """Write the text, or drop it once the reader has gone."""
        try:
            return super().write(text)
        except BrokenPipeError:
            self._reader_gone()
            return len(text)

    def flush(self) -> None:
        """Flush, or drop what is left once the reader has gone."""
        try:
            super().flush()
        except BrokenPipeError:
            self._reader_gone()

    def _reader_gone(self) -> None:
        """Send the rest of the output, and what is still buffered, to /dev/null."""
        nowhere = os.open(os.devnull, os.O_WRONLY)
        os.dup2(nowhere, self.fileno())
        os.close(nowhere)


def reader_may_leave(stream: TextIO) -> TextIO:
    """The standard output, as a stream that drops what is written once the pipe it feeds is
    closed (any other stream as it is)."""
    try:
        mode = os.fstat(stream.fileno()).st_mode
    except (OSError, ValueError):  # not a file: a test's capture, say
        return stream
    if not (stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)) or not isinstance(stream, io.TextIOWrapper):
        return stream
    stream.flush()
    return ReaderMayLeave(stream.buffer, encoding=stream.encoding, errors=stream.errors,
                          line_buffering=stream.line_buffering)


class OutputError(OSError):
    """A file the judge cannot write; the message says which and why."""


def is_stdout(path: Path | None) -> bool:
    """True for `-`, the standard output."""
    return path is not None and str(path) == STDOUT


def _is_descriptor(path: Path) -> bool:
    """True for a link of /proc/PID/fd: an open descriptor of a process."""
    parts = path.parts
    return len(parts) >= 4 and parts[1] == "proc" and parts[-2] == "fd"


def _special(path: Path) -> Path | None:
    """The device, fifo, socket or open descriptor that `path` is or leads to through links;
    None for a regular file, a folder, or nothing yet (a new file replaces it)."""
    current = Path(os.path.abspath(path))
    for _ in range(MOST_LINKS):
        try:
            current = Path(os.path.realpath(current.parent)) / current.name
            info = os.lstat(current)
        except OSError:
            return None
        if not stat.S_ISLNK(info.st_mode):
            return None if stat.S_ISREG(info.st_mode) or stat.S_ISDIR(info.st_mode) else current
        if _is_descriptor(current):
            return current
        try:
            current = current.parent / os.readlink(current)
        except OSError:
            return None
    return None


def writes_through(path: Path) -> bool:
    """True when `path` is, or leads through links to, a device, a fifo, a socket or an open
    descriptor: written through, never replaced."""
    return _special(path) is not None


def check_output(path: Path) -> None:
    """Fail now if `path` could not be written: a folder, a missing folder, no permission."""
    if is_stdout(path):
        return
    if writes_through(path):
        if not os.access(path, os.W_OK):
            raise OutputError(f"{str(path)!r} is not writable")
        return
    if path.is_dir():
        raise OutputError(f"{str(path)!r} is a folder, not a file")
    folder = path.absolute().parent
    if not folder.is_dir():
        raise OutputError(f"the folder of {str(path)!r} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError(f"the folder of {str(path)!r} is not writable")


def write_atomically(path: Path, text: str) -> None:
    """Write `text` to `path` in one step, replacing (not following) whatever is there."""
    try:
        replace_file(path, text)
    except OSError as error:
        raise OutputError(f"{str(path)!r}: {error.strerror}") from None


def write_output(path: Path, text: str, stdout: TextIO) -> None:
    """Write `text` where `path` says: the standard output for `-`; through a device, a fifo
    or a descriptor; else to a regular file, replaced in one step."""
    if is_stdout(path):
        stdout.write(text)
        stdout.flush()
    elif writes_through(path):
        _write_through(path, text)
    else:
        write_atomically(path, text)


def _write_through(path: Path, text: str) -> None:
    """Write `text` to what `path` leads to, without creating or replacing it: to the judge's
    own descriptor itself (`/dev/stdout`), so that it goes where the judge's other output goes,
    else to the end of what `path` opens."""
    special = _special(path)
    own = special is not None and _is_descriptor(special) and special.parts[2] == str(os.getpid())
    try:
        if own and special is not None:
            _write_all(int(special.name), text)
            return
        handle = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_NOCTTY)
        try:
            _write_all(handle, text)
        finally:
            os.close(handle)
    except (OSError, ValueError) as error:
        raise OutputError(f"{str(path)!r}: {getattr(error, 'strerror', None) or error}") from None


def _write_all(handle: int, text: str) -> None:
    """Write all of `text` to an open descriptor."""
    view = memoryview(text.encode("utf-8"))
    while view:
        view = view[os.write(handle, view):]


def private_folder() -> Path:
    """The user's own folder for replays, mode 0700; refused if anyone else could use it."""
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    folder = Path(cache) / "menace-judge" / "replays"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = os.lstat(folder)
    except OSError as error:
        raise OutputError(f"cannot make the replay folder {str(folder)!r}: "
                          f"{error.strerror}") from None
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
        raise OutputError(f"cannot make a replay file in {str(folder)!r}: "
                          f"{error.strerror}") from None
    os.close(handle)
    return Path(path)
