#!/usr/bin/env bash
# `make test-cluster`: a plan run through a real Slurm. Installs Slurm and munge from
# Debian's packages when missing, starts a one-node cluster on localhost with its
# own configuration in a temporary folder (the system's /etc/slurm is not touched),
# submits the plan's job array and merge job with the plan's own submit.sh (the
# README's commands with their defaults, on Slurm's default scheduler), polls
# until they end (bounded), checks the merged tree against a single mmgen run byte
# for byte, and stops every daemon it started by its pid, also on failure.
#
# Usage: scripts/test-cluster.sh BIN_DIR (where mmgen and mmlookup are).
# The same run measures bigger plans (BENCHMARKS.md, work items): BOARD and PLAN
# (extra `mmgen plan` options) and WAIT (seconds) replace the defaults, e.g.
#   BOARD="--pegs 7 --colors 7 --strategy knuth" PLAN="--depth 2 --tasks 64" \
#   WAIT=3600 scripts/test-cluster.sh target/release
set -euo pipefail
bin=$(cd "${1:?usage: test-cluster.sh BIN_DIR}" && pwd)
# Without BOARD: a heuristic plan, then an exact proof as work items.
if [ -n "${BOARD:-}" ]; then
  boards=("$BOARD")
else
  boards=("--pegs 5 --colors 7 --strategy knuth" "--pegs 4 --colors 7 --strategy optimal")
fi
wait_for=${WAIT:-300}

say() { echo "test-cluster: $*"; }
fail() { echo "test-cluster: FAILED: $*" >&2; exit 1; }

if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null \
    || ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
  [ "$(id -u)" = 0 ] || fail "Slurm is missing and installing it needs root"
  say "installing slurmctld slurmd slurm-client munge"
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    slurmctld slurmd slurm-client munge >/dev/null
fi

work=$(mktemp -d /tmp/mmtree-cluster.XXXXXX)
started_munge=""
cleanup() {
  set +e
  for pidfile in "$work/slurmd.pid" "$work/slurmctld.pid"; do
    if [ -s "$pidfile" ]; then
      pid=$(cat "$pidfile")
      kill "$pid" 2>/dev/null
      for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -9 "$pid" 2>/dev/null
    fi
  done
  if [ -n "$started_munge" ]; then
    kill "$started_munge" 2>/dev/null
    for _ in $(seq 50); do kill -0 "$started_munge" 2>/dev/null || break; sleep 0.1; done
  fi
  rm -rf "$work"
}
trap cleanup EXIT

# munge: reuse one that runs, else start ours (a key is made if there is none).
if ! pgrep -x munged >/dev/null; then
  if [ ! -s /etc/munge/munge.key ]; then
    mkdir -p /etc/munge
    dd if=/dev/urandom bs=1 count=128 of=/etc/munge/munge.key status=none
  fi
  mkdir -p /run/munge /var/log/munge /var/lib/munge
  chown munge:munge /etc/munge/munge.key /run/munge /var/log/munge /var/lib/munge
  chmod 400 /etc/munge/munge.key
  runuser -u munge -- /usr/sbin/munged
  for _ in $(seq 50); do [ -s /run/munge/munged.pid ] && break; sleep 0.1; done
  started_munge=$(cat /run/munge/munged.pid)
  say "started munged (pid $started_munge)"
fi

node=$(hostname -s)
cpus=$(nproc)
memory=$(awk '/MemTotal/ { print int($2 / 1024 / 2) }' /proc/meminfo)
mkdir -p "$work/state" "$work/spool" "$work/log"
export SLURM_CONF="$work/slurm.conf"
cat > "$SLURM_CONF" <<EOF
ClusterName=mmtree-test
SlurmctldHost=$node(127.0.0.1)
SlurmUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF" -N "$node"
for _ in $(seq 100); do
  state=$(sinfo -h -o %T 2>/dev/null | head -n 1 || true)
  [ "$state" = idle ] && break
  sleep 0.2
done
[ "$state" = idle ] || fail "the node did not come up (sinfo says '$state'; logs in $work/log)"
say "one-node cluster up on $node ($cpus CPUs)"

now() { date +%s.%N; }
passed=0
for spec in "${boards[@]}"; do
  read -r -a board <<< "$spec"
  # The README's commands as written: no plan options, a stock scheduler.
  read -r -a plan <<< "${PLAN:-}"
  run="$work/run-$passed"
  t0=$(now)
  "$bin/mmgen" plan "${board[@]}" "${plan[@]}" --dir "$run"
  t1=$(now)
  "$run/submit.sh"
  deadline=$((SECONDS + wait_for))
  while [ -n "$(squeue -h -o %i 2>/dev/null)" ]; do
    [ $SECONDS -lt $deadline ] || fail "jobs still queued after $wait_for s: $(squeue -h)"
    sleep 1
  done
  t2=$(now)
  "$bin/mmgen" status --dir "$run"
  [ -s "$run/tree.mmt" ] || fail "the merge job wrote no tree ($(cat "$run/logs/merge.out" 2>/dev/null))"
  "$bin/mmgen" "${board[@]}" --out "$work/single.mmt" --force >/dev/null
  t3=$(now)
  cmp "$run/tree.mmt" "$work/single.mmt" || fail "$spec: the merged tree differs from a single run"
  "$bin/mmlookup" audit "$run/tree.mmt" >/dev/null
  say "$spec: the Slurm array and merge job built the single run's bytes"
  say "$(awk -v a="$t0" -v b="$t1" -v c="$t2" -v d="$t3" 'BEGIN {
    printf "wall: plan %.1f s, items and merge through Slurm %.1f s (together %.1f s); single run %.1f s", b - a, c - b, c - a, d - c }')"
  passed=$((passed + 1))
done
echo "test-cluster: $passed passed, 0 failed"
