"""The judge run as a golfer runs it: `python3 -m judge ARGS` in a folder, a process of its own,
importing this checkout's judge."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parent.parent


def judge_command(*args: str) -> list[str]:
    """The command line `python3 -m judge ARGS`, with this checkout's Python."""
    return [sys.executable, "-m", "judge", *args]


def judge_environment(**extra: str) -> dict[str, str]:
    """The environment the judge runs in: this one, importing this checkout's judge first."""
    return {**os.environ, "PYTHONPATH": str(ROOT), **extra}


def judge_process(*args: str | Path, cwd: Path = ROOT, timeout: float = 300,
                  stdout: IO[str] | None = None,
                  env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """`python3 -m judge ARGS` run to its end in `cwd`: its status, stdout and stderr (stdout to
    `stdout`, when given)."""
    return subprocess.run(judge_command(*map(str, args)), cwd=cwd,
                          env=judge_environment(**(env or {})), text=True, timeout=timeout,
                          check=False, stdout=stdout or subprocess.PIPE, stderr=subprocess.PIPE)
