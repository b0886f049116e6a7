#!/usr/bin/env bash
# make campaign NAME=4x12 WORK=DIR [JOBS=2] [MIB=6144]: goes on with a long proof kept
# in campaigns/NAME as an exact plan's items, on machines that keep nothing between
# sessions. A certified item's certificate (a part of the proof, up to gigabytes) is
# checked where it is written (mmcheck --parts) and let go; its item file (kilobytes,
# naming the part and keeping its last fact) and the ledger line of its check are
# copied back into campaigns/NAME, to be committed. When every item is done, the tree
# is merged with its top certificate (a premise for each part) and checked with the
# ledger (docs/certificate.md, "A proof in parts").
#
# Each of JOBS workers takes an item not done, solves it on one thread with a cache of
# MIB MiB, checks its part and copies it back. An item saves what its search proved
# every 10 minutes in the work folder (mmgen solve-class --checkpoint-every), so one
# cut off with its session goes on from there if the machine kept the folder; such
# items come first, then FIRST (item numbers, in that order), then the rest as
# mmgen status --todo orders them, the search's order: guess by guess, each guess's
# classes smallest first. Budgets come from the items done: once a first guess is
# costed in full, its rivals' classes get tight budgets, and a guess's small
# classes, once costed, leave its big ones less to prove. Another
# campaign of the same NAME may run beside this one (to add workers): an item taken
# is marked with its worker's process number and start time, and a mark whose
# process is gone is cleared at the start.
#
# An item too big for a session is split a level deeper into a campaign of its own,
# NAME/within-INDEX (mmgen plan --within campaigns/NAME --item INDEX --dir
# campaigns/NAME/within-INDEX). NAME's campaign takes its splits' items too (a
# split's before its parent's, splits of one plan in the order its search takes
# their items; NAME's item INDEX is the split's), and once
# all of a split's items are done it is merged back into NAME's item, whose part is
# checked with NAME's ledger (the split's parts' lines added to it); then NAME's
# tree is merged. `make campaign NAME=NAME/within-INDEX` works on the split alone,
# under its cap: its item's budget in the plans above, filled in WORK too.
#
# On a cluster, LAUNCH (from the environment) runs each item's search and each
# part's check where the site wants them, e.g. LAUNCH="srun --ntasks=1
# --cpus-per-task=1 --mem=8G --quiet" runs each as a Slurm job of its own: this
# script stays the one place that takes items and keeps them (a login node will
# do), its JOBS workers then being jobs at once; WORK and BIN must be on a file
# system the nodes share. One campaign of a NAME at a time there: marks name
# processes of this machine. A job that fails (lost with its node, say) is tried
# again, up to three tries.
#
# A plan's floors (mmgen works them out first, hours on a big plan or split) are
# copied back into campaigns/NAME as they grow (floors.txt.part, every FLOORS_EVERY
# seconds, 600 unless set), to be committed: a campaign on a machine that kept
# nothing goes on from the part.
#
# With AGAIN (from the environment) naming items of NAME done but only shown to
# cost at least some total (by their shares of their guesses' gaps), the first
# worker solves those again first, each asked for all of its guess's gap (mmgen
# solve-class --again): so costed in full where that is below it. The search's
# order asks for such an item again only once every class of its guess is done
# or split a level deeper; where the guess's big classes are hours each and not
# split yet, its small ones are often cheap to cost in full first (5x8's 23 such
# items of 44 to 3,796 secrets took 0.1 to 81 s each and raised its lower bound
# from 174039 to 175501).
#
# With FILL (from the environment) naming a tree of the board, say
# FILL=trees/entropy-exact500-5x8.mmt, or without it campaigns/NAME/known.mmt if
# there is one, the campaign keeps WORK/NAME/known.mmt: the items done in that
# tree's places (mmgen merge --fill), made at the start and again after each of
# NAME's items is kept. Its total bounds the budgets of the first guesses still
# open, as the plan's heuristic's does, and a good tree's is lower: a rival first
# guess is shown dearer with less search (generator/src/plan/known.rs).
#
# Usage: [AGAIN="ITEM..."] scripts/campaign.sh NAME WORK [JOBS] [MIB] [BIN] [FIRST]
set -euo pipefail
name=$1
work=$2
jobs=${3:-2}
mib=${4:-6144}
bin=${5:-target/release}
first=${6:-}
launch=()
[ -z "${LAUNCH:-}" ] || read -ra launch <<< "$LAUNCH"
fill_tree=${FILL:-}
# A split's known.mmt is a tree of the whole board, read as it is (fill), never
# filled with the split's items: only a whole board's is.
case $name in
  */within-*) ;;
  *) [ -n "$fill_tree" ] || { [ ! -e "campaigns/$name/known.mmt" ] && [ ! -L "campaigns/$name/known.mmt" ]; } || fill_tree=campaigns/$name/known.mmt ;;
