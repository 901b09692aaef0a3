"""Time `python -m judge --shrink` on a fast Python program whose fault shows at game 150.

    python bench/shrink.py [--fault after-game] [--seed 5] [--games 200]

The program is the canonical MENACE with a late fault (`tests/submissions/menace.py`): by
default an extra bead after game 149, so the judge rejects it at game 150 of 200 and the
shrink must keep 150 games. Target: the shrink finishes in under 60 s. Printed beside it:
one plain judged run of the same games (what a single shrink candidate costs at most), the
CPU time of every process, and the load average, since other load stretches every run.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FAULTS = ROOT / "tests" / "submissions" / "menace.py"
TARGET_SECONDS = 60.0


def judge(games: int, seed: int, fault: str, *extra: str) -> tuple[float, str]:
    """Wall time and stdout of one `python -m judge` run on the faulty program."""
    command = [sys.executable, "-m", "judge", "--games", str(games), "--seed", str(seed),
               *extra, "--", "python3", str(FAULTS), "--fault", fault, "--after", "149",
               "--seed", str(seed)]
    started = time.monotonic()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    return time.monotonic() - started, done.stdout


def main() -> None:
    """Judge once, then judge and shrink, and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fault", default="after-game")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    plain, report = judge(args.games, args.seed, args.fault)
    rejected = re.search(r"REJECTED at game (\d+)", report)
    cpu_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall, report = judge(args.games, args.seed, args.fault, "--shrink", "--shrink-time", "120")
    cpu_after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (cpu_after.ru_utime - cpu_before.ru_utime) + (cpu_after.ru_stime - cpu_before.ru_stime)
    shrunk = re.search(r"SHRUNK: (.*)", report)
    repeat = re.search(r"SHRUNK: .*\n  (.*)", report)
    print(f"fault {args.fault}, {args.games} games, seed {args.seed}: rejected at game "
          f"{rejected.group(1) if rejected else '?'}; one judged run {plain:.1f} s")
    print(f"shrink: {shrunk.group(1) if shrunk else 'no shrunk case'}")
    print(f"  {repeat.group(1) if repeat else ''}")
    verdict = "met" if wall < TARGET_SECONDS else "NOT met"
    print(f"whole command with --shrink: {wall:.1f} s wall, {cpu:.1f} s CPU "
          f"(target under {TARGET_SECONDS:.0f} s: {verdict}); load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
