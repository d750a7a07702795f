#!/bin/sh
# A one-node Slurm on this machine, for the job-array test and for trying scripts/slurm/ by hand:
#   local-cluster.sh start DIR   munged + slurmctld + slurmd, every file (config, state, spool, logs,
#                                pids, munge socket and key) in DIR; waits for an idle node; writes
#                                DIR/env (". DIR/env" sets SLURM_CONF for sbatch, squeue, sacct...)
#   local-cluster.sh stop DIR    stops the three daemons by their pid files and removes DIR
# Run as root (SlurmUser=root): the test machine, not a real cluster (docs/scale-out.md). Ports
# default to 16817/16818 (SAGE_SLURM_PORT, +1), so a real Slurm on this machine is not disturbed.
set -eu
action=${1:?usage: local-cluster.sh start|stop DIR}
dir=${2:?usage: local-cluster.sh start|stop DIR}

stop_by_pidfile() {
    [ -f "$1" ] || return 0
    pid=$(cat "$1" 2>/dev/null || true)
    [ -n "$pid" ] || return 0
    kill "$pid" 2>/dev/null || return 0
    i=0
    while kill -0 "$pid" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
    kill -9 "$pid" 2>/dev/null || true
}

case "$action" in
start)
    if [ "${SAGE_SKIP_SLURM_TESTS:-}" = 1 ]; then
        echo "local-cluster: SAGE_SKIP_SLURM_TESTS=1, no cluster started"
        exit 0
    fi
    for tool in munged slurmctld slurmd sbatch sinfo; do
        command -v "$tool" >/dev/null 2>&1 || [ -x "/usr/sbin/$tool" ] || {
            echo "local-cluster: error: $tool not found. Install Debian's slurm-wlm and munge (scripts/install-deps.sh)." >&2
            exit 1
        }
    done
    [ "$(id -u)" = 0 ] || { echo "local-cluster: error: run as root (SlurmUser=root in this test cluster)" >&2; exit 1; }
    [ -d "$dir" ] && "$0" stop "$dir"
    mkdir -p "$dir/state" "$dir/spool" "$dir/munge" "$dir/log"
    chmod 700 "$dir/munge"
    port=${SAGE_SLURM_PORT:-16817}
    host=$(hostname -s)
    # A key of its own: nothing here trusts or is trusted by another munge.
    dd if=/dev/urandom of="$dir/munge/munge.key" bs=1 count=1024 2>/dev/null
    chmod 400 "$dir/munge/munge.key"
    /usr/sbin/munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" \
        --pid-file="$dir/munge/munged.pid" --log-file="$dir/log/munged.log" --seed-file="$dir/munge/munged.seed"
    cat >"$dir/slurm.conf" <<CONF
ClusterName=sagetest
SlurmctldHost=$host
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
SlurmdTimeout=30
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=sage Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
    export SLURM_CONF="$dir/slurm.conf"
    echo "export SLURM_CONF=$dir/slurm.conf" >"$dir/env"
    /usr/sbin/slurmctld -f "$SLURM_CONF" -i
    /usr/sbin/slurmd -f "$SLURM_CONF"
    i=0
    until sinfo -h -o %t 2>/dev/null | grep -q '^idle'; do
        i=$((i + 1))
        if [ $i -gt 60 ]; then
            echo "local-cluster: error: no idle node after 30 s; see $dir/log/" >&2
            sinfo >&2 || true
            tail -n 20 "$dir/log/slurmctld.log" "$dir/log/slurmd.log" >&2 || true
            exit 1
        fi
        sleep 0.5
    done
    echo "local-cluster: Slurm $(sinfo -V | awk '{print $2}') node $host idle ($(nproc) CPUs); . $dir/env"
    ;;
stop)
    stop_by_pidfile "$dir/slurmd.pid"
    stop_by_pidfile "$dir/slurmctld.pid"
    stop_by_pidfile "$dir/munge/munged.pid"
    rm -rf "$dir"
    ;;
*)
    echo "usage: local-cluster.sh start|stop DIR" >&2
    exit 2
    ;;
esac
