"""Starting the program to be judged: the run settings, its working folder, its command line."""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from judge import options
from judge.evidence import FALSE_ALARM
from judge.manifest import Manifest
from judge.options import OpponentKind, SandboxPolicy, Transport, TransportSource
from judge.sandbox import Limits, Sandbox, support
from judge.session import Session, SpawnError, minimal_environment, resolve_command


@dataclass(frozen=True)
class Settings:
    """How to judge: games, seed, opponent, transport and limits; every default from judge.options."""

    games: int = options.GAMES
    seed: int = 1
    opponent: OpponentKind = options.OPPONENT
    transport: Transport = options.TRANSPORT
    transport_source: TransportSource = TransportSource.DEFAULT
    idle_seconds: float = options.IDLE_SECONDS
    time_limit: float | None = None
    """Wall time of the whole run, in seconds; None: `options.time_limit(games)`."""
    grace_seconds: float = options.GRACE_SECONDS
    memory_mb: int = options.MEMORY_MB
    output_bytes: int | None = None
    """Stdout and stderr together; None: `options.output_limit(games)`."""
    sandbox: SandboxPolicy = options.SANDBOX
    keep_transcript: bool = False
    scripted: tuple[tuple[int, ...], ...] | None = None
    false_alarm: float = FALSE_ALARM
    """The chance each statistical check may reject a correct program in this run."""
    measure_power: bool = False
    """Measure what each statistical alternative could show (for a thorough judgement)."""

    @property
    def wall_seconds(self) -> float:
        """The wall time allowed for the whole run."""
        return options.time_limit(self.games) if self.time_limit is None else self.time_limit

    @property
    def limits(self) -> Limits:
        """The resource limits of the program: CPU time just above the wall time, and the rest."""
        output = options.output_limit(self.games) if self.output_bytes is None else self.output_bytes
        return Limits(cpu_seconds=int(self.wall_seconds) + 1, memory_mb=self.memory_mb,
                      file_mb=options.FILE_MB, disk_mb=options.DISK_MB,
                      processes=options.PROCESSES, open_files=options.OPEN_FILES,
                      output_bytes=output)


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
    found = support(settings.sandbox)
    folder = working_folder(manifest)
    env = minimal_environment(folder, marked=not found.namespaced)
    try:
        argv = resolve_command(command_line(manifest, settings.seed), folder, env["PATH"])
        sandbox = Sandbox(found, settings.limits)
        return Session.spawn(argv, cwd=folder, env=env, transport=settings.transport,
                             sandbox=sandbox), folder
    except SpawnError:
        shutil.rmtree(folder, ignore_errors=True)
        raise
