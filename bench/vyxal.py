"""Time the Vyxal answer under the judge: its start, and its CPU time a game, run each way.

Run by hand: python bench/vyxal.py [--games G] [--runs R]. Judges golf/vyxal (pipe, seed 2026)
with each way of starting the interpreter below, and with no game at all (the start alone:
the interpreter's imports and the answer's labels), and prints the CPU time the judge measured,
the best of R runs, and the CPU time a game past the start.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ANSWER = ROOT / "golf" / "vyxal"
DECLARED = ["--moves", "digits0", "--beads", "0-8", "--refill", "on-draw", "--transport", "pipe"]
WAYS = {
    "python3 -m vyxal": ["python3", "-m", "vyxal", "menace.vy"],
    "python3 -X frozen_modules=on -m vyxal": ["python3", "-X", "frozen_modules=on", "-m", "vyxal",
                                               "menace.vy"],
    "python3 -O -m vyxal": ["python3", "-O", "-m", "vyxal", "menace.vy"],
}
"""Ways of starting the interpreter on the answer, each a command run from its folder."""


def judged(command: list[str], games: int) -> tuple[str, float]:
    """The verdict and the CPU seconds of one judged run of `command` on the answer."""
    with tempfile.TemporaryDirectory() as folder:
        report = Path(folder) / "report.json"
        subprocess.run([sys.executable, "-m", "judge", "--games", str(games), "--seed", "2026",
                        *DECLARED, "--json", str(report), "--", *command],
                       cwd=ANSWER, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       check=False)
        found = json.loads(report.read_text())
    return found["verdict"], found["cpu_seconds"] or 0.0


def main() -> None:
    """Print each way's verdict, CPU time and CPU time a game."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3)
    options = parser.parse_args()
    for name, command in WAYS.items():
        verdict, cpu = "", float("inf")
        start = float("inf")
        for _ in range(options.runs):
            verdict, seconds = judged(command, options.games)
            cpu = min(cpu, seconds)
            start = min(start, judged(command, 1)[1])
        each = (cpu - start) / (options.games - 1)
        print(f"{name}: {verdict}, {cpu:.2f} s of CPU for {options.games} games "
              f"(one game {start:.2f} s; then {1000 * each:.0f} ms a game)")


if __name__ == "__main__":
    main()
