# tmux.bash - sourced (after ../match/lib.bash) by the play tests that drive `arena play --tty`
# in a real terminal: tty.sh, practice.sh and hint.sh. Skips the test (77) when tmux is not
# installed. The terminal is a tmux server of the test's own, killed when the test exits.
#   tmux_start NAME COMMAND     a 160x50 window running COMMAND, on server NAME + the test's tag
#   screen                      the pane with its history (2000 lines)
#   wait_for PATTERN [SECONDS]  until the pane shows PATTERN (grep -E); 10 s by default
#   keys KEYS...                tmux send-keys
command -v tmux >/dev/null || { echo "SKIP: no tmux"; exit 77; }

tmux_start() {
    S="$1$TAG"
    tmux -L "$S" kill-server 2>/dev/null
    trap 'tmux -L "$S" kill-server 2>/dev/null; cleanup' EXIT
    tmux -L "$S" new-session -d -x 160 -y 50 "$2"
}
screen() { tmux -L "$S" capture-pane -p -S -2000; }
wait_for() {
    local i
    for i in $(seq $((${2:-10} * 10))); do
        screen | grep -qE -- "$1" && return 0
        sleep 0.1
    done
    return 1
}
keys() { tmux -L "$S" send-keys "$@"; }
