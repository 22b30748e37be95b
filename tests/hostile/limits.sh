#!/usr/bin/env bash
# limits.sh BUILD_DIR - hostile bots against the clocks, the memory limit, the output caps and
# the protocol (sandbox research table (b) rows 26-36): each gets its exact verdict (TLE, MLE,
# OLE, PE, RE with the right signal) in every game, or none where the table says the arena
# must shrug it off (an 8 GiB PROT_NONE reservation, a stderr flood, a bot that ignores Bye and
# SIGTERM); the arena never blocks, the good bot is unharmed, nothing is left running.
source "$(dirname "$0")/lib.bash" "$@"

# ---- time ---------------------------------------------------------------------------------
for mode in busy sleep block_read stopself threads8 noread; do
    play "$mode" "$HB --mode $mode --tag @TAG@"
    verdict "$mode" TLE
    [ "$mode" = threads8 ] && has_re threads8 "^HB spinners: [0-9]+ threads \+ main$"
done

# ignores Bye, EOF and SIGTERM, spins: killed after the match's grace second, no verdict
play ignore_term "$HB --mode ignore_term --tag @TAG@"
verdict ignore_term OK
has_line ignore_term "ignoring SIGTERM and friends"
check "ignore_term: the arena does not wait for it (${SECS} ms)" test "$SECS" -lt 15000

# ---- memory -------------------------------------------------------------------------------
play mem "$HB --mode mem --tag @TAG@" "${MEMCLOCK[@]}"
verdict mem MLE
no_line mem "allocated 400 MiB"

# virtual size is not memory: 8 GiB of PROT_NONE address space, 1 MiB of it used
play prot_none "$HB --mode prot_none --tag @TAG@"
verdict prot_none OK
has_line prot_none "mmap 8 GiB PROT_NONE: OK"
has_line prot_none "mprotect 1 MiB: OK"
has_line prot_none "touched 1 MiB"

# ---- output -------------------------------------------------------------------------------
# 65 KB of one never-finished frame with a 4 KiB stdout cap: over the cap before any frame
# is complete, so the verdict can only be OLE
play stdout_flood "$HB --mode stdout_flood --tag @TAG@" --stdout-cap 4096
verdict stdout_flood OLE

# 16 MiB on stderr: kept up to --log-cap, the rest dropped, no verdict
play stderr_flood "$HB --mode stderr_flood --tag @TAG@" --log-cap 100000
verdict stderr_flood OK
check "stderr_flood: the log is capped ($(stat -c %s "$LOG" 2>/dev/null) bytes, cap 100000)" \
    test "$(stat -c %s "$LOG" 2>/dev/null || echo 0)" -lt 101000
check "stderr_flood: the bytes were counted" py "h['stderr_bytes'] > 16000000"

play garbage "$HB --mode garbage --tag @TAG@"
verdict garbage PE

# a frame announced as 1 GiB, then the bytes: refused at the header, nothing buffered
play bigline "$HB --mode bigline --tag @TAG@"
verdict bigline PE
check "bigline: the arena stayed small" py "r['arena_max_rss_kb'] < 200000"

play closeout "$HB --mode closeout --tag @TAG@"
verdict closeout RE "closed its output"

# ---- crashes: the bot's own signal, not its init's ------------------------------------------
play abort "$HB --mode abort --tag @TAG@"
verdict abort RE SIGABRT
play segv "$HB --mode segv --tag @TAG@"
if [ "${OKR_SANITIZE:-0}" = 1 ]; then
    # the ASan/UBSan build's bot: the sanitizer reports the null store (or the SIGSEGV) and
    # exits 1 before the signal
    verdict segv RE "status 1"
    has_re segv "runtime error: store to null pointer|AddressSanitizer: SEGV"
else
    verdict segv RE SIGSEGV
fi
play exit3 "$HB --mode exit3 --tag @TAG@"
verdict exit3 RE "status 3"

finish
