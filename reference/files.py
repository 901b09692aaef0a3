"""Replacing a file in one step: the new text goes to a temporary file beside it, which then takes
its name, so an interrupted write leaves the old file whole and a link at that name is replaced,
never followed."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Final

KEPT_CHARACTERS: Final = 40
"""The most characters of the file's name kept in the temporary file's name."""


def replace_file(path: Path, text: str, mode: int | None = None) -> None:
    """Write `text` (UTF-8) to `path` in one step, with file mode `mode` if given (else 0600);
    OSError when it cannot, with nothing left behind."""
    import tempfile  # only needed when writing: keeps start-up short

    handle, temporary = tempfile.mkstemp(prefix=f".{path.name[:KEPT_CHARACTERS]}.", suffix=".tmp",
                                         dir=path.absolute().parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
            stream.flush()
            if mode is not None:
                os.fchmod(stream.fileno(), mode)
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