esac

fail() { echo "make campaign: $*" >&2; exit 1; }

# launched WHAT DONE COMMAND...: COMMAND (named WHAT in the log), through LAUNCH if
# it is set. Through LAUNCH it succeeded only if its job then made the file DONE:
# srun exits 0 when its job's node is lost (Slurm 22.05 here: "srun: error: Node
# failure"), so its status alone would take a lost search for a finished one. A
# launched command that fails is run again, up to three tries in all: an item goes
# on from its last save, a part's check from its record. Run here, its CPU goes to
# the log beside its wall clock: at nice 10 a worker yields to a session's other
# work, and an item of 5x8 took 1,519 s of wall clock for 741 s of search
# (BENCHMARKS.md, "Raising an item's floor partway").
launched() {
  local what=$1 done=$2 try
  shift 2
  if [ ${#launch[@]} -eq 0 ]; then
    local TIMEFORMAT="$what: %2U s of CPU, %2R s of wall clock"
    time "$@"
    return
  fi
  for try in 1 2 3; do
    rm -f "$done"
    if "${launch[@]}" sh -c '"$@" && : > "$0"' "$done" "$@" && [ -e "$done" ]; then
      rm -f "$done"
      return 0
    fi
    [ $try -lt 3 ] || return 1
    echo "make campaign: the job of $what failed (try $try of 3); trying again" >&2
  done
}

[ -f "campaigns/$name/plan.json" ] || fail "no campaign $name: campaigns/$name/plan.json is missing (mmgen plan --strategy optimal --certificate --dir campaigns/$name makes one)"
[ -d "$work/$name" ] || [ ! -f "$work/plan.json" ] || fail "WORK ($work) holds a plan itself: WORK is the folder the campaign works in, as WORK/$name; give the folder above it"

# merged LEVEL: whether LEVEL is a split already merged into its parent's item.
merged() {
  case $1 in
    */within-*) [ -e "campaigns/${1%/within-*}/items/${1##*/within-}.item" ] ;;
    *) return 1 ;;
  esac
}

# unmerged ROOT: ROOT's campaign and its splits not merged yet, a line each.
unmerged() {
  local level
  while read -r level; do
    merged "$level" || echo "$level"
  done < <(cd campaigns && find "$1" -name plan.json -printf '%h\n' | sort)
}

# The campaigns worked on: NAME and its splits not merged yet (ordered below).
mapfile -t found < <(unmerged "$name")
if [ ${#found[@]} = 0 ]; then
  echo "$name: merged into item ${name##*/within-} of ${name%/within-*} already; nothing to do"
  exit 0
fi

# fill KEPT RUN: the plan (and its items' floors, or the part of them worked out),
# the items done and the ledger kept in KEPT, as far as the work folder RUN lacks
# them: what is there already (from this machine's earlier runs) is never replaced.
fill() {
  mkdir -p "$2/items"
  put "$1/plan.json" "$2/plan.json"
  cmp -s "$1/plan.json" "$2/plan.json" || fail "$2/plan.json is another plan than $1/plan.json"
  [ ! -f "$1/parts.txt" ] || put "$1/parts.txt" "$2/parts.txt"
  [ ! -f "$1/floors.txt" ] || put "$1/floors.txt" "$2/floors.txt"
  # Floors cut off before they were whole (hours on a big plan), committed as they
  # stood: worked on from there.
  [ -f "$1/floors.txt" ] || [ ! -f "$1/floors.txt.part" ] || put "$1/floors.txt.part" "$2/floors.txt.part"
  # A split's known tree (a tree of the board that plays its class: its budgets
  # are drawn from its subtree there) is read as it is; NAME's is made from FILL.
  case $1 in
    */within-*) [ ! -f "$1/known.mmt" ] || put "$1/known.mmt" "$2/known.mmt" ;;
  esac
  for item in "$1"/items/*.item; do
    [ ! -e "$item" ] || put "$item" "$2/items/${item##*/}"
  done
}

