#!/usr/bin/env bash
# syscalls.sh BUILD_DIR - hostile bots that try what the seccomp allow-list must stop (sandbox
# research table (b) rows 12-25): processes, signals, tracing, namespaces, keyrings, locks,
# SysV IPC, other ABIs, exotic kernel interfaces. A killed call is SV, naming the syscall when
# the arena can read the kernel's audit line (/dev/kmsg, root); a refused one is an errno the
# bot logs before it plays on. Either way the arena and the good bot carry on, nothing is left.
source "$(dirname "$0")/lib.bash" "$@"

# i386 int 0x80: killed as a foreign architecture; the evidence must not name the x86_64
# syscall that happens to share the number (20 = writev). First, while the kernel's audit
# rate limit (10 lines per 5 s) still lets its line through.
play int80 "$HB --mode int80 --tag @TAG@"
verdict int80 SV
check "int80: the verdict does not blame writev (the x86_64 syscall 20)" \
    py "all('writev' not in v['detail'] for v in verdicts)"
no_line int80 "int 0x80 getpid: returned"

# mode  syscall the kill must name ("-": check the kind only)
sv_cases=(
    "fork_bomb clone"
    "daemonize clone"
    "zombies clone"
    "kill_ppid kill"
    "kill_all kill"
    "kill_pg kill"
    "ptrace ptrace"
    "pvm process_vm_readv"
    "unshare unshare"
    "mount mount"
    "chroot chroot"
    "setns setns"
    "pivot_root pivot_root"
    "add_key add_key"
    "keyctl keyctl"
    "sysv_shm shmget"
    "sysv_msg msgget"
    "sysv_sem semget"
    "x32 -"
    "bpf bpf"
    "perf perf_event_open"
    "userfaultfd userfaultfd"
)
for c in "${sv_cases[@]}"; do
    read -r mode sc <<<"$c"
    play "$mode" "$HB --mode $mode --tag @TAG@"
    if [ "$sc" = - ]; then verdict "$mode" SV; else verdict "$mode" SV "$sc"; fi
done

# the parent seen from inside is our init (pid 1), not the arena
play kill_ppid2 "$HB --mode kill_ppid --tag @TAG@"
has_line kill_ppid2 "ppid 1"

# errno, and the bot plays on
play thread_bomb "$HB --mode thread_bomb --tag @TAG@"
verdict thread_bomb OK
has_re thread_bomb "^HB threads: [0-9] created, then EAGAIN$" # under pids.max (8 native)

# tgkill is allowed for raise() (its own pid), not for signalling anyone else (row 16)
play tgkill "$HB --mode tgkill --tag @TAG@ --arg $$"
verdict tgkill SV tgkill
no_line tgkill "tgkill: still alive"

play procmem "$HB --mode procmem --tag @TAG@"
verdict procmem OK
has_re procmem "^HB open /proc/1/mem: E[A-Z]+$"
has_re procmem "^HB opendir /proc/1/fd: E[A-Z]+$"
has_re procmem "^HB read /proc/1/maps: E[A-Z]+$"
no_line procmem "^HB open init fd [0-9]+ for writing: OK$"

play flock "$HB --mode flock --tag @TAG@"
verdict flock OK
has_line flock "open shared file: OK"
has_line flock "flock(LOCK_EX): EPERM"

play fcntl_lock "$HB --mode fcntl_lock --tag @TAG@"
verdict_in fcntl_lock SV OK
grep -q '"SV"' "$OUT/games.jsonl" || has_line fcntl_lock "fcntl(F_SETLK): EPERM"

play devshm "$HB --mode devshm --tag @TAG@"
verdict devshm OK
has_re devshm "^HB create /dev/shm file: E(NOENT|ACCES|ROFS)$"
check "devshm: nothing appeared in the host's /dev/shm" bash -c "! ls /dev/shm/$CT* 2>/dev/null | grep -q ."

play io_uring "$HB --mode io_uring --tag @TAG@"
verdict io_uring OK
has_line io_uring "io_uring_setup: ENOSYS"

# exec: allowed (the filter is installed before execve), but the shell stays confined: its
# first fork (dash: vfork) is killed; with no /bin/sh in the jail the exec itself fails
play exec_sh "$HB --mode exec_sh --tag @TAG@"
verdict_in exec_sh SV OK
if grep -q '"SV"' "$OUT/games.jsonl"; then verdict exec_sh SV vfork; else has_line exec_sh "execve /bin/sh: ENOENT"; fi
no_line exec_sh "root:"
no_line exec_sh "sh-ran"

[ "$KMSG" = 1 ] && check "SV names the syscall at least once (audit lines from /dev/kmsg): $SV_NAMED named" \
    test "$SV_NAMED" -gt 0
finish
