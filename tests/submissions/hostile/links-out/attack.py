"""MENACE that prints what its folder's links lead to: a secret of the judge's user, and
/dev/zero (the test puts the links beside it, as `secret` and `zero`)."""

import runpy


def attack():
    """Print the secret, and read the endless file."""
    for name in ("secret", "zero"):
        try:
            with open(name, "rb") as file:
                print("found:", file.read(64))
        except OSError:
            continue


attack()
runpy.run_path("menace.py", run_name="__main__")
