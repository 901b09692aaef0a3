"""Time the challenge program's start-up against the bare interpreter's: python bench/startup.py."""

from __future__ import annotations

import subprocess
import sys
import time

RUNS = 30


def best_seconds(command: list[str]) -> float:
    """The least wall time of `command` in RUNS runs (the least disturbed by load), stdin empty."""
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        subprocess.run(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=False)
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    """Print the bare interpreter's start-up, the program's, and the difference in ms."""
    bare = best_seconds([sys.executable, "-c", "pass"])
    # With empty input the program builds its boxes, asks for the game count and stops:
    # everything a session does before its first game.
    program = best_seconds([sys.executable, "-m", "reference"])
    print(f"bare interpreter: {bare * 1000:.1f} ms (best of {RUNS})")
    print(f"python -m reference to its first prompt: {program * 1000:.1f} ms")
    print(f"start-up added: {(program - bare) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
