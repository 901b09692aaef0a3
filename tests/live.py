"""The judge run as a golfer runs it: `python3 -m judge ARGS` in a folder, a process of its own,
importing this checkout's judge; and how long to wait for it where the machine is slow."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import IO, Final

ROOT = Path(__file__).resolve().parent.parent
SLOWNESS: Final = max(1.0, float(os.environ.get("MENACE_TEST_SLOWNESS") or 1))
"""How many times slower than usual this machine runs the tests (MENACE_TEST_SLOWNESS, 1 by
default): the kernel tier sets it for the tests it runs in its guest, where TCG makes everything
tens of times slower (tests/test_kernel_tier.py)."""


def paced(usual: float) -> float:
    """A wait of `usual` seconds for a judged program, stretched by the slowness."""
    return usual * SLOWNESS


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
