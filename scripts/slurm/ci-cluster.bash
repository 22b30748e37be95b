# ci-cluster.bash - a throwaway single-node Slurm cluster for CI (sourced, not run):
#   source scripts/slurm/ci-cluster.bash; slurm_ci_start DIR || skip; ...; slurm_ci_stop
# Installs Debian's slurmctld, slurmd, slurm-client and munge with apt-get if they are missing
# (CI starts from a fresh machine; needs root), starts munged, slurmctld and slurmd with a
# slurm.conf of their own in DIR (SLURM_CONF is exported; /etc/slurm is not touched) and
# waits until the node is idle. Follows ../shared/research/distributed.md, verified on a
# Debian 12 VM without systemd: proctrack/linuxproc and task/none (the cgroup plugins make
# every step fail in containers and VMs), a fresh state folder per run (a drained node would
# stay drained), SlurmctldHost=$(hostname -s)(127.0.0.1). slurm_ci_stop stops the daemons by
# their pid files. On failure slurm_ci_start returns 1 with the reason in SLURM_CI_WHY.
SLURM_CI_DIR=
SLURM_CI_MUNGED=0
SLURM_CI_WHY=

slurm_ci_start() {
    local W=$1 H
    SLURM_CI_DIR=$W
    H=$(hostname -s)
    if ! command -v slurmctld > /dev/null || ! command -v slurmd > /dev/null ||
        ! command -v sbatch > /dev/null || ! command -v munged > /dev/null; then
        if [ "$(id -u)" -ne 0 ] || ! command -v apt-get > /dev/null; then
            SLURM_CI_WHY="Slurm is not installed and this is not root with apt-get"
            return 1
        fi
        echo "slurm: installing slurmctld slurmd slurm-client munge" >&2
        timeout 240 apt-get update -qq > "$W/apt.log" 2>&1 || true
        if ! DEBIAN_FRONTEND=noninteractive timeout 240 apt-get -o DPkg::Lock::Timeout=200 \
            install -y -qq --no-install-recommends slurmctld slurmd slurm-client munge \
            >> "$W/apt.log" 2>&1; then
            SLURM_CI_WHY="apt-get install failed: $(tail -n 3 "$W/apt.log" | tr '\n' ' ')"
            return 1
        fi
    fi
    if [ "$(id -u)" -ne 0 ]; then
        SLURM_CI_WHY="starting slurmd needs root"
        return 1
    fi
    if pgrep -x slurmctld > /dev/null || pgrep -x slurmd > /dev/null; then
        SLURM_CI_WHY="a slurmctld or slurmd is already running (pids $(pgrep -d, -x 'slurmctld|slurmd'))"
        return 1
    fi
    [ -s /etc/munge/munge.key ] || runuser -u munge -- mungekey -c
    if ! munge -n 2> /dev/null | unmunge > /dev/null 2>&1; then
        install -d -o munge -g munge -m 0755 /run/munge
        runuser -u munge -- /usr/sbin/munged || { SLURM_CI_WHY="munged does not start"; return 1; }
        SLURM_CI_MUNGED=1
    fi
    mkdir -p "$W/state" "$W/spool"
    cat > "$W/slurm.conf" <<CONF
ClusterName=ci
SlurmctldHost=$H(127.0.0.1)
SlurmUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MailProg=/bin/true
StateSaveLocation=$W/state
SlurmdSpoolDir=$W/spool
SlurmctldPidFile=$W/slurmctld.pid
SlurmdPidFile=$W/slurmd.pid
SlurmctldLogFile=$W/slurmctld.log
SlurmdLogFile=$W/slurmd.log
ReturnToService=2
SchedulerParameters=kill_invalid_depend
NodeName=$H NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=UNLIMITED State=UP
CONF
    export SLURM_CONF=$W/slurm.conf
    slurmctld -f "$SLURM_CONF" || { SLURM_CI_WHY="slurmctld does not start"; return 1; }
    slurmd -f "$SLURM_CONF" || { SLURM_CI_WHY="slurmd does not start"; return 1; }
    local i
    for i in $(seq 240); do
        sinfo -h -o %T 2> /dev/null | grep -qx idle && return 0
        sleep 0.25
    done
    SLURM_CI_WHY="the node did not become idle in 60 s: $(sinfo -h -o '%T %E' 2>&1 | head -1)"
    return 1
}

slurm_ci_stop() {
    local f p
    [ -n "$SLURM_CI_DIR" ] || return 0
    for f in "$SLURM_CI_DIR/slurmd.pid" "$SLURM_CI_DIR/slurmctld.pid"; do
        [ -s "$f" ] || continue
        p=$(cat "$f")
        kill -TERM "$p" 2> /dev/null
        for _ in $(seq 100); do kill -0 "$p" 2> /dev/null || break; sleep 0.1; done
    done
    if [ "$SLURM_CI_MUNGED" = 1 ] && [ -s /run/munge/munged.pid ]; then
        kill -TERM "$(cat /run/munge/munged.pid)" 2> /dev/null
    fi
    SLURM_CI_DIR=
}

# slurm_ci_test_start DIR - for a test script (tests/*/slurm.sh): the cluster up in DIR, or the
# test ends: SKIP (exit 77, ctest's skipped) where it cannot be had at all (not root), FAIL
# (exit 1) as root, where CI expects one: a cluster that does not come up is not a quiet pass.
slurm_ci_test_start() {
    local t0=$SECONDS
    if ! slurm_ci_start "$1"; then
        if [ "$(id -u)" -ne 0 ]; then
            echo "SKIP: no Slurm cluster: $SLURM_CI_WHY"
            exit 77
        fi
        echo "FAIL: no Slurm cluster: $SLURM_CI_WHY"
        exit 1
    fi
    echo "  cluster up in $((SECONDS - t0)) s"
}
