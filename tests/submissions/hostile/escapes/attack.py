"""MENACE that leaves a daemon: setsid, a double fork, exec with an empty environment, stdout held."""

import runpy


def attack():
    """Start a daemon in its own session that holds stdout and hides its environment."""
    import os
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.execve("/bin/sh", ["sh", "-c", "sleep 600; : menace-hostile-token"], {})
        os._exit(0)
    os.wait()


attack()
runpy.run_path("menace.py", run_name="__main__")
