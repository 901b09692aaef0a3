"""Tables that take more than 50 ms to build, kept on disk between runs beside the bytecode cache.

A stored table is plain data (tuples, ints, strings) written with `marshal`, under a name that
carries a digest of the source files that build it and the interpreter's version, so a change to
either builds it afresh. Where the folder cannot be written (a read-only install, a sandbox), the
table is simply built each time; a file that cannot be read back is built again and replaced.
"""

from __future__ import annotations

import marshal
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar, cast

PACKAGE = Path(__file__).resolve().parent
"""The folder of the modules that build the tables."""
FOLDER = PACKAGE / "__pycache__"
"""Where stored tables live: the package's own bytecode cache folder."""

T = TypeVar("T")


def stored(name: str, sources: Sequence[str], build: Callable[[], T],
           valid: Callable[[object], bool]) -> T:
    """The table `name`: read from disk if a valid copy built by these `sources` is there, or built.

    `sources` are module file names in this package; `valid` checks what was read back.
    """
    import hashlib  # here, not at the top: the challenge needs no table before its first game
    import tempfile

    digest = hashlib.sha256(sys.version.encode())
    for source in sources:
        digest.update((PACKAGE / source).read_bytes())
    path = FOLDER / f"{name}-{digest.hexdigest()[:16]}.marshal"
    try:
        data = marshal.loads(path.read_bytes())
        if valid(data):
            return cast(T, data)
    except (OSError, EOFError, ValueError, TypeError):
        pass
    table = build()
    try:
        FOLDER.mkdir(exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=FOLDER, prefix=f".{name}-", delete=False) as file:
            written = Path(file.name)
            plain: Any = table  # plain data, as `build` promises
            file.write(marshal.dumps(plain))
        os.replace(written, path)  # whole or not at all, even with several runs at once
        for stale in FOLDER.glob(f"{name}-*.marshal"):  # built by code that has changed since
            if stale != path:
                stale.unlink(missing_ok=True)
    except (OSError, ValueError):
        if "written" in locals():
            written.unlink(missing_ok=True)
    return table
