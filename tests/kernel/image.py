"""The kernel tier's image: Debian's kernel and a busybox initramfs, built once into a cache.

Everything comes from Debian's packages, nothing from an image download: the kernel package
`linux-image-*-amd64` (unpacked here, never installed: its `vmlinuz` and the modules that
virtio, 9p and overlay need) and `busybox-static`. The result lives under
`~/.cache/menace-golf/kernel-tier/KEY/`, where KEY is a digest of every input, so it is built
again when one changes and shared by every checkout of the project on the machine.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import lzma
import os
import shutil
import stat
import struct
import tarfile
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Final

HERE: Final = Path(__file__).resolve().parent
CACHE: Final = Path(os.environ.get("MENACE_KERNEL_CACHE",
                                   Path.home() / ".cache" / "menace-golf" / "kernel-tier"))
"""Where the kernel package is looked for (as `.ci/run` downloads it) and the image is kept."""
PACKAGE_GLOB: Final = "linux-image-[0-9]*[0-9]-amd64_*.deb"
"""Debian's generic kernel packages (the cloud flavour lacks 9p)."""
APT_ARCHIVES: Final = Path("/var/cache/apt/archives")
MODULES: Final = ("virtio", "virtio_ring", "virtio_pci_legacy_dev", "virtio_pci_modern_dev",
                  "virtio_pci", "netfs", "fscache", "9pnet", "9pnet_virtio", "9p", "overlay")
"""The modules the first stage loads, in this order (each after those it needs)."""
BUSYBOX_PATHS: Final = (Path("/bin/busybox"), Path("/usr/bin/busybox"))
FIRST_STAGE: Final = HERE / "initramfs_init.sh"
BUILDER_VERSION: Final = "1"
"""Changed when the way the image is built changes, so that older images are not reused."""


class Missing(Exception):
    """An input of the tier that this machine lacks; the message says which and how to get it."""


@dataclass(frozen=True)
class Image:
    """A kernel and its initramfs, ready to boot."""

    kernel: Path
    initramfs: Path


def kernel_package() -> Path:
    """The kernel package: MENACE_KERNEL_DEB, else the newest in the cache or apt's archive."""
    named = os.environ.get("MENACE_KERNEL_DEB")
    if named:
        if not Path(named).is_file():
            raise Missing(f"MENACE_KERNEL_DEB names {named}, which is not a file")
        return Path(named)
    found = [*sorted(APT_ARCHIVES.glob(PACKAGE_GLOB)), *sorted(CACHE.glob(PACKAGE_GLOB))]
    if not found:
        raise Missing(f"no kernel package {PACKAGE_GLOB} in {CACHE} or {APT_ARCHIVES} (cd "
                      f"{CACHE} && apt-get download linux-image-6.1.0-50-amd64)")
    return found[-1]


def static_busybox() -> Path:
    """A statically linked busybox (busybox-static), which runs alone in the initramfs."""
    for path in BUSYBOX_PATHS:
        if path.is_file() and not _dynamic(path):
            return path
    raise Missing("no static busybox (apt-get install busybox-static)")


def _dynamic(path: Path) -> bool:
    """True when the ELF file `path` names a program interpreter (it is dynamically linked)."""
    with open(path, "rb") as elf:
        header = elf.read(64)
        if header[:4] != b"\x7fELF" or header[4] != 2:
            return True
        phoff, = struct.unpack_from("<Q", header, 32)
        phentsize, phnum = struct.unpack_from("<HH", header, 54)
        elf.seek(phoff)
        table = elf.read(phentsize * phnum)
    return any(struct.unpack_from("<I", table, i * phentsize)[0] == 3 for i in range(phnum))


def _digest(*parts: Path | str) -> str:
    """A short digest of files (by content) and strings."""
    digest = hashlib.sha256()
    for part in parts:
        if isinstance(part, Path):
            with open(part, "rb") as data:
                while block := data.read(1 << 20):
                    digest.update(block)
        else:
            digest.update(part.encode())
        digest.update(b"\0")
    return digest.hexdigest()[:16]


