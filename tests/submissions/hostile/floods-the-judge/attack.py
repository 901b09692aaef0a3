"""MENACE that floods the judge with 6 million blank lines before its first game, to make the
judge hold them all in memory (blank lines are allowed there, and fit in the output limit)."""

import runpy
import sys


def attack():
    """Six million blank lines, in chunks."""
    for _ in range(40):
        sys.stdout.write("\n" * 150_000)
    sys.stdout.flush()


attack()
runpy.run_path("menace.py", run_name="__main__")
