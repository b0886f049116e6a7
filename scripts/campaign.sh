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
# items come first, then the smallest (fewest secrets, then plan order): on a machine
# that kept nothing, an item cut off is solved again from nothing, and the most items
# are kept when the biggest, which may take longer than a session, come last.
# FIRST (item numbers) come before the smallest, in that order: the classes of the
# first guess likely to be the best, say. (Budgets come from the items done: a first
# guess's classes shown too dear cost less to search once its rivals are costed.)
#
# Usage: scripts/campaign.sh NAME WORK [JOBS] [MIB] [BIN] [FIRST]
set -euo pipefail
name=$1
work=$2
jobs=${3:-2}
mib=${4:-6144}
bin=${5:-target/release}
first=${6:-}
kept=campaigns/$name
run=$work/$name

fail() { echo "make campaign: $*" >&2; exit 1; }

[ -f "$kept/plan.json" ] || fail "no campaign $name: $kept/plan.json is missing (mmgen plan --strategy optimal --certificate --dir $kept makes one)"
mkdir -p "$run/items" "$run/taken"
# The plan, the items done and the ledger, as far as the work folder lacks them:
# what is there already (from this machine's earlier runs) is never replaced.
cp -n "$kept/plan.json" "$run/plan.json"
cmp -s "$kept/plan.json" "$run/plan.json" || fail "$run/plan.json is another plan than $kept/plan.json"
[ ! -f "$kept/parts.txt" ] || cp -n "$kept/parts.txt" "$run/parts.txt"
for item in "$kept"/items/*.item; do
  [ -e "$item" ] && cp -n "$item" "$run/items/"
done
rm -rf "$run/taken"/*
# The items, those with a checkpoint first, then FIRST, then smallest first: each item's
# secrets, in plan order, numbered from 0.
by_size=$(grep -o '"secrets":[0-9]*' "$run/plan.json" | cut -d: -f2 | awk '{print $1, NR - 1}' | sort -n -k1,1 -k2,2 | cut -d' ' -f2)
begun=$(for i in $by_size; do [ ! -d "$run/items/$i.checkpoint" ] || echo "$i"; done)
by_size="$begun $first $by_size"

# worker: takes items until none is left.
worker() {
  while :; do
    local index="" todo
    todo=" $("$bin/mmgen" status --dir "$run" --todo | tr '\n' ' ') "
    for i in $by_size; do
      [[ $todo == *" $i "* ]] || continue
      # mkdir is atomic: one worker takes each item.
      if mkdir "$run/taken/$i" 2>/dev/null; then index=$i; break; fi
    done
    [ -n "$index" ] || return 0
    echo "item $index: solving from $(date -u +%FT%TZ)"
    "$bin/mmgen" solve-class --dir "$run" --threads 1 --cache-mib "$mib" --checkpoint-every 600 "$index"
    local part=$run/items/$index.mmc
    (
      flock 9
      "$bin/mmcheck" --threads 1 --parts "$run/parts.txt" "$part"
      # Kept with the campaign once its part is checked: the ledger first.
      [ ! -f "$run/parts.txt" ] || cp "$run/parts.txt" "$kept/parts.txt.tmp"
      [ ! -f "$kept/parts.txt.tmp" ] || mv "$kept/parts.txt.tmp" "$kept/parts.txt"
      mkdir -p "$kept/items"
      cp "$run/items/$index.item" "$kept/items/$index.item.tmp"
      mv "$kept/items/$index.item.tmp" "$kept/items/$index.item"
    ) 9> "$run/ledger.lock"
    rm -f "$part"
    echo "item $index: done and checked at $(date -u +%FT%TZ)"
  done
}

for _ in $(seq "$jobs"); do worker & done
wait

"$bin/mmgen" status --dir "$run"
if [ -z "$("$bin/mmgen" status --dir "$run" --todo)" ]; then
  tree=$run/optimal-$name.mmt
  "$bin/mmgen" merge --dir "$run" --out "$tree" --certificate "$run/optimal-$name.mmc" --force
  "$bin/mmcheck" --parts "$run/parts.txt" "$tree" "$run/optimal-$name.mmc"
fi
