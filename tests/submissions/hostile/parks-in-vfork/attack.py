"""MENACE that first parks itself in the kernel: a vfork whose child never execs nor exits."""

import runpy

CLONE = {"x86_64": 56, "aarch64": 220}
"""The number of the `clone` system call."""
CLONE_VM, CLONE_VFORK, SIGCHLD = 0x100, 0x4000, 17


def attack():
    """clone(CLONE_VM | CLONE_VFORK): the child pauses, so the parent waits for it in an
    uninterruptible sleep (state D) without using any CPU, and never prints a line."""
    import ctypes
    import os
    libc = ctypes.CDLL(None)
    if libc.syscall(CLONE[os.uname().machine], CLONE_VM | CLONE_VFORK | SIGCHLD, 0, 0, 0, 0) == 0:
        libc.pause()


attack()
runpy.run_path("menace.py", run_name="__main__")
