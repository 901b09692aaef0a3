"""MENACE that first starts four children of 150 MB each: over the cap together, not alone."""

import runpy


def attack():
    """Four children that each touch 150 MB and wait."""
    import os
    import time
    for _ in range(4):
        if os.fork() == 0:
            block = b"x" * (150 << 20)
            time.sleep(30)
            os._exit(len(block) == 0)
    time.sleep(30)


attack()
runpy.run_path("menace.py", run_name="__main__")
