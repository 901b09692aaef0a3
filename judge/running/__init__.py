"""Running a program: its working folder, the runtimes it needs, its containment (a sandbox,
control groups, a warden), the live session that talks to it, and how long to wait for it."""
