"""MENACE that first prints a space every two seconds (or every `--every` seconds), for ever,
and never a newline."""

import runpy
import sys


def attack():
    """One byte of output at a time, never a complete line, and no CPU to speak of."""
    import time
    every = 2.0
    if "--every" in sys.argv:
        at = sys.argv.index("--every")
        every = float(sys.argv[at + 1])
        del sys.argv[at:at + 2]
    while True:
        sys.stdout.write(" ")
        sys.stdout.flush()
        time.sleep(every)


attack()
runpy.run_path("menace.py", run_name="__main__")
