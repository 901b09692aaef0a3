"""MENACE that first leaves a child behind whose main thread has ended with the raw `exit`
system call while another of its threads runs on: the child's entry in /proc reads as a zombie."""

import runpy

EXIT = {"x86_64": 60, "aarch64": 93}
"""The number of the `exit` system call, which ends one thread (`exit_group` ends them all)."""


def attack():
    """Fork a child that starts a sleeping thread and then ends its main thread alone."""
    import ctypes
    import os
    import threading
    import time
    if os.fork() == 0:
        threading.Thread(target=time.sleep, args=(600,)).start()
        ctypes.CDLL(None).syscall(EXIT[os.uname().machine], 0)


attack()
runpy.run_path("menace.py", run_name="__main__")
