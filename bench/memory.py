"""Peak memory of a fresh interpreter running some code, over the bare interpreter's."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
"""The project's folder, put first on the child's path so that it imports this checkout."""

PEAK = """
for line in open("/proc/self/status"):
    if line.startswith("VmHWM:"):
        print(line.split()[1])
"""
"""Code that prints the process's peak resident memory in KiB (VmHWM counts from its exec)."""


def peak_mb(code: str) -> float:
    """The peak resident memory, in MB, of a fresh Python running `code` from the project folder."""
    prelude = f"import sys; sys.path.insert(0, {str(ROOT)!r})\n"
    done = subprocess.run([sys.executable, "-c", prelude + code + PEAK],
                          capture_output=True, text=True, check=True)
    return int(done.stdout.split()[-1]) / 1024


def over_bare_mb(code: str) -> tuple[float, float]:
    """The bare interpreter's peak memory, and how much more `code` takes, both in MB."""
    bare = peak_mb("")
    return bare, peak_mb(code) - bare
