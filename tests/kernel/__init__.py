"""The kernel tier: the judge as a normal user on a real cgroup-v2 kernel, booted under qemu
(image.py builds it, guest.py runs it, tests/test_kernel_tier.py holds the scenarios)."""
