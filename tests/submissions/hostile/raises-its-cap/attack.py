"""MENACE that asks its manifest for 1 TB of memory, then holds 1.3 GB in four children."""

import runpy


def attack():
    """Four children that each touch 330 MB and wait: over a 512 MB cap together."""
    import os
    import time
    for _ in range(4):
        if os.fork() == 0:
            block = b"x" * (330 << 20)
            time.sleep(30)
            os._exit(len(block) == 0)
    time.sleep(30)


attack()
runpy.run_path("menace.py", run_name="__main__")
