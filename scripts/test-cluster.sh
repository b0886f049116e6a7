#!/usr/bin/env bash
# `make test-cluster`: plans run through a real Slurm of three nodes, with faults.
# Installs Slurm and munge from Debian's packages when missing, starts one
# slurmctld and three slurmd daemons on this machine (`slurmd -N n1` and so on,
# one port each, everything on loopback) with their own configuration in a
# temporary folder (the system's /etc/slurm is not touched), and then:
#  1. the README's commands as written (plan, submit.sh, status) on a stock
#     scheduler, for 5x7 Knuth and a 4x7 proof;
#  2. a 4x9 proof while one node is killed with its running task: Slurm requeues
#     the task on another node;
#  3. two attempts at the same task at once (a resubmission racing the first);
#  4. a run folder on a file system too small for every item: tasks fail with the
#     disk full, the merge names what to rerun and writes nothing, and after more
#     room the rerun completes;
#  5. a campaign (make campaign) whose items' searches and parts' checks are srun
#     jobs on the three nodes;
#  6. such a campaign while one node is killed with its running search: the
#     campaign tries the item again on another node.
# Each merged tree must equal a single mmgen run byte for byte. Every daemon it
# started is stopped by its pid, also on failure, and pgrep must then find none.
#
# Usage: scripts/test-cluster.sh BIN_DIR (where mmgen and mmlookup are).
# The same run measures bigger plans (BENCHMARKS.md, work items): BOARD and PLAN
# (extra `mmgen plan` options) and WAIT (seconds) replace step 1's boards, and
# steps 2 to 4 are left out, e.g.
#   BOARD="--pegs 7 --colors 7 --strategy knuth" PLAN="--depth 2 --tasks 64" \
#   WAIT=3600 scripts/test-cluster.sh target/release
set -euo pipefail
bin=$(cd "${1:?usage: test-cluster.sh BIN_DIR}" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd)
if [ -n "${BOARD:-}" ]; then
  boards=("$BOARD")
  faults=""
else
  boards=("--pegs 5 --colors 7 --strategy knuth" "--pegs 4 --colors 7 --strategy optimal")
  faults=yes
