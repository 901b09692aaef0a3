"""The one place a judged program is started: a fresh working folder holding a copy of the
submission, its command with the seed filled in, its runtime checked, contained."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from judge.manifest import Manifest
from judge.sandbox import Sandbox, check_runtime, support
from judge.session import Session, minimal_environment, resolve_command
from judge.settings import Settings
from judge.workspace import working_folder


@dataclass(frozen=True)
class Started:
    """A program just started: its live session, and the working folder it runs in."""

    session: Session
    folder: Path

    def remove_folder(self) -> None:
        """Remove the working folder, once the program is gone."""
        shutil.rmtree(self.folder, ignore_errors=True)


def command_line(manifest: Manifest, seed: int) -> tuple[str, ...]:
    """The manifest's command with its seed arguments filled in."""
    return manifest.command + tuple(a.replace("{seed}", str(seed)) for a in manifest.seed_args)


def start_program(manifest: Manifest, settings: Settings) -> Started:
    """The program started in a fresh working folder, contained as the settings say."""
    found = support(settings.sandbox)
    folder = working_folder(manifest.folder, manifest.files)
    env = minimal_environment(folder, marked=not found.namespaced)
    try:
        argv = resolve_command(command_line(manifest, settings.seed), folder, env["PATH"])
        check_runtime(argv[0], found)
        sandbox = Sandbox(found, settings.limits)
        session = Session.spawn(argv, cwd=folder, env=env, transport=settings.transport,
                                sandbox=sandbox)
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    return Started(session, folder)
