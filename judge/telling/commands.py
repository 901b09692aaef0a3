"""The judge's own command lines, as a person types them again: started by the interpreter that
started this judge, so that they work where `python` is not installed, or is another Python."""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from functools import cache


@cache
def interpreter() -> str:
    """The interpreter running the judge, by the short name that finds it on PATH (`python3`),
    else by its path."""
    running = sys.executable
    for name in ("python3", "python"):
        found = shutil.which(name)
        try:
            if found is not None and running and os.path.samefile(found, running):
                return name
        except OSError:
            continue
    return shlex.quote(tidy(running)) if running else "python3"


def tidy(path: str) -> str:
    """`path` without `.` and `..` steps (`scratch/../venv/bin/python`: `venv/bin/python`), where
    its folder is the same folder so (a `..` after a symbolic link would go elsewhere)."""
    shorter = os.path.normpath(path)
    try:
        same = os.path.realpath(os.path.dirname(shorter)) == \
            os.path.realpath(os.path.dirname(path))
    except (OSError, ValueError):
        same = False
    return shorter if same else path


def judge_command(arguments: str) -> str:
    """The command line that runs the judge with `arguments` (already quoted for a shell)."""
    return f"{interpreter()} -m judge {arguments}"