fi
wait_for=${WAIT:-300}
nodes=(n1 n2 n3)

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
small="$work/full/items"
started_munge=""
# The processes of `pid` and all its descendants, deepest first.
descendants() {
  local child
  for child in $(pgrep -P "$1" || true); do
    descendants "$child"
    echo "$child"
  done
}
# A job step's daemon on this machine (slurmstepd: [JOBID.batch], or [JOBID.0] for
# srun's) and what it runs.
step_processes() {
  local step
  for step in $(pgrep -f "^slurmstepd: \[$1\.(batch|[0-9]+)\]" || true); do
    descendants "$step"
    echo "$step"
  done
}
stop_pid() {
  local pid=$1
  kill "$pid" 2>/dev/null || return 0
  for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null || true
}
cleanup() {
  set +e
  # Jobs first (their step daemons end with them), then the daemons by their pids.
  if [ -s "$work/slurmctld.pid" ]; then
    for job in $(squeue -h -o %A 2>/dev/null); do
      scancel "$job" 2>/dev/null
      for pid in $(step_processes "$job"); do kill -9 "$pid" 2>/dev/null; done
    done
  fi
  for node in "${nodes[@]}"; do
    [ -s "$work/slurmd-$node.pid" ] && stop_pid "$(cat "$work/slurmd-$node.pid")"
  done
  [ -s "$work/slurmctld.pid" ] && stop_pid "$(cat "$work/slurmctld.pid")"
  [ -n "$started_munge" ] && stop_pid "$started_munge"
  mountpoint -q "$small" && umount "$small"
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

host=$(hostname -s)
memory=$(awk '/MemTotal/ { print int($2 / 1024 / 6) }' /proc/meminfo)
mkdir -p "$work/state" "$work/log"
export SLURM_CONF="$work/slurm.conf"
# A node silent for SlurmdTimeout seconds is marked down (300 by default; a few
# here, so that a lost node is noticed within the test).
cat > "$SLURM_CONF" <<EOF
ClusterName=mmtree-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=16817
SlurmUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
SlurmdTimeout=5
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool-%n
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd-%n.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd-%n.log
EOF
port=17001
for node in "${nodes[@]}"; do
  echo "NodeName=$node NodeHostname=$host NodeAddr=127.0.0.1 Port=$port CPUs=1 RealMemory=$memory State=UNKNOWN" >> "$SLURM_CONF"
  port=$((port + 1))
done
echo "PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP" >> "$SLURM_CONF"

# Up: `sinfo` lists every node idle.
all_idle() {
  [ "$(sinfo -h -N -o '%N %T' 2>/dev/null | grep -c ' idle$')" = "${#nodes[@]}" ]
}
slurmctld -f "$SLURM_CONF"
for node in "${nodes[@]}"; do slurmd -f "$SLURM_CONF" -N "$node"; done
for _ in $(seq 150); do all_idle && break; sleep 0.2; done
all_idle || fail "the nodes did not come up: $(sinfo -h -N -o '%N %T' | tr '\n' ' ') (logs in $work/log)"
say "three-node cluster up: ${nodes[*]} on $host"

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
# Waits (bounded) until Slurm's queue is empty.
drain() {
  local deadline=$((SECONDS + wait_for))
  while [ -n "$(squeue -h -o %i 2>/dev/null)" ]; do
    [ $SECONDS -lt $deadline ] || fail "jobs still queued after $wait_for s: $(squeue -h | tr '\n' ';')"
    sleep 1
  done
}
# The single run's file for a board (mmgen ARGS), made once.
single() {
  local file
  file="$work/single-$(echo "$*" | tr -c 'a-z0-9' '_').mmt"
  [ -s "$file" ] || "$bin/mmgen" "$@" --out "$file" >/dev/null
  echo "$file"
}
# The merged tree of RUN equals the single run of the board; audited.
same_as_single() {
  local run=$1; shift
  [ -s "$run/tree.mmt" ] || fail "no merged tree in $run ($(cat "$run/logs/merge.out" 2>/dev/null))"
  cmp "$run/tree.mmt" "$(single "$@")" || fail "$*: the merged tree differs from a single run"
  "$bin/mmlookup" audit "$run/tree.mmt" >/dev/null
  leftovers=$(find "$run" -name '*.tmp-*' | wc -l)
  [ "$leftovers" = 0 ] || fail "temporary files left in $run: $(find "$run" -name '*.tmp-*')"
}

# 1. The README's commands as written: no plan options, a stock scheduler.
passed=0
for spec in "${boards[@]}"; do
  read -r -a board <<< "$spec"
  read -r -a plan <<< "${PLAN:-}"
  run="$work/run-$passed"
  t0=$(now)
  "$bin/mmgen" plan "${board[@]}" "${plan[@]}" --dir "$run"
  t1=$(now)
  "$run/submit.sh"
  drain
  t2=$(now)
  "$bin/mmgen" status --dir "$run"
  "$bin/mmgen" "${board[@]}" --out "$work/timed.mmt" >/dev/null
  t3=$(now)
  same_as_single "$run" "${board[@]}"
  say "$spec: the array and merge job across three nodes built the single run's bytes"
  say "$(awk -v a="$t0" -v b="$t1" -v c="$t2" -v d="$t3" 'BEGIN {
    printf "wall: plan %.1f s, items and merge through Slurm %.1f s (together %.1f s); single run %.1f s", b - a, c - b, c - a, d - c }')"
  passed=$((passed + 1))
done
[ -n "$faults" ] || { echo "test-cluster: $passed passed, 0 failed"; exit 0; }

# 2. A node lost mid-run, with its task: a 4x9 proof in three tasks (several
# seconds each), one node killed two seconds after the first task started. (4x8's
# tasks of the leaner search, about a second each, could end before the kill.)
board=(--pegs 4 --colors 9 --strategy optimal)
run="$work/lost-node"
"$bin/mmgen" plan "${board[@]}" --tasks 3 --dir "$run" >/dev/null
t0=$(now)
"$run/submit.sh" >/dev/null
job=""
for _ in $(seq 300); do
  [ -n "$(squeue -h -t RUNNING -n mmtree-items -o %A)" ] && break
  sleep 0.1
done
sleep 2
read -r job victim task < <(squeue -h -t RUNNING -n mmtree-items -o '%A %N %i' | head -n 1) || true
[ -n "$job" ] && [ -n "$(step_processes "$job")" ] || fail "no item task is running to be lost"
kill -9 "$(cat "$work/slurmd-$victim.pid")"
for pid in $(step_processes "$job"); do kill -9 "$pid" 2>/dev/null || true; done
say "lost node: killed $victim's slurmd and its running task $task (job $job) $(since "$t0") s into the run"
t_kill=$(now)
for _ in $(seq 120); do
  case "$(sinfo -h -n "$victim" -o %T)" in down*) break ;; esac
  sleep 1
