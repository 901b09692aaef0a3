"""The one place a judged program is started: a fresh working folder holding a copy of the
submission, its command with the seed filled in, its runtime checked, contained."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from pathlib import Path

from judge.running import runtimes
from judge.running.probes import check_runtime, support
from judge.running.sandbox import RUN_MARKER, Limits, Sandbox
from judge.running.session import Session, SpawnError
from judge.running.workspace import WorkingFolder, working_folder
from judge.terms import options
from judge.terms.manifest import Manifest
from judge.terms.settings import Settings


@dataclass(frozen=True)
class Started:
    """A program just started: its live session, and the working folder it runs in."""

    session: Session
    folder: WorkingFolder

    def remove_folder(self) -> None:
        """Remove the working folder, once the program is gone."""
        self.folder.remove()


def minimal_environment(home: Path, marked: bool = True) -> dict[str, str]:
    """An explicit, small environment for a child: no PYTHONUNBUFFERED, no inherited settings,
    never the judge's own folder; `marked` adds the marker that finds its processes."""
    env = {
        "PATH": runtimes.search_path(),
        "HOME": str(home),
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "TERM": "dumb",
        "PYTHONDONTWRITEBYTECODE": "1",
        **runtimes.python_environment(),
    }
    if marked:
        env[RUN_MARKER] = uuid.uuid4().hex
    return env


def resolve_command(command: tuple[str, ...], cwd: Path, path: str) -> list[str]:
    """The command with its program found: `python3` is the interpreter behind the judge's
    Python, a path is relative to the working folder, a name is a runtime found on `path` or
    the judge's own PATH (judge/running/runtimes.py)."""
    program = command[0]
    if "/" in program:
        candidate = cwd / program
        if not candidate.exists():
            raise SpawnError(f"command not found: {program!r}")
        return [str(candidate), *command[1:]]
    found = runtimes.find(program, path)
    if found is None:
        raise SpawnError(f"command not found: {program!r}")
    return [found, *command[1:]]


def command_line(manifest: Manifest, seed: int) -> tuple[str, ...]:
    """The manifest's command with its seed arguments filled in."""
    return manifest.command + tuple(a.replace("{seed}", str(seed)) for a in manifest.seed_args)


def limits_for(settings: Settings) -> Limits:
    """The resource limits of the program: CPU time for each process just above the run's,
    and the rest."""
    output = (options.output_limit(settings.games) if settings.output_bytes is None
              else settings.output_bytes)
    return Limits(cpu_seconds=int(settings.cpu_seconds) + 1, memory_mb=settings.memory_mb,
                  file_mb=options.FILE_MB, disk_mb=options.DISK_MB,
                  processes=options.PROCESSES, open_files=options.OPEN_FILES,
                  output_bytes=output, cpus=settings.cpus)


def start_program(manifest: Manifest, settings: Settings) -> Started:
    """The program started in a fresh working folder, contained as the settings say. Inside
    namespaces the sandbox has its own copy of the folder once the program starts (bwrap
    holds the files open), so the judge's copy is removed at once."""
    found = support(settings.sandbox)
    folder = working_folder(manifest.folder, manifest.files)
    env = minimal_environment(folder.path, marked=not found.namespaced)
    try:
        argv = resolve_command(command_line(manifest, settings.seed), folder.path, env["PATH"])
        check_runtime(argv[0], found)
        sandbox = Sandbox(found, limits_for(settings))
        session = Session.spawn(argv, cwd=folder.path, env=env, transport=settings.transport,
                                sandbox=sandbox)
    except BaseException:
        folder.remove()
        raise
    if found.namespaced:
        folder.remove()
    return Started(session, folder)
