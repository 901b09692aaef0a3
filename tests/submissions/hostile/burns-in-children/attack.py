"""MENACE that first burns CPU for 45 s in children that end quickly and are waited for, printing
a blank line now and then so that it is never silent."""

import runpy


def attack():
    """Two children at a time, each busy for a fifth of a second, each waited for: their CPU
    time is their parent's once they are reaped, never a live process's own."""
    import os
    import sys
    import time
    end = time.monotonic() + 45
    while time.monotonic() < end:
        for _ in range(2):
            if os.fork() == 0:
                stop = time.monotonic() + 0.2
                while time.monotonic() < stop:
                    pass
                os._exit(0)
        os.wait()
        os.wait()
        sys.stdout.write("\n")
        sys.stdout.flush()


attack()
runpy.run_path("menace.py", run_name="__main__")
