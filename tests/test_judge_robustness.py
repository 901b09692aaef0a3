"""Whatever a program does, the judge answers with the right verdict, in time, and cleans up."""

from __future__ import annotations

import json
import textwrap
import uuid
from pathlib import Path

import pytest

from judge.cli import main

pytestmark = pytest.mark.e2e

PROGRAMS = {
    "floods-without-newlines": ("""
        import sys
        while True:
            sys.stdout.write("x" * 4096)
            sys.stdout.flush()
    """, "output-limit", None),
    "sleeps-forever": ("""
        import time
        time.sleep(600)
    """, "idle", None),
    "closes-stdin": ("""
        import os, sys, time
        sys.stdin.readline()
        os.close(0)
        print("new game", flush=True)
        time.sleep(600)
    """, "idle", None),
    "child-holds-stdout-after-exit": ("""
        import subprocess, sys
        print("new game", flush=True)
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)", sys.argv[1]])
    """, "wrong-answer", "exit"),
    "escapes-its-process-group": ("""
        import subprocess, sys
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)", sys.argv[1]],
                         start_new_session=True)
        print("new game", flush=True)
    """, "wrong-answer", "exit"),
    "crashes-at-once": ("""
        raise SystemExit("no boxes today")
    """, "runtime-error", None),
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_a_misbehaving_program_gets_its_verdict(name: str, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """Each misbehaviour ends in its verdict, and no process of the run is left alive."""
    source, verdict, check = PROGRAMS[name]
    program = tmp_path / "program.py"
    program.write_text(textwrap.dedent(source))
    result = tmp_path / "result.json"
    token = f"token-{uuid.uuid4().hex}"  # this run's alone: tests beside it have their own
    # A small output limit: a flood passes it long before the short idle limit can end the run.
    status = main(["--games", "2", "--seed", "1", "--idle-limit", "0.5", "--grace", "0.5",
                   "--output-limit", "1", "--json", str(result),
                   "--save-replay", str(tmp_path / "replay.json"), "--", "python3", str(program),
                   token])
    report = json.loads(result.read_text())
    assert status == 1
    assert (report["verdict"], report["check"]) == (verdict, check)
    assert capsys.readouterr().out.strip().splitlines()[-1].split()[0] == verdict
    assert not [p for p in Path("/proc").glob("[0-9]*") if token.encode() in _cmdline(p)]


def _cmdline(process: Path) -> bytes:
    """A process's command line, or nothing if it is gone."""
    try:
        return (process / "cmdline").read_bytes()
    except OSError:
        return b""