done
case "$(sinfo -h -n "$victim" -o %T)" in down*) ;; *) fail "$victim is not marked down" ;; esac
restarts=$(scontrol show job "$job" | sed -n 's/.*Restarts=\([0-9]*\).*/\1/p')
[ "${restarts:-0}" -ge 1 ] || fail "task $task was not requeued: $(scontrol show job "$job" | tr '\n' ' ')"
say "lost node: Slurm marked $victim down $(since "$t_kill") s later and requeued task $task (restarts: $restarts)"
# Slurm holds a requeued task about two minutes before it may start again
# (measured here); an operator may release it at once, as the test does.
scontrol update JobId="$job" StartTime=now
drain
same_as_single "$run" "${board[@]}"
say "lost node: task $task ran again on another node; the merged 4x9 proof equals the single run ($(since "$t0") s in all)"
slurmd -f "$SLURM_CONF" -N "$victim"
for _ in $(seq 150); do all_idle && break; sleep 0.2; done
all_idle || fail "$victim did not come back"

# 3. Two attempts at the same task at once: the plan's task 0 submitted on its own
# beside the plan's array, both held, then released by one command, so that one
# scheduling pass starts both attempts together on two nodes (as a requeue racing
# a slow first attempt would run). Submitted one after the other, unheld, the
# first attempt of this seconds-long task (half a 4x8 proof) once ended before
# the array's copy started on a busy CI machine. The plan is certified: the merge
# job writes the proof's certificate too, and mmcheck checks it. Even so, a CI
# machine busy with other work once saw the attempts one after the other (each
# merge still the single run's bytes): the scene is played again, up to three
# times, until Slurm runs them together.
board=(--pegs 4 --colors 8 --strategy optimal)
for try in 1 2 3; do
  run="$work/twice-$try"
  "$bin/mmgen" plan "${board[@]}" --certificate --tasks 2 --dir "$run" >/dev/null
  mkdir -p "$run/logs"
  sbatch --hold --array=0 --output="$run/logs/again-%a.out" "$run/items.sbatch" >/dev/null
  SBATCH_HOLD=1 "$run/submit.sh" >/dev/null
  held=$(squeue -h -o %F | sort -u | tr '\n' ' ')
  # shellcheck disable=SC2086 # one job id per word
  scontrol release $held
  both=""
  for _ in $(seq 300); do
    running=$(squeue -h -t RUNNING -n mmtree-items -o %i | grep -c "_0$" || true)
    [ "$running" -ge 2 ] && { both=yes; break; }
    [ -z "$(squeue -h -n mmtree-items -o %i)" ] && break
    sleep 0.05
  done
  drain
  grep -q "^item " "$run/logs/again-0.out" || fail "the second attempt did not run: $(cat "$run/logs/again-0.out")"
  same_as_single "$run" "${board[@]}"
  [ -z "$both" ] || break
  say "two attempts: try $try of 3 ran task 0's attempts one after the other (its merge is the single run's); trying again"
done
[ -n "$both" ] || fail "the two attempts at task 0 did not run at the same time in 3 tries"
checked=$("$bin/mmcheck" "$run/tree.mmt" "$run/tree.mmc" 2>&1) || true
case "$checked" in
  "optimal: total 20471, proven (certificate checked: "*) ;;
  *) fail "the merged certificate of $run does not check: $checked" ;;
esac
say "two attempts: task 0 ran twice at the same time (on two nodes); the merge equals the single run, and its certificate checks"

# 4. A disk too small for every item: the plan's items/ folder on a tmpfs with room
# for about a third of them (a file takes at least a 4 KiB page there); the logs
# stay on the main disk, so the tasks' messages are kept.
board=(--pegs 5 --colors 7 --strategy knuth)
run="$work/full"
"$bin/mmgen" plan "${board[@]}" --tasks 3 --dir "$run" >/dev/null
jobs=$("$bin/mmgen" status --dir "$run" --json | sed -n 's/.*"jobs":\([0-9]*\).*/\1/p')
small="$run/items"
mount -t tmpfs -o size=$((jobs * 4 / 3))k tmpfs "$small"
"$run/submit.sh" >/dev/null
drain
status=$("$bin/mmgen" status --dir "$run" --json)
missing=$(echo "$status" | sed -n 's/.*"missing":\([0-9]*\).*/\1/p')
damaged=$(echo "$status" | sed -n 's/.*"damaged":\([0-9]*\).*/\1/p')
[ "$missing" -gt 0 ] || fail "the disk did not fill up"
[ "$damaged" = 0 ] || fail "$damaged items damaged: a half-written item was taken as an item"
grep -qs "No space left on device" "$run"/logs/item-*.out || fail "no task said the disk was full: $(cat "$run"/logs/item-*.out)"
[ ! -e "$run/tree.mmt" ] || fail "a tree was merged from an incomplete run"
if "$bin/mmgen" merge --dir "$run" --out "$run/tree.mmt" 2> "$work/merge.err"; then
  fail "mmgen merge wrote a tree with $missing items missing"