# put FROM TO: FROM copied to TO unless TO is there, whole or not at all (a copy
# under another name, then linked as TO, which fails if TO is there): a campaign
# starting beside another never reads a file the other is still copying.
put() {
  [ ! -e "$2" ] || return 0
  cp "$1" "$2.$BASHPID.tmp" || fail "cannot copy $1 to $2"
  ln "$2.$BASHPID.tmp" "$2" 2> /dev/null || [ -e "$2" ] || fail "cannot write $2"
  rm -f "$2.$BASHPID.tmp"
}

# keep KEPT RUN INDEX [-n]: item INDEX of RUN, its part checked (if it was not, and
# let go since), and RUN's ledger, kept in KEPT (the ledger first); the part goes.
# One campaign at a time keeps an item (its lock, RUN/items/INDEX.lock; with -n, an
# item another campaign is keeping is left to it: returns 75); a part's check goes
# on from where a check cut off with its session got (RUN/items/INDEX.checked).
# Checks of several parts run side by side; the copies and the part's removal run
# under RUN's ledger lock, so that a merge sees no part half gone.
keep() {
  local part=$2/items/$3.mmc
  # Each step says its own failure: a caller's `keep ... || ...` turns set -e off here.
  (
    flock ${4:-} 9 || exit 75
    if [ -f "$part" ]; then
      launched "the check of ${part##*/}" "$2/items/$3.check-done" "$bin/mmcheck" --threads 1 --parts "$2/parts.txt" --resume "$2/items/$3.checked" "$part" || exit 1
    fi
    (
      flock 8 || exit 1
      if [ -f "$2/parts.txt" ]; then
        cp "$2/parts.txt" "$1/parts.txt.tmp" && mv "$1/parts.txt.tmp" "$1/parts.txt" || exit 1
      fi
      # The items' floors, worked out once in RUN (mmgen), kept with the plan (and
      # the part they were worked out from let go).
      if [ -f "$2/floors.txt" ]; then
        put "$2/floors.txt" "$1/floors.txt" && rm -f "$1/floors.txt.part"
      fi
      mkdir -p "$1/items" && cp "$2/items/$3.item" "$1/items/$3.item.tmp" || exit 1
      rm -f "$part" "$2/items/$3.checked" && mv "$1/items/$3.item.tmp" "$1/items/$3.item"
      [ "$2" != "$work/$name" ] || know || exit 1
    ) 8> "$2/ledger.lock"
  ) 9> "$2/items/$3.lock"
}

# know [LEVEL TREE]: with a tree to fill from (TREE; for NAME, FILL or
# campaigns/NAME/known.mmt), WORK/LEVEL/known.mmt made again from LEVEL's items done
# (under LEVEL's ledger lock, so one merge at a time writes it); says its total.
know() {
  local level=${1:-$name} tree=${2:-$fill_tree} named=FILL out
  [ -n "$tree" ] || return 0
  [ -z "${1:-}" ] || named="the tree of $level"
  out=$("$bin/mmgen" merge --dir "$work/$level" --fill "$tree" --out "$work/$level/known.mmt" --force) ||
    { echo "make campaign: $named ($tree) and the items done make no tree (above)" >&2; return 1; }
  echo "known.mmt${1:+ of $level}: $(sed -n 's/^total *//p' <<< "$out"); $(sed -n 's/^items *//p' <<< "$out")"
}

