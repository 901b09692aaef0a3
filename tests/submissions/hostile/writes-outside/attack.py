"""MENACE that first writes a file into the home folder, the shared temp folder and the project."""

import runpy


def attack():
    """Write a marker file wherever it might outlast the run."""
    import os
    places = [os.path.expanduser("~"), "/root", "/tmp", "/var/tmp", "/dev/shm",
              f"/proc/{os.getppid()}/cwd", "/work/main", os.environ.get("HOME", ".")]
    for place in places:
        try:
            with open(os.path.join(place, "menace-hostile-written"), "w") as marker:
                marker.write("written by a judged program")
        except OSError:
            pass


attack()
runpy.run_path("menace.py", run_name="__main__")
