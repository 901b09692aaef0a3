"""Starting the program to be judged: the run settings, its working folder, its command line."""

from __future__ import annotations

import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from judge import options
from judge.manifest import Manifest
from judge.options import OpponentKind, SandboxPolicy, Transport, TransportSource
from judge.patience import Patience
from judge.sandbox import Limits, Sandbox, check_runtime, support
from judge.session import Session, minimal_environment, resolve_command
from judge.workspace import working_folder


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
    """CPU time of the whole run, in seconds; None: `options.time_limit(games)`."""
    grace_seconds: float = options.GRACE_SECONDS
    memory_mb: int = options.MEMORY_MB
    cpus: float = options.CPUS
    output_bytes: int | None = None
    """Stdout and stderr together; None: `options.output_limit(games)`."""
    sandbox: SandboxPolicy = options.SANDBOX
    keep_transcript: bool = False
    scripted: tuple[tuple[int, ...], ...] | None = None

    @property
    def cpu_seconds(self) -> float:
        """The CPU time allowed for the whole run."""
        return options.time_limit(self.games) if self.time_limit is None else self.time_limit

    @property
    def wall_seconds(self) -> float:
        """The wall-clock cap of the whole run: generous, since a loaded machine slows it."""
        return options.wall_cap(self.cpu_seconds)

    def patience(self) -> Patience:
        """How long the run waits for a silent program, from now."""
        return Patience(self.idle_seconds, self.cpu_seconds,
                        time.monotonic() + self.wall_seconds, self.memory_mb << 20)

    @property
    def limits(self) -> Limits:
        """The resource limits of the program: CPU time for each process just above the run's,
        and the rest."""
        output = options.output_limit(self.games) if self.output_bytes is None else self.output_bytes
        return Limits(cpu_seconds=int(self.cpu_seconds) + 1, memory_mb=self.memory_mb,
                      file_mb=options.FILE_MB, disk_mb=options.DISK_MB,
                      processes=options.PROCESSES, open_files=options.OPEN_FILES,
                      output_bytes=output, cpus=self.cpus)


def command_line(manifest: Manifest, seed: int) -> tuple[str, ...]:
    """The manifest's command with its seed arguments filled in."""
    return manifest.command + tuple(a.replace("{seed}", str(seed)) for a in manifest.seed_args)


def start_program(manifest: Manifest, settings: Settings) -> tuple[Session, Path]:
    """The program started in a fresh working folder, and that folder."""
    found = support(settings.sandbox)
    folder = working_folder(manifest.folder, manifest.files)
    env = minimal_environment(folder, marked=not found.namespaced)
    try:
        argv = resolve_command(command_line(manifest, settings.seed), folder, env["PATH"])
        check_runtime(argv[0], found)
        sandbox = Sandbox(found, settings.limits)
        return Session.spawn(argv, cwd=folder, env=env, transport=settings.transport,
                             sandbox=sandbox), folder
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
