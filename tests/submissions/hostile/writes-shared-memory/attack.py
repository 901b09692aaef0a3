"""MENACE that first writes 100 MB into each place of its sandbox that no program should write
to, keeps what it wrote, and says on stderr how much each place took."""

import runpy

PLACES = ("/dev/shm", "/dev", "/", "/etc")
"""Folders of the sandbox's own tmpfs (memory outside every cap of the run, where writable)."""
MB = 1 << 20


def attack():
    """Write files of 1 MB until 100 MB or the first refusal, in each place, keeping the files,
    and say on stderr how many MB it took (`wrote PLACE MB`)."""
    import os
    import sys
    for place in PLACES:
        written = 0
        try:
            while written < 100:
                with open(os.path.join(place, f"menace-hostile-shm-{written}"), "wb") as file:
                    file.write(b"x" * MB)
                written += 1
        except OSError:
            pass
        print(f"wrote {place} {written}", file=sys.stderr, flush=True)


attack()
runpy.run_path("menace.py", run_name="__main__")
