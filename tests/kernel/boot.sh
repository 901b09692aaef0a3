#!/bin/sh
# The kernel tier's second stage: pid 1 of the guest, run by the host's own /bin/sh on the
# overlay (tests/kernel/guest.py starts the guest; initramfs_init.sh switches to this). It mounts
# what a Linux desktop has (proc, sysfs, cgroup2 with every controller, devtmpfs, devpts, tmpfs;
# /tmp stays the overlay's, so a project or Python under the host's /tmp is reached), lays out
# the groups systemd would (user.slice/user-UID.slice with a root-owned session scope and the
# user's delegated user@UID.service), adds the normal user `golfer` (the first uid from 2000
# that the host leaves free), then runs each step under /tier/steps in order as its step.env
# says, records what it left, and powers off.
set -u
PATH=/usr/sbin:/usr/bin:/sbin:/bin
export PATH
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t cgroup2 cgroup2 /sys/fs/cgroup
mount -t devtmpfs dev /dev
mkdir -p /dev/pts /dev/shm
mount -t devpts -o gid=5,mode=620,ptmxmode=666 devpts /dev/pts
mount -t tmpfs -o mode=1777 shm /dev/shm
mount -t tmpfs -o mode=755 run /run
mkdir -p /tier
mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 results /tier
hostname tier
say() { echo "menace-tier: $(cut -d" " -f1 /proc/uptime) $*" > /dev/console; }

# The normal user, with the first uid from 2000 that the host's files leave free, and what it
# must reach opened to it in the overlay (/tier/open, one path a line: its Python and the
# project, which may lie under a home of mode 700): each folder on the way gets o+x, a folder
# named there o+rx.
uid=2000
while cut -d: -f3 /etc/passwd /etc/group | grep -qx $uid; do uid=$((uid + 1)); done
echo "golfer:x:$uid:$uid:golfer:/run/golfer:/bin/sh" >> /etc/passwd
echo "golfer:x:$uid:" >> /etc/group
mkdir -m 700 /run/golfer && chown golfer:golfer /run/golfer
while IFS= read -r path; do
    [ -d "$path" ] && chmod o+rx "$path"
    while [ "$path" != / ] && [ -n "$path" ]; do
        path=$(dirname "$path")
        chmod o+x "$path"
    done
done < /tier/open

# The groups, as systemd lays them out for a user's login.
CG=/sys/fs/cgroup
USER_SLICE=$CG/user.slice/user-$uid.slice
MANAGER=$USER_SLICE/user@$uid.service
APPS=$MANAGER/app.slice
SESSION=$USER_SLICE/session-1.scope
controllers="+cpu +memory +pids"
echo "$controllers +io" > $CG/cgroup.subtree_control
mkdir -p "$APPS" "$SESSION"
for group in "$CG/user.slice" "$USER_SLICE" "$MANAGER" "$APPS"; do
    echo "$controllers" > "$group/cgroup.subtree_control"
done
delegate() {  # hand a group to a user, as systemd's Delegate=yes does
    chown "$2" "$1" "$1/cgroup.procs" "$1/cgroup.subtree_control" "$1/cgroup.threads"
}
delegate "$MANAGER" $uid
delegate "$APPS" $uid

# The stand-in for systemd's user manager: makes a delegated scope for the process whose pid
# is written to its queue, moves the process in, and says so (tests/kernel/standin/systemd-run).
QUEUE=/run/systemd-standin
manager() {
    while :; do
        while read -r pid; do
            case $pid in *[!0-9]*|'') continue;; esac
            owner=$(stat -c %u "/proc/$pid") || continue
            scope=$APPS/run-u$pid.scope
            mkdir "$scope" && delegate "$scope" "$owner" && echo "$pid" > "$scope/cgroup.procs" \
                && touch "$QUEUE/granted.$pid"
        done < "$QUEUE/requests"
    done
}

user_processes() {  # the pid and name of each process of the user
    awk -v uid=$uid '/^Name:/ { name = $2 } /^Pid:/ { pid = $2 }
        /^Uid:/ && $2 == uid { print pid, name }' /proc/[0-9]*/status 2>/dev/null
}

for dir in /tier/steps/*/; do
    dir=${dir%/}
    name=${dir##*/}
    user=golfer; group=delegated; userns=1; standin=0; seconds=300
    . "$dir/step.env"
    echo "$userns" > /proc/sys/kernel/unprivileged_userns_clone
    case $group in
        delegated) place=$APPS/$name.scope; mkdir "$place"; delegate "$place" $uid;;
        session) place=$SESSION;;
        *) place=$CG;;
    esac
    path=/usr/local/bin:/usr/bin:/bin
    manager_pid=
    if [ "$standin" = 1 ]; then
        mkdir -p $QUEUE && mkfifo -m 622 $QUEUE/requests
        manager & manager_pid=$!
        path=$menace_standin:$path
    fi
    as=
    [ "$user" = golfer ] && as="setpriv --reuid=$uid --regid=$uid --init-groups"
    say "step $name"
    started=$(cut -d' ' -f1 /proc/uptime)
    timeout -k 5 "$seconds" sh -c 'echo $$ > "$0" && exec "$@"' "$place/cgroup.procs" \
        $as env -i HOME=/run/golfer USER=$user LOGNAME=$user PATH=$path LANG=C.UTF-8 \
        sh "$dir/run.sh" < /dev/null > "$dir/stdout" 2> "$dir/stderr"
    echo $? > "$dir/status"
    ended=$(cut -d' ' -f1 /proc/uptime)
    echo "$started $ended" > "$dir/uptime"
    if [ -n "$manager_pid" ]; then kill "$manager_pid"; rm -rf $QUEUE; fi
    # What the step left: the user's processes, and every group it added to the user's slice.
    sleep 0.2
    { echo "place ${place#"$USER_SLICE"/}"
      user_processes | sed 's/^/process /'
      (cd "$USER_SLICE" && find . -mindepth 1 -type d | sed 's|^\./||' \
          | grep -vx -e "user@$uid.service" -e "user@$uid.service/app.slice" -e session-1.scope \
          | sed 's/^/group /'); } > "$dir/after"
    for try in 1 2 3 4 5; do
        pids=$(user_processes | cut -d' ' -f1)
        [ -z "$pids" ] && break
        kill -9 $pids 2>/dev/null; sleep 0.2
    done
    # Leave the groups as the next step expects them: the step's own goes, with what it held,
    # and so do the stand-in's scopes (systemd collects a scope once it is empty), each as soon
    # as the processes killed above have left it.
    for scope in $( ([ "$group" = delegated ] && echo "$place"); \
                   find "$APPS" -mindepth 1 -maxdepth 1 -name 'run-u*'); do
        for try in 1 2 3 4 5 6 7 8 9 10; do
            find "$scope" -depth -type d -exec rmdir {} + 2>/dev/null
            [ -d "$scope" ] || break
            sleep 0.2
        done
        [ -d "$scope" ] && say "cannot remove $scope: $(cat "$scope/cgroup.procs" | tr '\n' ' ')"
    done
done
echo 1 > /proc/sys/kernel/unprivileged_userns_clone
sync
say "done"
busybox poweroff -f
