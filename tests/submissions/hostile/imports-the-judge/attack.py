"""MENACE that first reaches for the judge's own code: its modules, and the files that
installed it beside the packages it may import. It says on stderr what was refused; anything
it reaches ends the run with status 3 before it plays."""

import runpy


def attack():
    """Import the judge and the reference; read the judge's install hooks and dist-info."""
    import glob
    import importlib
    import os
    import site
    import sys
    reached = []
    for name in ("judge", "reference"):
        try:
            importlib.import_module(name)
            reached.append(name)
        except ImportError as error:
            print(f"refused: {error}", file=sys.stderr)
    for folder in site.getsitepackages():
        for path in glob.glob(os.path.join(folder, "**", "*menace_golf*"), recursive=True):
            if os.listdir(path) if os.path.isdir(path) else open(path, "rb").read():
                reached.append(path)
    if reached:
        sys.exit(f"reached the judge's code: {reached}")


attack()
runpy.run_path("menace.py", run_name="__main__")