def image() -> Image:
    """The image of this machine's inputs, built when the cache lacks it; Missing when an input
    is not here."""
    package, busybox = kernel_package(), static_busybox()
    folder = CACHE / _digest(package, busybox, FIRST_STAGE, " ".join(MODULES), BUILDER_VERSION)
    built = Image(folder / "vmlinuz", folder / "initramfs.cpio.gz")
    if built.kernel.is_file() and built.initramfs.is_file():
        return built
    CACHE.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix=".building-", dir=CACHE))
    try:
        kernel, modules = _unpack(package)
        (scratch / "vmlinuz").write_bytes(kernel)
        (scratch / "initramfs.cpio.gz").write_bytes(_initramfs(busybox, modules))
        try:
            scratch.rename(folder)
        except OSError:  # built at the same time by another run: theirs is as good
            if not built.initramfs.is_file():
                raise
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return built


def _ar_members(data: bytes) -> Iterator[tuple[str, bytes]]:
    """The members of an `ar` archive (a .deb is one): name and content."""
    if not data.startswith(b"!<arch>\n"):
        raise Missing("the kernel package is not a .deb (no ar header)")
    at = 8
    while at + 60 <= len(data):
        name = data[at:at + 16].decode().strip().rstrip("/")
        size = int(data[at + 48:at + 58])
        yield name, data[at + 60:at + 60 + size]
        at += 60 + size + (size & 1)


def _unpack(package: Path) -> tuple[bytes, dict[str, bytes]]:
    """The kernel and the needed modules (decompressed) from the package, as `dpkg -x` would
    unpack them."""
    members = dict(_ar_members(package.read_bytes()))
    name = next((name for name in members if name.startswith("data.tar")), "")
    if name not in ("data.tar.xz", "data.tar.gz", "data.tar"):
        raise Missing(f"the kernel package's {name or 'data'} cannot be unpacked here")
    kernel = b""
    modules: dict[str, bytes] = {}
    wanted = {f"{module}.ko": module for module in MODULES}
    with tarfile.open(fileobj=io.BytesIO(members[name]), mode="r|*") as archive:
        for member in archive:
            base = member.name.rsplit("/", 1)[-1]
            if member.isfile() and "/boot/vmlinuz-" in "/" + member.name.lstrip("./"):
                kernel = _read(archive, member)
            elif member.isfile() and "/modules/" in member.name:
                plain = base.removesuffix(".xz")
                if plain in wanted:
                    content = _read(archive, member)
                    modules[wanted[plain]] = lzma.decompress(content) if base.endswith(
                        ".xz") else content
    absent = [module for module in MODULES if module not in modules]
    if not kernel or absent:
        raise Missing(f"the kernel package lacks {'vmlinuz' if not kernel else ', '.join(absent)}")
    return kernel, modules


def _read(archive: tarfile.TarFile, member: tarfile.TarInfo) -> bytes:
    """The content of a regular file of a tar stream."""
    data = archive.extractfile(member)
    assert data is not None
    return data.read()


def _initramfs(busybox: Path, modules: dict[str, bytes]) -> bytes:
    """The initramfs: busybox, the first stage as /init, the modules and their order."""
    entries: list[tuple[str, int, bytes]] = [
        ("bin", stat.S_IFDIR | 0o755, b""), ("modules", stat.S_IFDIR | 0o755, b""),
        ("bin/busybox", stat.S_IFREG | 0o755, busybox.read_bytes()),
        ("init", stat.S_IFREG | 0o755, FIRST_STAGE.read_bytes()),
        ("modules/order", stat.S_IFREG | 0o644, "\n".join(MODULES).encode() + b"\n")]
    entries += [(f"modules/{name}.ko", stat.S_IFREG | 0o644, modules[name]) for name in MODULES]
    return gzip.compress(_cpio(entries), compresslevel=6)


def _cpio(entries: list[tuple[str, int, bytes]]) -> bytes:
    """A cpio archive in the kernel's `newc` format: each path, mode and content, then the
    trailer."""
    out = bytearray()
    for number, (name, mode, content) in enumerate([*entries, ("TRAILER!!!", 0, b"")], 1):
        path = name.encode() + b"\0"
        fields = (number, mode, 0, 0, 1, 0, len(content), 0, 0, 0, 0, len(path), 0)
        out += b"070701" + b"".join(b"%08X" % field for field in fields) + path
        out += b"\0" * (-len(out) % 4) + content
        out += b"\0" * (-len(out) % 4)
    return bytes(out)
