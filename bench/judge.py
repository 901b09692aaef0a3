"""Time the judge on the reference against the reference replaying the same games alone.

    python bench/judge.py [--games 100] [--runs 5] [--seed 2026]

The judge plays the reference (`tests/submissions/accepted/reference`, seeded) and saves its
transcript; the `>` lines of that transcript are exactly what the reference reads, so the
reference, given the same seed and that input from a file, replays the very same games
without the judge. Targets: judge at most 1.5 times the replay, 100 games under 3 seconds, and
at most 1.25 times the driver below.

A third timing shows the floor that turn-taking sets for any judge: a driver that plays the
same transcript in lockstep (each move sent only once the lines before it have been read, as
the judge must) and checks nothing at all.

Last, the sandbox's cost: the judge under `--sandbox off` against the default (`full` where
the machine allows it), and the start-up of one contained `true` against a plain one.
Targets: judged under full at most 1.2 times without, start-up at most 50 ms a run.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
import tty
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "tests" / "submissions" / "accepted" / "reference"
TARGET_RATIO = 1.5
TARGET_OVER_FLOOR = 1.25
"""The judge's wall time over the turn-taking driver's, at most."""
TARGET_SECONDS_PER_100 = 3.0
TARGET_SANDBOX_RATIO = 1.2
TARGET_SANDBOX_STARTUP = 0.050
STARTUP_RUNS = 30


def child_environment() -> dict[str, str]:
    """A small environment without PYTHONUNBUFFERED, with the project importable."""
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.environ.get("HOME", "/"),
            "PYTHONPATH": str(ROOT), "LANG": "C.UTF-8"}


def timed(command: list[str], stdin_path: Path | None = None, stdout: str = "null") -> tuple[float, int]:
    """Wall time and exit status of a command, its output read and thrown away.

    `stdout` is where its output goes: "null" (a file: block-buffered), "pipe" or "pty"
    (a terminal: line-buffered, as the judge's default transport).
    """
    with open(stdin_path or os.devnull, "rb") as stdin:
        master = -1
        if stdout == "pty":
            master, slave = os.openpty()
            tty.setraw(slave)
            out: int = slave
        elif stdout == "pipe":
            out = subprocess.PIPE
        else:
            out = subprocess.DEVNULL
        start = time.perf_counter()
        process = subprocess.Popen(command, stdin=stdin, stdout=out, stderr=subprocess.DEVNULL,
                                   cwd=ROOT, env=child_environment())
        if stdout == "pty":
            os.close(slave)
            while True:
                try:
                    if not os.read(master, 1 << 16):
                        break
                except OSError:
                    break
            os.close(master)
        elif stdout == "pipe":
            assert process.stdout is not None
            while process.stdout.read(1 << 16):
                pass
        status = process.wait()
        return time.perf_counter() - start, status


def lockstep(command: list[str], transcript: list[str], transport: str) -> float:
    """Wall time of a driver that replays the transcript in turn, reading lines but checking none."""
    if transport == "pty":
        master, slave = os.openpty()
        tty.setraw(slave)
        stdin: int = slave
        stdout: int = slave
    else:
        read_end, stdout = os.pipe()
        stdin, master = os.pipe()
    start = time.perf_counter()
    process = subprocess.Popen(command, stdin=stdin, stdout=stdout, stderr=subprocess.DEVNULL,
                               cwd=ROOT, env=child_environment())
    if transport == "pty":
        os.close(slave)
        source = master
    else:
        os.close(stdin)
        os.close(stdout)
        source = read_end
    pending = b""
    for line in transcript:
        if line.startswith("> "):
            os.write(master, line[2:].encode() + b"\n")
        elif line.startswith("< "):
            while b"\n" not in pending:
                pending += os.read(source, 1 << 16)
            pending = pending.split(b"\n", 1)[1]
    try:
        while os.read(source, 1 << 16):
            pass
    except OSError:
        pass
    process.wait()
    seconds = time.perf_counter() - start
    os.close(source)
    if transport != "pty":
        os.close(master)
    return seconds


def startup_cost(runs: int = STARTUP_RUNS) -> tuple[float, float]:
    """Best wall times of a plain and a contained `true`, started and waited for (the best of
    `runs`, since other load only ever adds to a start-up)."""
    sys.path.insert(0, str(ROOT))
    from judge.launch import Settings
    from judge.sandbox import Sandbox, support

    found, true, limits = support(), "/bin/true", Settings().limits
    plain, contained = [], []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([true], check=True)
        plain.append(time.perf_counter() - start)
        start = time.perf_counter()
        sandbox = Sandbox(found, limits)
        process = sandbox.popen([true], cwd=None, env={"PATH": "/usr/bin:/bin"},
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        process.wait()
        sandbox.finish()
        contained.append(time.perf_counter() - start)
    return min(plain), min(contained)


def sandbox_cost(args: argparse.Namespace) -> None:
    """Print the judge's time with the sandbox and without it, and the sandbox's start-up."""
    sys.path.insert(0, str(ROOT))
    from judge.sandbox import support

    level = support().describe()
    judge = [sys.executable, "-m", "judge", "--games", str(args.games), "--seed",
             str(args.seed), "--transport", args.transport, str(REFERENCE)]
    times: dict[str, list[float]] = {"off": [], "auto": []}
    for _ in range(args.runs):
        for policy in times:
            seconds, status = timed([*judge, "--sandbox", policy])
            if status != 0:
                sys.exit(f"the judge did not accept the reference (--sandbox {policy})")
            times[policy].append(seconds)
    off, on = statistics.median(times["off"]), statistics.median(times["auto"])
    ratio = on / off
    print(f"judge with the sandbox ({level}): {on:.3f} s, without: {off:.3f} s, "
          f"ratio {ratio:.2f}  target <= {TARGET_SANDBOX_RATIO}: "
          f"{'ok' if ratio <= TARGET_SANDBOX_RATIO else 'MISSED'}")
    plain, contained = startup_cost()
    cost = contained - plain
    print(f"start-up of a contained `true` (best of {STARTUP_RUNS}): {contained * 1000:.1f} ms, "
          f"plain: {plain * 1000:.1f} ms, sandbox cost {cost * 1000:.1f} ms a run  target <= "
          f"{TARGET_SANDBOX_STARTUP * 1000:.0f} ms: "
          f"{'ok' if cost <= TARGET_SANDBOX_STARTUP else 'MISSED'}")


def main() -> None:
    """Run both a few times and print the medians, the ratio, and whether the targets hold."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--transport", choices=("pty", "pipe"), default="pty")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        transcript = Path(folder) / "transcript.txt"
        judge = [sys.executable, "-m", "judge", "--games", str(args.games), "--seed",
                 str(args.seed), "--transport", args.transport, "--transcript", str(transcript),
                 str(REFERENCE)]
        judged = []
        for _ in range(args.runs):
            seconds, status = timed(judge)
            if status != 0:
                sys.exit(f"the judge did not accept the reference (status {status})")
            judged.append(seconds)
        sent = [line[2:] for line in transcript.read_text().splitlines() if line.startswith("> ")]
        replay_input = Path(folder) / "input.txt"
        replay_input.write_text("\n".join(sent) + "\n")
        alone_command = [sys.executable, "-m", "reference", "--seed", str(args.seed)]
        alone = [timed(alone_command, replay_input, args.transport)[0] for _ in range(args.runs)]
        to_file = [timed(alone_command, replay_input, "null")[0] for _ in range(args.runs)]
        lines = transcript.read_text().splitlines()
        floor = [lockstep(alone_command, lines, args.transport) for _ in range(args.runs)]
    judge_time, alone_time = statistics.median(judged), statistics.median(alone)
    ratio = judge_time / alone_time
    limit = TARGET_SECONDS_PER_100 * args.games / 100
    print(f"{args.games} games, seed {args.seed}, transport {args.transport}, "
          f"median of {args.runs} runs")
    print(f"judge (python -m judge, whole run):       {judge_time:.3f} s"
          f"  target < {limit:.1f} s: {'ok' if judge_time < limit else 'MISSED'}")
    print(f"reference replaying the input, stdout a {args.transport}: {alone_time:.3f} s")
    print(f"reference replaying the input, stdout a file: {statistics.median(to_file):.3f} s")
    floor_time = statistics.median(floor)
    print(f"a driver taking turns but checking nothing:  {floor_time:.3f} s"
          f" (ratio {floor_time / alone_time:.2f}: the floor for any judge)")
    print(f"ratio judge / replay on the same transport: {ratio:.2f}"
          f"  target <= {TARGET_RATIO}: {'ok' if ratio <= TARGET_RATIO else 'MISSED'}")
    over_floor = judge_time / floor_time
    print(f"ratio judge / driver (the floor): {over_floor:.2f}"
          f"  target <= {TARGET_OVER_FLOOR}: {'ok' if over_floor <= TARGET_OVER_FLOOR else 'MISSED'}")
    sandbox_cost(args)


if __name__ == "__main__":
    main()
