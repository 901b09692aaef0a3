"""The settings of one run: games, seed, opponent, transport, and every limit."""

from __future__ import annotations

from dataclasses import dataclass

from judge.terms import options
from judge.terms.options import FALSE_ALARM, OpponentKind, SandboxPolicy, Transport, TransportSource


@dataclass(frozen=True)
class Settings:
    """How to judge: games, seed, opponent, transport, limits (defaults: judge.terms.options)."""

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
