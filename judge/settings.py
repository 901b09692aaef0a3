"""The settings of one run: games, seed, opponent, transport, and every limit."""

from __future__ import annotations

import time
from dataclasses import dataclass

from judge.deciding.evidence import FALSE_ALARM
from judge.running.patience import Patience
from judge.running.sandbox import Limits
from judge.terms import options
from judge.terms.options import OpponentKind, SandboxPolicy, Transport, TransportSource


@dataclass(frozen=True)
class Settings:
    """How to judge: games, seed, opponent, transport and limits; every default from judge.terms.options."""

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
    false_alarm: float = FALSE_ALARM
    """The chance each statistical check may reject a correct program in this run."""
    measure_power: bool = False
    """Measure what each statistical alternative could show (for a thorough judgement)."""

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
