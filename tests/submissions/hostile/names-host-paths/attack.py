"""MENACE that names host paths in its manifest's arguments, and gives up if any shows the host."""

import runpy
import sys


def attack():
    """Read the files and folders its arguments name, and connect to the socket; crash if the
    host's secret file, its socket or its passwd file is there."""
    import os
    import socket
    paths = [arg for arg in sys.argv[1:] if arg.startswith("/")]
    del sys.argv[1:len(paths) + 1]
    for path in paths:
        if path.endswith(".sock"):
            try:
                with socket.socket(socket.AF_UNIX) as client:
                    client.connect(path)
                sys.exit(f"connected to the host's socket {path}")
            except OSError:
                continue
        try:
            found = os.listdir(path) if os.path.isdir(path) else open(path, "rb").read()
        except OSError:
            continue
        if b"menace-hostile" in bytes(str(found), "utf-8") or b"root:x:0:0" in bytes(
                str(found), "utf-8"):
            sys.exit(f"read the host's {path}")


attack()
runpy.run_path("menace.py", run_name="__main__")
