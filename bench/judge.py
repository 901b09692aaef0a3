"""Time the judge on the reference against a driver that takes the same turns and checks nothing.

    python bench/judge.py [--games 200] [--runs 5] [--seed 2026] [--transport pty|pipe]
                          [--loads 0 3] [--sandbox auto|off] [--skip-sandbox]

The judge plays the reference (`tests/submissions/accepted/reference`, seeded) and saves its
transcript. The floor that turn-taking sets for any judge is a driver that plays that
transcript in lockstep (each move sent only once the lines before it have been read, as the
judge must) and checks nothing at all. Like the judge, the driver is a process of its own that
starts the program through `judge.running.launch.start_program`: a fresh copy of its folder, the
judge's environment and sandbox. The two take turns in each round, so they share the machine's
load.

This is done at each load of `--loads`: with no burners of the bench's own, then with that many
processes that burn CPU (`while True: pass`), started before the rounds and stopped after them
by their process ids. Beside each ratio it prints the machine's load average before and after,
and the CPU time a game of each process tree: the judge's (with its checking process and the
sandbox's helpers) and the driver's (with the sandbox's helpers). Under full containment the
program is reaped inside its own namespace and its time is in neither tree, so the judge's tree
is the judge's own CPU time, and the difference what the judge spends over the floor; without
full containment both trees hold the program's time too. Targets: the judge at most 1.15 times
the driver with no burners (on a quiet machine), at most 1.25 with 3, and 100 games under 3
seconds.

For comparison it also times the reference replaying the transcript's input alone, from a
file, with no turns taken at all (no target: the floor alone is well above it).

Last, the sandbox's cost: the judge under `--sandbox off` against the default (`full` where
the machine allows it), and the start-up of one contained `true` against a plain one.
Targets: judged under full at most 1.2 times without, start-up at most 50 ms a run.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import tty
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET_OVER_FLOOR = {0: 1.15, 3: 1.25}
"""The judge's wall time over the turn-taking driver's, at most, by the bench's burners."""
BURN = "while True: pass"
TARGET_SECONDS_PER_100 = 3.0
TARGET_SANDBOX_RATIO = 1.2
TARGET_SANDBOX_STARTUP = 0.050
STARTUP_RUNS = 30


def child_environment() -> dict[str, str]:
    """A small environment without PYTHONUNBUFFERED, with the project importable."""
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.environ.get("HOME", "/"),
            "PYTHONPATH": str(ROOT), "LANG": "C.UTF-8"}


@dataclass(frozen=True)
class Timed:
    """A command's wall time, exit status and the CPU time of its whole process tree."""

    seconds: float
    status: int
    cpu: float