# called LEVEL "INDEX...": how the log names items INDEX... of LEVEL.
called() {
  local -a indexes
  local items
  read -ra indexes <<< "$2"
  items="item $2"
  [ ${#indexes[@]} = 1 ] || items="${#indexes[@]} items solved at once ($2)"
  if [ "$1" = "$name" ]; then echo "$items"; else echo "$items of $1"; fi
}

# keep_left LEVEL: an item of LEVEL done here but not kept (a session cut off while
# its part was checked, say), kept now if no other campaign is keeping it; returns
# 1 if none was.
keep_left() {
  local item index rc
  for item in "$work/$1"/items/*.item; do
    [ -e "$item" ] || continue
    # No process per item: this runs before every item a worker takes, over
    # every item done (a call of basename for each took 1.7 s at 470 items).
    index=${item##*/}
    index=${index%.item}
    # Kept, unless solved again since (an item shown dearer only by its share of
    # its guess's gap): then its new part waits beside it.
    [ ! -e "campaigns/$1/items/$index.item" ] || [ -e "$work/$1/items/$index.mmc" ] || continue
    rc=0
    keep "campaigns/$1" "$work/$1" "$index" -n || rc=$?
    [ "$rc" != 75 ] || continue
    [ "$rc" = 0 ] || fail "$(called "$1" "$index"): its part was not kept"
    echo "$(called "$1" "$index"): done on this machine before, kept now"
    return 0
  done
  return 1
}

# mark_of PID: what names process PID as long as the machine runs, whatever its
# command: its number and its start time (field 22 of /proc/PID/stat, in clock
# ticks since boot; the fields are counted after the command's name, which ends at
# the last parenthesis and may hold spaces). A number alone may be a process of
# today that took the number of a worker of an earlier session.
mark_of() {
  local stat fields
  stat=$(cat "/proc/$1/stat" 2> /dev/null) || return 1
  read -ra fields <<< "${stat##*) }"
  echo "$1-${fields[19]}"
}

# take LEVEL: takes an item of LEVEL and solves it; returns 1 if none is left to
# take: those with a checkpoint first, then FIRST (NAME's), then as mmgen status
# --todo orders them. An item taken is a link named by its number to its worker's
# process (`mark_of`; made at once, so one worker takes each item). Items solved at
# once (mmgen status --at-once: of first guesses settled, they only make the proof
# whole; --todo lists them last) are taken up to AT_ONCE (256) at a time, for one
# solve-class: a fraction of a second each, in one process, where a process each
# took as long again to start and to draw its budget. Each step says its own
# failure: the worker's `! take` turns set -e off here.
take() {
  local run=$work/$1 todo at_once begun asked="" me=$BASHPID mark stamp i
  local -a taken=()
  local -A quick=()
  mark=$(mark_of "$me") || fail "cannot read this worker's start time in /proc/$me/stat"
  # The list is read before the take: an item another worker solved and let go
  # of since (its item file newer than the stamp) is not taken again.
  stamp=$run/taken/.todo-$me
  touch "$stamp"
  todo=$("$bin/mmgen" status --dir "$run" --todo | tr '\n' ' ') || fail "cannot read the status of $run"
  if [ -z "${todo// /}" ]; then
    rm -f "$stamp"
    return 1
  fi
  at_once=$("$bin/mmgen" status --dir "$run" --at-once) || fail "cannot read the status of $run"
  for i in $at_once; do quick[$i]=1; done
  begun=$(for i in $todo; do [ ! -d "$run/items/$i.checkpoint" ] || echo "$i"; done)
  [ "$1" != "$name" ] || asked=$first
  for i in $begun $asked $todo; do
    [[ " $todo " == *" $i "* ]] || continue
    # An item split a level deeper is its split's.
    [ ! -f "campaigns/$1/within-$i/plan.json" ] || continue
    # One item, or items solved at once only.
    [ ${#taken[@]} = 0 ] || [ -n "${quick[$i]:-}" ] || break
    ln -s "$mark" "$run/taken/$i" 2>/dev/null || continue
    if [ "$run/items/$i.item" -nt "$stamp" ]; then
      rm -f "$run/taken/$i"
      continue
    fi
    taken+=("$i")
    [ -n "${quick[$i]:-}" ] && [ ${#taken[@]} -lt "${AT_ONCE:-256}" ] || break
  done
  rm -f "$stamp"
  [ ${#taken[@]} -gt 0 ] || return 1
  solve "$1" "${taken[*]}" --share ""
}

# solve LEVEL "INDEX..." FLAG AGAIN: the items INDEX... of LEVEL, taken, solved on
# one thread with one solve-class FLAG, their parts checked and kept, and let go:
# free to be taken again (an item shown dearer only by its share of its guess's gap
# is solved again once the guess's other items leave it open). AGAIN (" again" or
# "") goes into the log's lines.
solve() {
  local run=$work/$1 what index
  local -a indexes
  read -ra indexes <<< "$2"
  what=$(called "$1" "$2")
  echo "$what: solving$4 from $(date -u +%FT%TZ)"
  launched "$what's search" "$run/items/${indexes[0]}.solve-done" "$bin/mmgen" solve-class --dir "$run" --threads 1 --cache-mib "$mib" --checkpoint-every 600 "$3" "${indexes[@]}" ||
    fail "$what: its search failed (above)"
  for index in "${indexes[@]}"; do
    keep "campaigns/$1" "$run" "$index" || fail "$(called "$1" "$index"): its part was not kept (above)"
    rm -f "$run/taken/$index"
  done
  echo "$what: done$4 and checked at $(date -u +%FT%TZ)"
}

# again: the items of NAME in AGAIN, each taken (marked, as take marks it),
# solved again under all of its guess's gap and kept; one already costed in full
# (or taken by another campaign) is left as it is.
again() {
  local run=$work/$name index mark
  mark=$(mark_of "$BASHPID") || fail "cannot read this worker's start time in /proc/$BASHPID/stat"
  for index in ${AGAIN:-}; do
    [ -f "$run/items/$index.item" ] || fail "AGAIN: item $index of $name is not done"
    ln -s "$mark" "$run/taken/$index" 2>/dev/null || continue
    solve "$name" "$index" --again " again"
  done
}

# worker N: keeps items done but not kept, then takes items until none is left, in
# the order of levels (a split's before its parent's); the first worker solves
# AGAIN's items before.
worker() {
  local level
  [ "$1" != 1 ] || again
  while :; do
    for level in "${levels[@]}"; do
      ! keep_left "$level" || continue 2
    done
    for level in "${levels[@]}"; do
      ! take "$level" || continue 2
    done
    return 0
  done
}

# merge LEVEL: once every item of LEVEL is done and kept, a split is merged into its
# parent's item (checked and kept there), NAME's tree is merged and checked; returns
# 1 if LEVEL is not done (so neither are those above it). Under LEVEL's ledger lock,
# with no part being kept meanwhile: another campaign that sees every item done too
# merges after this one.
merge() {
  local run=$work/$1 rc=0
  "$bin/mmgen" status --dir "$run"
  [ -z "$("$bin/mmgen" status --dir "$run" --todo)" ] || return 1
  (
    flock 8 || exit 1
    # An item done but not kept: another campaign is checking its part (it holds
    # the item's lock) and merges after it, or a check failed.
    for item in "$run"/items/*.item; do
      index=${item##*/}
      index=${index%.item}
      [ ! -e "campaigns/$1/items/$index.item" ] || continue
      if ! flock -n "$run/items/$index.lock" true; then
        echo "$(called "$1" "$index"): still being checked by another campaign, which merges"
        exit 75
      fi
      fail "$(called "$1" "$index") is done but not kept: its part's check failed or was cut off (run the campaign again)"
    done
    case $1 in
      */within-*) merge_split "$1" ;;
      *)
        tree=$run/optimal-$1.mmt
        "$bin/mmgen" merge --dir "$run" --out "$tree" --certificate "$run/optimal-$1.mmc" --force || exit 1
        "$bin/mmcheck" --parts "$run/parts.txt" "$tree" "$run/optimal-$1.mmc" || exit 1
        ;;
    esac
  ) 8> "$run/ledger.lock" || rc=$?
  [ "$rc" != 75 ] || return 1
  [ "$rc" = 0 ] || fail "the merge of $1 failed (above)"
}

# merge_split PARENT/within-INDEX: merged back into PARENT's item INDEX, whose part
# rests on the split's parts, so their ledger lines join PARENT's ledger, which then
# checks it.
merge_split() {
  local parent=${1%/within-*} within=${1##*/within-}
  if merged "$1"; then
    echo "item $within of $parent: merged from $1 already"
    return 0
  fi
  fill "campaigns/$parent" "$work/$parent"
  (
    flock 9 || exit 1
    touch "$work/$parent/parts.txt"
    { grep '^part ' "$work/$1/parts.txt" || true; } | while IFS= read -r line; do
      grep -qxF "$line" "$work/$parent/parts.txt" || echo "$line" >> "$work/$parent/parts.txt"
    done
  ) 9> "$work/$parent/ledger.lock" || exit 1
  if [ ! -e "$work/$parent/items/$within.item" ]; then
    "$bin/mmgen" merge --dir "$work/$1" --into "$work/$parent" || exit 1
  fi
  keep "campaigns/$parent" "$work/$parent" "$within" || exit 1
  echo "item $within of $parent: merged from $1, checked and kept"
}

for level in "${found[@]}"; do
  fill "campaigns/$level" "$work/$level"
  # Marks of workers gone (no process has that number and start time now) are cleared.
  mkdir -p "$work/$level/taken"
  for mark in "$work/$level/taken"/*; do
    [ -e "$mark" ] || [ -L "$mark" ] || continue
    owner=$(readlink "$mark" || true)
    [ -n "$owner" ] && [ "$(mark_of "${owner%%-*}" || true)" = "$owner" ] || rm -rf "$mark"
  done
done

if [ -n "$fill_tree" ]; then
  ( flock 8 && know ) 8> "$work/$name/ledger.lock" || exit 1
fi

# A split's cap is its item's budget in the plans above it (mmgen's Run::cap), read
# from their work folders, each plan counting its other splits by their own standing:
# all of them are filled too, with their known trees, or a split's campaign alone on
# a machine that kept nothing would prove more than the plans above need
# (5x8/within-21: 1.8 h of search projected without them, 65 s with them).
top=${name%%/within-*}
if [ "$top" != "$name" ]; then
  while read -r level; do
    # NAME's own levels are filled above.
    [[ " ${found[*]} " != *" $level "* ]] || continue
    fill "campaigns/$level" "$work/$level"
    if [[ $level != */within-* ]] && [ -e "campaigns/$level/known.mmt" ] && [ ! -e "$work/$level/known.mmt" ]; then
      ( flock 8 && know "$level" "campaigns/$level/known.mmt" ) 8> "$work/$level/ledger.lock" || exit 1
    fi
  done < <(unmerged "$top")
fi

# keep_floors: floors being worked out (hours on a big plan, the campaign's first
# step) copied from the work folder back into campaigns/NAME every FLOORS_EVERY
# seconds (600 unless set), as floors.txt.part, while no floors.txt is kept there
# and the part there is no longer (lines are only appended): to be committed, so
# that a campaign cut off on a machine that keeps nothing goes on from there (fill).
keep_floors() {
  local part kept
  while sleep "${FLOORS_EVERY:-600}"; do
    while IFS= read -r part; do
      kept=campaigns/$part
      [ -s "$work/$part" ] && [ -d "${kept%/*}" ] && [ ! -f "${kept%/*}/floors.txt" ] || continue
      [ ! -f "$kept" ] || [ "$(wc -l < "$kept")" -le "$(wc -l < "$work/$part")" ] || continue
      cp "$work/$part" "$kept.tmp" && mv "$kept.tmp" "$kept"
    done < <(cd "$work" && find "$name" -name floors.txt.part)
  done
}
keep_floors > /dev/null 2>&1 < /dev/null &
keeper=$!
trap 'pkill -P "$keeper" 2> /dev/null; kill "$keeper" 2> /dev/null || true' EXIT

# order LEVEL: LEVEL's splits, each after its own splits, in the order LEVEL's
# search takes their items (mmgen status --splits: a split its search costs first
# gives those after it tighter caps), then LEVEL; into levels, the order the
# workers take items in and the merges go.
levels=()
order() {
  local splits index
  splits=$("$bin/mmgen" status --dir "$work/$1" --splits) || fail "cannot read the status of $work/$1"
  for index in $splits; do
    [ ! -f "campaigns/$1/within-$index/plan.json" ] || order "$1/within-$index"
  done
  levels+=("$1")
}
order "$name"

workers=()
for n in $(seq "$jobs"); do
  worker "$n" &
  workers+=($!)
done
failed=0
for pid in "${workers[@]}"; do wait "$pid" || failed=1; done
[ "$failed" = 0 ] || fail "a worker stopped on the error above; its item is left as it was (run the campaign again once it is mended)"

for level in "${levels[@]}"; do
  merge "$level" || exit 0
done
