"""MENACE that first fills its temp folder with files of 8 MB until a write fails."""

import runpy


def attack():
    """Write 8 MB files into /tmp and the working folder until the disk says no."""
    import os
    for number in range(10000):
        for folder in ("/tmp", "."):
            with open(os.path.join(folder, f"menace-hostile-fill-{number}"), "wb") as fill:
                fill.write(b"x" * (8 << 20))


attack()
runpy.run_path("menace.py", run_name="__main__")