fi
grep -qF "not every item is done; to solve (mmgen solve-class --dir $run INDEX...): missing" "$work/merge.err" || fail "merge said: $(cat "$work/merge.err")"
[ ! -e "$run/tree.mmt" ] || fail "merge left a file"
say "disk full: $missing of $jobs items could not be written (No space left on device); none taken as done; merge named them and wrote nothing"
mount -o remount,size=16m "$small"
"$bin/mmgen" status --dir "$run" --todo | xargs -n 1 -P 2 "$bin/mmgen" solve-class --dir "$run" >/dev/null
"$bin/mmgen" merge --dir "$run" --out "$run/tree.mmt" >/dev/null
same_as_single "$run" "${board[@]}"
say "disk full: with room again, the items left were rerun and the merge equals the single run"
passed=$((passed + 3))

# 5. A campaign (scripts/campaign.sh, as `make campaign LAUNCH=...` runs it) whose
# items' searches and parts' checks run as Slurm jobs (srun), three at a time on the
# three nodes: a 4x7 proof in parts, kept in a campaign folder as the repository
# keeps 4x12's. Each job notes its node, its job, its program and its last
# argument (the item, or the part) in the file LAUNCHED names; the campaign merges
# the tree, which must be the single run's, and checks its top certificate with the
# ledger.
printf '%s\n' '#!/bin/sh' 'for arg; do case $arg in */mmgen | */mmcheck) program=${arg##*/} ;; esac; last=$arg; done' \
  'echo "$SLURMD_NODENAME $SLURM_JOB_ID $program ${last##*/}" >> "$LAUNCHED"' \
  'exec "$@"' > "$work/on-node.sh"
chmod +x "$work/on-node.sh"
launch="srun --ntasks=1 --cpus-per-task=1 --quiet $work/on-node.sh"
# A certified campaign NAME of a board (mmgen ARGS) in $work/NAME, three workers
# through srun, started in the background.
start_campaign() {
  local name=$1; shift
  mkdir -p "$work/$name/campaigns"
  "$bin/mmgen" plan "$@" --certificate --dir "$work/$name/campaigns/$name" >/dev/null
  (cd "$work/$name" && LAUNCHED="$work/$name/launched.txt" LAUNCH="$launch" \
    "$root/scripts/campaign.sh" "$name" "$work/$name/work" 3 64 "$bin" "" > "$work/$name/said.txt" 2>&1) &
}
# Waits (bounded) for the campaign NAME started as PID; its tree must be the single
# run's of the board (mmgen ARGS) and its proof of TOTAL checked with the ledger.
campaign_proved() {
  local pid=$1 name=$2 total=$3 deadline=$((SECONDS + wait_for))
  shift 3
  while kill -0 "$pid" 2>/dev/null; do
    [ $SECONDS -lt $deadline ] || { kill "$pid"; fail "campaign $name still running after $wait_for s"; }
    sleep 1
  done
  wait "$pid" || fail "campaign $name failed: $(cat "$work/$name/said.txt")"
  grep -q "optimal: total $total, proven (certificate checked: .* premises taken from the checks of its parts recorded in" \
    "$work/$name/said.txt" || fail "campaign $name did not end with its proof checked: $(cat "$work/$name/said.txt")"
  cmp "$work/$name/work/$name/optimal-$name.mmt" "$(single "$@")" || fail "campaign $name: its tree differs from the single run"
}
# How many jobs of campaign NAME ran PROGRAM.
launched_count() { awk -v p="$2" '$3 == p' "$work/$1/launched.txt" | grep -c . || true; }