def timed(command: list[str], stdin_path: Path | None = None, stdout: str = "null") -> Timed:
    """Wall time, exit status and CPU time (its own and its descendants') of a command, its
    output read and thrown away.

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
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
        return Timed(time.perf_counter() - start, process.returncode,
                     usage.ru_utime + usage.ru_stime)


def runnable_reference(parent: Path) -> Path:
    """The reference's test submission made runnable under `parent`: its manifest beside the
    `reference` package (tests/fixture_folders.py)."""
    sys.path.insert(0, str(ROOT / "tests"))
    from fixture_folders import assembled

    return assembled("accepted/reference", parent)


def drive(transcript: Path, transport: str, seed: int, submission: Path, sandbox: str) -> None:
    """Replay the transcript in turn, reading lines but checking none: the floor's own process.

    It starts the program exactly as the judge starts it (`judge.running.launch.start_program`: a
    fresh copy of its folder, the judge's environment, the default sandbox), so the judge and this
    driver differ only in what happens between the turns.
    """
    sys.path.insert(0, str(ROOT))
    from judge.running.launch import start_program
    from judge.terms.manifest import read_manifest
    from judge.terms.options import SandboxPolicy, Transport
    from judge.terms.settings import Settings

    settings = Settings(seed=seed, transport=Transport(transport), sandbox=SandboxPolicy(sandbox))
    started = start_program(read_manifest(submission), settings)
    session = started.session
    send, source = session._stdin, session._stdout  # the raw descriptors: only this driver
    os.set_blocking(source, True)
    pending = b""
    for line in transcript.read_text().splitlines():
        if line.startswith("> "):
            os.write(send, line[2:].encode() + b"\n")
        elif line.startswith("< "):
            while b"\n" not in pending:
                pending += os.read(source, 1 << 16)
            pending = pending.split(b"\n", 1)[1]
    os.set_blocking(source, False)
    session.wait_exit(60)
    session.close()
    started.remove_folder()


def lockstep(transcript: Path, transport: str, seed: int, submission: Path,
             sandbox: str = "auto") -> Timed:
    """The turn-taking driver, started as a process of its own as the judge is, timed."""
    command = [sys.executable, str(Path(__file__).resolve()), "--drive", str(transcript),
               "--transport", transport, "--seed", str(seed), "--submission", str(submission),
               "--sandbox", sandbox]
    run = timed(command)
    if run.status != 0:
        sys.exit(f"the turn-taking driver failed (status {run.status})")
    return run


def startup_cost(runs: int = STARTUP_RUNS) -> tuple[float, float]:
    """Best wall times of a plain and a contained `true`, started and waited for (the best of
    `runs`, since other load only ever adds to a start-up)."""
    sys.path.insert(0, str(ROOT))
    from judge.running.launch import limits_for
    from judge.running.probes import support
    from judge.running.sandbox import Sandbox
    from judge.terms.settings import Settings

    found, true, limits = support(), "/bin/true", limits_for(Settings())
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
    from judge.running.probes import support

    level = support().describe()
    judge = [sys.executable, "-m", "judge", "--games", str(args.games), "--seed",
             str(args.seed), "--transport", args.transport, str(args.submission)]
    times: dict[str, list[float]] = {"off": [], "auto": []}
    for _ in range(args.runs):
        for policy in times:
            run = timed([*judge, "--sandbox", policy])
            if run.status != 0:
                sys.exit(f"the judge did not accept the reference (--sandbox {policy})")
            times[policy].append(run.seconds)
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


def burners(count: int) -> list[subprocess.Popen[bytes]]:
    """`count` processes that burn CPU until stopped."""
    return [subprocess.Popen([sys.executable, "-c", BURN]) for _ in range(count)]


def stop(processes: list[subprocess.Popen[bytes]]) -> None:
    """Stop the burners, each by its process id, and reap them."""
    for process in processes:
        os.kill(process.pid, signal.SIGKILL)
        process.wait()


def load() -> str:
    """The machine's load average over the last minute, for the figures."""
    return f"{os.getloadavg()[0]:.2f}"


def over_floor(args: argparse.Namespace, transcript: Path, burning: int) -> float:
    """The judge against the turn-taking driver, in turns, with `burning` burners of the bench's
    own: the medians, the ratio, the CPU time per game, the load average before and after
    printed; the judge's median time returned."""
    judge = [sys.executable, "-m", "judge", "--games", str(args.games), "--seed",
             str(args.seed), "--transport", args.transport, "--sandbox", args.sandbox,
             str(args.submission)]
    before = load()
    started = burners(burning)
    try:
        judged, floor = [], []
        for _ in range(args.runs):
            run = timed(judge)
            if run.status != 0:
                sys.exit(f"the judge did not accept the reference (status {run.status})")
            judged.append(run)
            floor.append(lockstep(transcript, args.transport, args.seed, args.submission,
                                  args.sandbox))
    finally:
        stop(started)
    judge_time = statistics.median(run.seconds for run in judged)
    floor_time = statistics.median(run.seconds for run in floor)
    ratio = statistics.median(j.seconds / f.seconds for j, f in zip(judged, floor, strict=True))
    per_game = 1000 / args.games
    judge_cpu = statistics.median(run.cpu for run in judged) * per_game
    floor_cpu = statistics.median(run.cpu for run in floor) * per_game
    over = statistics.median(j.cpu - f.cpu for j, f in zip(judged, floor, strict=True))
    target = TARGET_OVER_FLOOR.get(burning)
    verdict = "" if target is None else \
        f"  target <= {target}: {'ok' if ratio <= target else 'MISSED'}"
    print(f"with {burning} burners of the bench's own (load average {before} before, {load()} "
          f"after), median of {args.runs} rounds:")
    print(f"  judge {judge_time:.3f} s, driver taking the same turns and checking nothing (the "
          f"floor) {floor_time:.3f} s")
    print(f"  ratio judge / driver: {ratio:.2f}{verdict}")
    print(f"  CPU a game, each process tree: judge {judge_cpu:.2f} ms, driver {floor_cpu:.2f} "
          f"ms, judge over driver {over * per_game:.2f} ms")
    return judge_time


def main() -> None:
    """Run both a few times at each load and print the medians, the ratio, and whether the
    targets hold."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--transport", choices=("pty", "pipe"), default="pty")
    parser.add_argument("--loads", type=int, nargs="+", default=[0, 3],
                        help="burners of the bench's own, for each pass")
    parser.add_argument("--sandbox", choices=("auto", "off"), default="auto",
                        help="the judge's and the driver's containment")
    parser.add_argument("--skip-sandbox", action="store_true",
                        help="leave out the sandbox's cost")
    parser.add_argument("--drive", type=Path, metavar="TRANSCRIPT", help=argparse.SUPPRESS)
    parser.add_argument("--submission", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.drive is not None:
        drive(args.drive, args.transport, args.seed, args.submission, args.sandbox)
        return
    home = tempfile.TemporaryDirectory(prefix="bench-judge-")
    args.submission = runnable_reference(Path(home.name))
    with tempfile.TemporaryDirectory() as folder:
        transcript = Path(folder) / "transcript.txt"
        first = timed([sys.executable, "-m", "judge", "--games", str(args.games), "--seed",
                       str(args.seed), "--transport", args.transport, "--sandbox", args.sandbox,
                       "--transcript", str(transcript), str(args.submission)])
        if first.status != 0:
            sys.exit(f"the judge did not accept the reference (status {first.status})")
        print(f"{args.games} games, seed {args.seed}, transport {args.transport}, sandbox "
              f"{args.sandbox}")
        judged = [over_floor(args, transcript, burning) for burning in args.loads]
        sent = [line[2:] for line in transcript.read_text().splitlines() if line.startswith("> ")]
        replay_input = Path(folder) / "input.txt"
        replay_input.write_text("\n".join(sent) + "\n")
        alone_command = [sys.executable, "-m", "reference", "--seed", str(args.seed)]
        alone = [timed(alone_command, replay_input, args.transport).seconds
                 for _ in range(args.runs)]
    limit = TARGET_SECONDS_PER_100 * args.games / 100
    print(f"the judge, a whole run (python -m judge), at the first load: {judged[0]:.3f} s"
          f"  target < {limit:.1f} s: {'ok' if judged[0] < limit else 'MISSED'}")
    print(f"reference replaying the input alone, no turns: {statistics.median(alone):.3f} s")
    if not args.skip_sandbox:
        sandbox_cost(args)
    home.cleanup()


if __name__ == "__main__":
    main()
