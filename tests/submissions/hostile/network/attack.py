"""MENACE that first tries the network, and gives up on its run if a connection works."""

import runpy
import sys


def attack():
    """Connect to the outside and to the host's loopback; crash if either works."""
    import socket
    for address in (("1.1.1.1", 53), ("8.8.8.8", 443), ("127.0.0.1", 47813)):
        try:
            socket.create_connection(address, timeout=2).close()
        except OSError:
            continue
        sys.exit(f"connected to {address}")


attack()
runpy.run_path("menace.py", run_name="__main__")