board=(--pegs 4 --colors 7 --strategy optimal)
t0=$(now)
start_campaign c47 "${board[@]}"
campaign_proved $! c47 11228 "${board[@]}"
notes="$work/c47/launched.txt"
items=$("$bin/mmgen" status --dir "$work/c47/campaigns/c47" --json | sed -n 's/.*"jobs":\([0-9]*\).*/\1/p')
searched=$(launched_count c47 mmgen)
checks=$(launched_count c47 mmcheck)
parts=$(grep -c '^part ' "$work/c47/campaigns/c47/parts.txt" || true)
on=$(cut -d ' ' -f 1 "$notes" | sort -u | grep -c . || true)
jobs_run=$(cut -d ' ' -f 2 "$notes" | sort -u | grep -c . || true)
# One search a take, each a Slurm job: an item asked for its share of its guess's
# gap may be taken again once its guess's other items leave it open (budgets are
# drawn from the items done by then, which depends on the jobs' timing), and items
# solved at once are taken together ("N items solved at once (...): solving from").
takes=$(grep -c ': solving from' "$work/c47/said.txt" || true)
taken=$(awk '/: solving from/ { n += ($1 ~ /^[0-9]+$/) ? $1 : 1 } END { print n + 0 }' "$work/c47/said.txt")
[ "$searched" = "$takes" ] && [ "$taken" -ge "$items" ] ||
  fail "$searched searches ran as Slurm jobs for $takes takes of $taken items, of $items: $(cat "$notes")"
# Every item solved writes a part (one that proves nothing holds no fact and no ledger line).
[ "$checks" = "$taken" ] && [ "$parts" -gt 0 ] || fail "$checks checks ran as Slurm jobs for $taken items solved ($parts ledger lines)"
[ "$on" -ge 2 ] || fail "every job ran on one node: $(cat "$notes")"
[ "$jobs_run" = $((searched + checks)) ] || fail "$jobs_run Slurm jobs for $((searched + checks)) commands"
say "campaign: $items items ($taken solved in $searched searches) and $checks parts checked as $jobs_run Slurm jobs on $on nodes ($(since "$t0") s); its 4x7 tree equals the single run, its top certificate checked with the ledger"

# 6. A campaign's job lost with its node: a 4x9 campaign as in 5; 3 s after the
# search of item 1 (1234's class of 2,401 secrets, about 20 s) began, its node's
# slurmd and the job's processes are killed. Slurm marks the node down and ends
# the job; the campaign tries the item again on another node and ends with the
# single run's tree, its proof checked.
board=(--pegs 4 --colors 9 --strategy optimal)
t0=$(now)
start_campaign c49 "${board[@]}"
campaign=$!
notes="$work/c49/launched.txt"
item_1() { awk '$3 == "mmgen" && $4 == "1" { print $1, $2; exit }' "$notes" 2>/dev/null || true; }
for _ in $(seq 600); do [ -n "$(item_1)" ] && break; sleep 0.2; done
read -r victim job < <(item_1) || fail "item 1 of the 4x9 campaign was not launched: $(cat "$work/c49/said.txt")"
sleep 3
[ "$(squeue -h -j "$job" -t RUNNING -o %i 2>/dev/null)" = "$job" ] || fail "item 1's job $job ended within 3 s: nothing to lose"
kill -9 "$(cat "$work/slurmd-$victim.pid")"
for pid in $(step_processes "$job"); do kill -9 "$pid" 2>/dev/null || true; done
say "campaign, lost node: killed $victim's slurmd and item 1's search (job $job) $(since "$t0") s into the 4x9 campaign"
campaign_proved "$campaign" c49 34666 "${board[@]}"
grep -q "the job of item 1's search failed (try 1 of 3); trying again" "$work/c49/said.txt" ||
  fail "the campaign did not say it tried item 1 again: $(cat "$work/c49/said.txt")"
again=$(awk -v v="$victim" '$3 == "mmgen" && $4 == "1" && $1 != v { print $1; exit }' "$notes")
[ -n "$again" ] || fail "item 1 did not run again on another node: $(cat "$notes")"
say "campaign, lost node: item 1 ran again on $again; the 4x9 campaign's tree equals the single run, its proof checked ($(since "$t0") s in all)"
slurmd -f "$SLURM_CONF" -N "$victim"
for _ in $(seq 150); do all_idle && break; sleep 0.2; done
all_idle || fail "$victim did not come back"
passed=$((passed + 2))

# Every daemon stopped by its pid, and none left.
trap - EXIT
cleanup
left=$(pgrep -af "slurmctld|slurmd|slurmstepd" | grep -v "^$$ " || true)
[ -z "$left" ] || fail "daemons left running: $left"
echo "test-cluster: $passed passed, 0 failed; no Slurm daemon left running (pgrep finds none)"
