"""What a command line asks for, made ready before anything runs: the manifest of what is to
be judged, the run's settings, a replay's command confirmed, the output files checked."""

from __future__ import annotations

import argparse
import importlib
import shlex
import sys
from dataclasses import replace
from pathlib import Path
from typing import Final

from reference.commandline import UsageError

from judge.bare import LANGUAGES, bare_manifest
from judge.running.workspace import named_files
from judge.telling.outputs import OutputError, check_output, is_stdout
from judge.terms import options
from judge.terms.manifest import (
    Manifest,
    ManifestError,
    declared,
    is_submission,
    read_manifest,
)
from judge.terms.options import TransportSource
from judge.terms.replay import Replay
from judge.terms.settings import Settings
from judge.terms.text import printable


def settings_from(args: argparse.Namespace, manifest: Manifest, seed: int,
                  replay: Replay | None) -> Settings:
    """The run settings from the command line, the manifest and any replay."""
    games = replay.games if replay else args.games
    if args.transport is not None:
        transport, source = args.transport, TransportSource.COMMAND_LINE
    elif replay is not None:
        transport, source = replay.transport, TransportSource.REPLAY
    elif manifest.transport is not None:
        transport = manifest.transport
        bare_file = manifest.folder is None and manifest.source_file() is not None
        source = TransportSource.HEADER if bare_file else TransportSource.MANIFEST
    else:
        transport, source = options.TRANSPORT, TransportSource.DEFAULT
    return Settings(
        games=games, seed=seed, opponent=replay.opponent if replay else args.opponent,
        transport=transport, transport_source=source,
        idle_seconds=args.idle_limit, time_limit=args.time_limit, grace_seconds=args.grace,
        memory_mb=min(manifest.memory_mb or args.memory_limit, args.memory_limit),
        cpus=args.cpus,
        output_bytes=args.output_limit << 20 if args.output_limit else None,
        keep_transcript=args.transcript is not None,
        sandbox=args.sandbox,
        scripted=replay.moves if replay else None,
    )


DECLARATION_OPTIONS: Final = ("moves", "beads", "refill", "x", "o", "empty", "seed_args")
"""The declaration options, by their names in args and in a manifest."""


def given_declarations(args: argparse.Namespace) -> dict[str, str]:
    """The declarations given on the command line, as words."""
    return {key: str(getattr(args, key)) for key in DECLARATION_OPTIONS
            if getattr(args, key) is not None}


def declaration_options(args: argparse.Namespace) -> str:
    """The declaration options given, as they are typed again."""
    return "".join(f" --{key.replace('_', '-')} {shlex.quote(text)}"
                   for key, text in given_declarations(args).items())


def manifest_for(args: argparse.Namespace, command: list[str],
                  replay: Replay | None) -> Manifest:
    """The manifest of what is to be judged: a folder, a bare file or command, or the replay's."""
    if command:
        words, files = named_files(tuple(command), Path.cwd())
        manifest = declared(words, given_declarations(args), files)
        return manifest if args.source is None else with_source(manifest, args.source)
    if args.source is not None:
        raise UsageError(f"--source {str(args.source)!r}: --source names the scored file of a "
                         "bare COMMAND (after --); a bare FILE is its own source, and a folder "
                         "names its source in submission.toml")
    path = args.path
    if path is None and replay is not None:
        if replay.submission:
            path = Path(replay.submission)
        elif replay.command:
            return declared(replay.command, given_declarations(args),
                            replay.files_here(Path.cwd()))
    if path is None:
        raise UsageError("nothing to judge: give a submission folder or source file, "
                         "or -- COMMAND")
    if path.is_file():
        return bare_manifest(path, given_declarations(args))
    if not path.is_dir():
        raise UsageError(f"no such file or folder: {str(path)!r}")
    if not is_submission(path):
        raise UsageError(f"no submission.toml in {str(path)!r}, and no subfolder with one nor "
                         f"source file ({', '.join(LANGUAGES)}) to judge as a leaderboard")
    return read_manifest(path)


def with_source(manifest: Manifest, source: Path) -> Manifest:
    """A bare command's manifest with `source` the file its score is the size of (copied in
    by its name, like the files the command names), its language from its extension."""
    if not source.is_file():
        why = "no such file" if not source.exists() else "not a regular file"
        raise UsageError(f"--source {str(source)!r}: {why}")
    full = source.absolute()
    clash = next((f for f in manifest.files if f.name == full.name and f != full), None)
    if clash is not None:
        raise UsageError(f"--source {str(source)!r}: the command names another file of that "
                         f"name, {str(clash)!r}; both would be copied in as {full.name!r}")
    language = LANGUAGES.get(full.suffix.lower(), (manifest.language, ()))[0]
    files = manifest.files if full in manifest.files else (*manifest.files, full)
    sourced = replace(manifest, source=full.name, files=files,
                      language=language if manifest.language == "unknown" else manifest.language)
    try:
        sourced.check_source()
    except ManifestError as error:
        raise UsageError(f"--source: {error}") from None
    return sourced


def confirm(manifest: Manifest, replay_file: Path, yes: bool) -> None:
    """Show the command a replay file would run, and ask before running it (unless --yes)."""
    origin = manifest.origin()
    where = (f" (from {manifest.folder / 'submission.toml'})" if manifest.folder
             else f" (on the file {origin})" if origin else "")
    shown = printable(" ".join(manifest.command)) + where
    if yes:
        print(f"the replay {printable(str(replay_file))} runs: {shown}", file=sys.stderr)
        return
    if not sys.stdin.isatty():
        raise UsageError(f"the replay {str(replay_file)!r} would run {shown}; not run without "
                         "asking: add --yes to run it from a script")
    print(f"The replay {printable(str(replay_file))} runs this command: {shown}",
          file=sys.stderr)
    try:
        answer = input("Run it? [y/N] ")
    except EOFError:
        answer = ""
    if answer.strip().lower() not in ("y", "yes"):
        raise UsageError("the replay's command was not run")


STDOUT_OUTPUTS: Final = ("json", "transcript", "markdown")
"""The outputs that `-` may send to the standard output (the report then goes to stderr)."""


def need_hypothesis() -> None:
    """Fail now, before the run, when hypothesis, which --shrink uses, is not installed."""
    try:
        importlib.import_module("hypothesis")
    except ImportError:
        raise UsageError("--shrink needs hypothesis, which is not installed: "
                         "python3 -m pip install hypothesis") from None


def check_outputs(args: argparse.Namespace) -> None:
    """Fail now, before the run, on an output file that could not be written."""
    to_stdout = [f"--{option}" for option in STDOUT_OUTPUTS if is_stdout(getattr(args, option))]
    if len(to_stdout) > 1:
        raise UsageError(f"{' and '.join(to_stdout)} cannot both be - (the standard output)")
    if is_stdout(args.save_replay):
        raise UsageError("--save-replay: a replay is saved to a file, not to - (the standard "
                         "output)")
    for option in ("json", "transcript", "save_replay", "markdown"):
        path = getattr(args, option)
        if path is not None:
            try:
                check_output(path)
            except OutputError as error:
                raise UsageError(f"--{option.replace('_', '-')}: {error}") from None
