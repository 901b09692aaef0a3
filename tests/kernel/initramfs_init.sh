#!/bin/busybox sh
# The kernel tier's first stage, /init of the initramfs (busybox): load virtio, 9p and overlay,
# mount the host's root read-only over 9p with a tmpfs overlay on top, and switch to it. The
# second stage (boot.sh, named by the kernel's command line as menace_stage2) runs from there.
/bin/busybox --install -s /bin
mkdir -p /proc /dev /lower /rw /newroot
mount -t proc proc /proc
mount -t devtmpfs dev /dev
say() { echo "menace-tier: $*" > /dev/console; }
for module in $(cat /modules/order); do
    insmod "/modules/$module.ko" || { say "cannot load $module"; poweroff -f; }
done
mount -t 9p -o trans=virtio,version=9p2000.L,ro,cache=loose,msize=262144 hostroot /lower \
    || { say "cannot mount the host's root"; poweroff -f; }
mount -t tmpfs -o mode=0755 overlay-rw /rw
mkdir /rw/upper /rw/work
mount -t overlay -o lowerdir=/lower,upperdir=/rw/upper,workdir=/rw/work overlay /newroot \
    || { say "cannot mount the overlay"; poweroff -f; }
umount /proc /dev
exec switch_root /newroot /bin/sh "$menace_stage2"
