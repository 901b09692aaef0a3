"""MENACE that leaves a daemon: setsid, a double fork, exec with no environment, stdout held."""

import runpy
import sys


def attack():
    """Start a daemon in its own session that holds stdout and hides its environment; its
    command line carries a token with the judge's seed, by which a test finds it."""
    import os
    token = "menace-hostile-token-" + sys.argv[sys.argv.index("--seed") + 1]
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.execve("/bin/sh", ["sh", "-c", f"sleep 600; : {token}"], {})
        os._exit(0)
    os.wait()


attack()
runpy.run_path("menace.py", run_name="__main__")
