"""Starting the program to be judged: the run settings, its working folder, its command line.

Kept apart from the referee, and light to import, so that the command line can start the
program before it loads the checks: the program's start-up then overlaps the judge's own.
"""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from judge.manifest import Manifest
from judge.session import Limits, Session, SpawnError, minimal_environment, resolve_command

OPPONENT_NAMES: Final = ("random", "perfect", "coverage", "mixed")
"""The opponents a run can be played against (`judge.opponents` builds them)."""
MAX_GAMES: Final = 100_000
"""The most games of one run: the time and output limits grow with the games."""
MAX_SEED: Final = (1 << 64) - 1
"""The largest seed; seeds are whole numbers from 0."""


@dataclass(frozen=True)
class Settings:
    """How to judge: games, seed, opponent, transport and time limits (seconds)."""

    games: int = 200
    seed: int = 1
    opponent: str = "mixed"
    transport: str = "pty"
    idle_seconds: float = 3.0
    time_limit: float = 60.0
    grace_seconds: float = 2.0
    limits: Limits = field(default_factory=Limits)
    keep_transcript: bool = False
    scripted: tuple[tuple[int, ...], ...] | None = None


def working_folder(manifest: Manifest) -> Path:
    """A fresh temporary folder holding a copy of the submission."""
    folder = Path(tempfile.mkdtemp(prefix="menace-judge-"))
    if manifest.folder is not None:
        shutil.copytree(manifest.folder, folder, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("__pycache__"))
    return folder


def command_line(manifest: Manifest, seed: int) -> tuple[str, ...]:
    """The manifest's command with its seed arguments filled in."""
    return manifest.command + tuple(a.replace("{seed}", str(seed)) for a in manifest.seed_args)


def start_program(manifest: Manifest, settings: Settings) -> tuple[Session, Path]:
    """The program started in a fresh working folder, and that folder."""
    folder = working_folder(manifest)
    env = minimal_environment(folder)
    try:
        argv = resolve_command(command_line(manifest, settings.seed), folder, env["PATH"])
        return Session.spawn(argv, cwd=folder, env=env, transport=settings.transport,
                             limits=settings.limits), folder
    except SpawnError:
        shutil.rmtree(folder, ignore_errors=True)
        raise
