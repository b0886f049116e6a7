#!/usr/bin/env bash
# make keep NAME=5x8/within-7: commits what a running campaign copied back into
# campaigns/ (items, ledger lines, floors), with the trees shipped from its board's
# campaign (trees/ files that `make trees` merges from campaigns/, say
# optimal-5x8.mmt) kept what the merge makes of them: `make test` fails on a shipped
# tree older than the merge. Most items change no such tree, and are committed at
# once. One that does (a split's guess costed in full below the best so far) gets
# the tree rebuilt and trees/README.md's table rewritten, all staged but not
# committed: README.md and RESULTS.md quote the best tree's figures, and a person
# brings them up to date (make test checks them) before committing.
#
# The merge is run on a copy of what is staged (git checkout-index), not on the
# folder the campaign is still writing to, so the commit and the check agree.
#
# Usage: scripts/keep-campaign.sh NAME BIN
set -euo pipefail
name=$1
bin=$2
board=${name%%/*}
cd "$(dirname "$0")/.."

if ! git diff --cached --quiet; then
  echo "keep: other changes are staged; commit or unstage them first" >&2
  exit 1
fi
git add -- "campaigns/$board"
if git diff --cached --quiet -- "campaigns/$board"; then
  echo "keep: nothing new in campaigns/$board"
  exit 0
fi
snap=$(mktemp -d)
trap 'rm -rf "$snap"' EXIT
git ls-files -z -- campaigns trees | git checkout-index -z --stdin --prefix="$snap/"

stale=0
for spec in $(grep -o "[A-Za-z0-9.-]*\.mmt:merge:--dir=campaigns/$board\(:[^ ]*\)\?\( \|$\)" Makefile); do
  file=${spec%%:*}
  args=$(echo "${spec#*:}" | tr ':=' '  ')
  # shellcheck disable=SC2086 # the arguments are words, as `make trees` splits them
  (cd "$snap" && "$bin/mmgen" $args --out "$snap/fresh.mmt" > /dev/null)
  if ! cmp -s "$snap/fresh.mmt" "trees/$file"; then
    old=$("$bin/mmlookup" info "trees/$file" | sed -n 's/^total *//p')
    new=$("$bin/mmlookup" info "$snap/fresh.mmt" | sed -n 's/^total *//p')
    mv "$snap/fresh.mmt" "trees/$file.tmp"
    mv "trees/$file.tmp" "trees/$file"
    git add "trees/$file"
    echo "keep: trees/$file rebuilt from these items: $new (was $old)" >&2
    stale=1
  fi
done
if [ "$stale" = 1 ]; then
  "$bin/mmtree-report" trees
  git add trees/README.md
  echo "keep: items, trees and trees/README.md staged, not committed: bring the figures of README.md and RESULTS.md up to date (make test checks them), then commit" >&2
  exit 1
fi
git commit -q -m "$name: items kept to $(date -u +%H:%M) UTC"
git log --oneline -1
