#!/usr/bin/env bash
# `make demo`: a game against the shipped classic tree, answered move by move with
# `mmlookup next` (the hint) and `mmlookup score` (the codemaker's answer), then an
# audit that proves the tree's claims.
set -euo pipefail
bin=${1:-target/release}
secret=${2:-3632}
moves=()
echo "The codemaker hides $secret. The player asks mmlookup for a hint before each guess:"
echo
while :; do
  hint=$("$bin/mmlookup" next "${moves[@]}")
  guess=$(head -n 1 <<<"$hint")
  left=$(sed -n 2p <<<"$hint")
  answer=$("$bin/mmlookup" score "$guess" "$secret")
  printf '  $ mmlookup next %s\n    -> %s   (%s)\n    codemaker answers %s\n' "${moves[*]:-}" "$guess" "$left" "$answer"
  moves+=("$guess:$answer")
  if [ "$answer" = "4,0" ]; then break; fi
done
echo
"$bin/mmlookup" next "${moves[@]}"
echo
echo "Every claim of the shipped tree, proven from its bytes:"
echo "  \$ mmlookup audit trees/knuth-4x6.mmt"
"$bin/mmlookup" audit trees/knuth-4x6.mmt | sed 's/^/    /'
