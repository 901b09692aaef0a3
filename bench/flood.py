"""The judge's peak memory while a program floods it, with and without `--transcript`.

    python bench/flood.py [--million 4]

Three programs print, before `new game`, blank lines, border lines of 100,000 characters, or
border lines of one character (the judge skips all three there, so every line reaches its
records), then end. Each is judged once with the whole transcript kept and once without; the
peak resident memory of the judge's process tree (its program's included) is printed, with the
judge's seconds and last line. Target: under 150 MB in every case (tests/test_judge_memory.py
holds the same bound for the transcript case).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET_MB = 150


def programs(million: float) -> dict[str, str]:
    """Each flood's program, printing about `million` million lines (the long ones: 1,500)."""
    rounds = max(1, round(million * 10))
    body = {"blank lines": 'w("\\n" * 100_000)', "long lines": 'w(("-" * 100_000 + "\\n") * 38)',
            "short lines": 'w("-\\n" * 100_000)'}
    return {name: f"import sys\nw = sys.stdout.write\ninput()\n"
                  f"for _ in range({rounds if name != 'long lines' else 40}):\n    {line}\n"
                  'print("new game", flush=True)\n'
            for name, line in body.items()}


MEASURED = ("import resource, subprocess, sys; subprocess.run(sys.argv[1:]); "
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)")
"""A small process that runs a command and prints its tree's peak resident memory in KiB (a
child's peak counts the memory of the process it was forked from: here this small one)."""


def judged(program: Path, transcript: Path | None) -> tuple[float, float, str]:
    """Peak resident MB of the judge's tree, its seconds, and its last line."""
    keep = ["--transcript", str(transcript)] if transcript else []
    begun = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-c", MEASURED, sys.executable, "-m", "judge", "--games", "1", "--seed",
         "1", "--transport", "pipe", "--output-limit", "4096", "--time-limit", "3600",
         "--idle-limit", "120", *keep, "--", "python3", str(program)],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True)
    last = done.stdout.strip().splitlines()[-1]
    return int(done.stderr.split()[-1]) / 1024, time.monotonic() - begun, last


def main() -> None:
    """Judge each flood with and without the transcript, and print the peaks."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--million", type=float, default=4.0,
                        help="millions of blank or short lines (default 4)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for name, source in programs(args.million).items():
            program = Path(folder) / (name.replace(" ", "-") + ".py")
            program.write_text(source)
            for transcript in (Path(folder) / "transcript.txt", None):
                peak, seconds, last = judged(program, transcript)
                print(f"{name:12} transcript {'kept' if transcript else 'tail':4}: "
                      f"{peak:6.1f} MB peak (target < {TARGET_MB}), {seconds:5.1f} s, {last}",
                      flush=True)


if __name__ == "__main__":
    main()
