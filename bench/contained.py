"""Start a program contained, as a judged run starts it, again and again: the sandbox's start-up.

    python bench/contained.py [--starts 40] [--program true|python3]

Each start builds the run's world (the system, the runtimes' configuration, the judge's Python
with its packages and the judge's own code covered), starts `true` or the judge's
`python3 -c pass` in it, and waits for it. The whole process is what to time, from outside and
in turns with another checkout of the judge, whose code comes first on PYTHONPATH:

    farm-bench -n 15 --vs "env PYTHONPATH=OLD python bench/contained.py" \
        -- python bench/contained.py
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

# Not bench/, whose judge.py is a benchmark: the judge of PYTHONPATH first, else this checkout's.
sys.path[0:1] = []
sys.path.insert(len([p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]),
                str(Path(__file__).resolve().parent.parent))

from judge.running import runtimes
from judge.running.launch import limits_for
from judge.running.probes import support
from judge.running.sandbox import Level, Sandbox
from judge.terms.settings import Settings


def main() -> None:
    """Start the program contained `--starts` times; exit 1 if the machine gives no full level."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--starts", type=int, default=40)
    parser.add_argument("--program", choices=("true", "python3"), default="true")
    args = parser.parse_args()
    found = support()
    if found.level is not Level.FULL:
        sys.exit(f"full containment unavailable: {found.describe()}")
    python = runtimes.find("python3") or sys.executable
    argv = ["/bin/true"] if args.program == "true" else [python, "-c", "pass"]
    limits = limits_for(Settings())
    for _ in range(args.starts):
        sandbox = Sandbox(found, limits)
        process = sandbox.popen(argv, cwd=None, env={"PATH": runtimes.search_path()},
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        if process.wait() != 0:
            sys.exit(f"{' '.join(argv)} failed contained (status {process.returncode})")
        sandbox.finish()


if __name__ == "__main__":
    main()
