#!/usr/bin/env bash
# make verify-proofs: writes the certificate of every proven row of RESULTS.md with
# mmgen and checks it with mmcheck (which shares no code with the search), then
# prints a table of what each took: the certificate's facts, bytes, sha256, the
# seconds to write it (the proof included) and to check it, one thread each
# (milliseconds in OUT_DIR/NAME.ok).
#
# Usage: scripts/verify-proofs.sh BIN_DIR OUT_DIR [NAME...]
#   BIN_DIR: where mmgen and mmcheck are; OUT_DIR: where trees, certificates,
#   checkpoints and logs go. With NAMEs, only those rows. A row already done (its
#   .ok file exists) is not redone: a long run stopped half way resumes from its
#   checkpoint, a certificate already written is not written again, and a long
#   check goes on from its progress record (the check's time is then that of its
#   last part). Table rows go to OUT_DIR/summary.md.
set -euo pipefail

bin=$1
out=$2
shift 2
mkdir -p "$out"

# name | mmgen arguments (every row proven in RESULTS.md; the slow ones last).
rows=(
  "4x6|--pegs 4 --colors 6"
  "4x6-depth5|--pegs 4 --colors 6 --max-depth 5"
  "4x6-depth4|--pegs 4 --colors 6 --max-depth 4"
  "4x6-consistent|--pegs 4 --colors 6 --consistent-only"
  "4x6-worst|--pegs 4 --colors 6 --objective worst"
  "4x4-worst|--pegs 4 --colors 4 --objective worst"
  "4x5-worst|--pegs 4 --colors 5 --objective worst"
  "5x4-worst|--pegs 5 --colors 4 --objective worst"
  "4x5-no-repeat|--pegs 4 --colors 5 --no-repeat"
  "4x6-no-repeat|--pegs 4 --colors 6 --no-repeat"
  "4x7-no-repeat|--pegs 4 --colors 7 --no-repeat"
  "4x8-no-repeat|--pegs 4 --colors 8 --no-repeat"
  "4x9-no-repeat|--pegs 4 --colors 9 --no-repeat"
  "5x5-no-repeat|--pegs 5 --colors 5 --no-repeat"
  "5x6-no-repeat|--pegs 5 --colors 6 --no-repeat"
  "5x7-no-repeat|--pegs 5 --colors 7 --no-repeat"
  "4x5-no-repeat-worst|--pegs 4 --colors 5 --no-repeat --objective worst"
  "4x6-no-repeat-worst|--pegs 4 --colors 6 --no-repeat --objective worst"
  "4x7-no-repeat-worst|--pegs 4 --colors 7 --no-repeat --objective worst"
  "4x8-no-repeat-worst|--pegs 4 --colors 8 --no-repeat --objective worst"
  "4x9-no-repeat-worst|--pegs 4 --colors 9 --no-repeat --objective worst"
  "5x5-no-repeat-worst|--pegs 5 --colors 5 --no-repeat --objective worst"
  "5x6-no-repeat-worst|--pegs 5 --colors 6 --no-repeat --objective worst"
  "5x7-no-repeat-worst|--pegs 5 --colors 7 --no-repeat --objective worst"
  "4x7|--pegs 4 --colors 7"
  "4x7-worst|--pegs 4 --colors 7 --objective worst"
  "5x5|--pegs 5 --colors 5"
  "5x5-worst|--pegs 5 --colors 5 --objective worst"
  "bulls-and-cows|--pegs 4 --colors 10 --no-repeat"
  "bulls-and-cows-worst|--pegs 4 --colors 10 --no-repeat --objective worst"
  "4x8|--pegs 4 --colors 8"
  "4x8-depth6|--pegs 4 --colors 8 --max-depth 6"
  "4x8-depth5|--pegs 4 --colors 8 --max-depth 5"
  "4x8-worst|--pegs 4 --colors 8 --objective worst"
  "6x4-worst|--pegs 6 --colors 4 --objective worst"
  "4x9|--pegs 4 --colors 9"
  "4x9-worst|--pegs 4 --colors 9 --objective worst"
  "5x8-no-repeat|--pegs 5 --colors 8 --no-repeat"
  "5x8-no-repeat-worst|--pegs 5 --colors 8 --no-repeat --objective worst"
  "5x6|--pegs 5 --colors 6"
  "5x6-worst|--pegs 5 --colors 6 --objective worst"
  "4x10|--pegs 4 --colors 10"
  "4x10-worst|--pegs 4 --colors 10 --objective worst"
  "5x7|--pegs 5 --colors 7"
  "4x11|--pegs 4 --colors 11"
)
for c in 5 6 7 8 9 10 11 12 13 14 15 16; do
  rows+=("3x$c-worst|--pegs 3 --colors $c --objective worst")
done

# Milliseconds as seconds with two decimals.
seconds() { printf '%d.%02d' $(($1 / 1000)) $(($1 % 1000 / 10)); }

wanted() {
  [ $# -eq 0 ] && return 0
  local name=$1
  shift
  for w in "$@"; do [ "$w" = "$name" ] && return 0; done
  return 1
}

summary=$out/summary.md
echo "| row | mmgen arguments | claims | facts | bytes | sha256 | write s | check s |" > "$summary"
echo "|---|---|---|---|---|---|---|---|" >> "$summary"
failed=0
for row in "${rows[@]}"; do
  name=${row%%|*}
  args=${row#*|}
  wanted "$name" "$@" || continue
  tree=$out/$name.mmt
  cert=$out/$name.mmc
  if [ ! -e "$out/$name.ok" ]; then
    # A certificate written by an earlier run whose check was stopped is kept.
    if [ -e "$out/$name.wrote" ] && [ -e "$cert" ]; then
      read -r wrote < "$out/$name.wrote"
    else
      start=$(date +%s%N)
      # A proof with no strategy at the depth asked ends with status 1, certificate written.
      # shellcheck disable=SC2086
      "$bin/mmgen" $args --strategy optimal --cache-mib 8192 --checkpoint "$out/$name.ck" \
        --out "$tree" --certificate "$cert" --force > "$out/$name.gen.log" 2>&1 || true
      wrote=$(( ($(date +%s%N) - start) / 1000000 ))
      [ -e "$cert" ] && echo "$wrote" > "$out/$name.wrote"
    fi
    if [ ! -e "$cert" ]; then
      echo "verify-proofs: $name: no certificate written (see $out/$name.gen.log)" >&2
      failed=1
      continue
    fi
    start=$(date +%s%N)
    files=("$cert")
    [ -e "$tree" ] && files=("$tree" "$cert")
    # A long check records its progress: a rerun goes on from there (and says so).
    if ! "$bin/mmcheck" --resume "$out/$name.check.progress" "${files[@]}" > "$out/$name.check.log" 2>&1; then
      echo "verify-proofs: $name: $(tail -1 "$out/$name.check.log")" >&2
      failed=1
      continue
    fi
    checked=$(( ($(date +%s%N) - start) / 1000000 ))
    echo "$wrote $checked" > "$out/$name.ok"
  fi
  read -r wrote checked < "$out/$name.ok"
  claims=$(grep -c "proven" "$out/$name.check.log")
  facts=$(sed -n 's/.*certificate checked: \([0-9]*\) facts.*/\1/p' "$out/$name.check.log" | head -1)
  bytes=$(stat -c %s "$cert")
  sha=$(sha256sum "$cert" | cut -c1-16)
  printf '| %s | `%s` | %s | %s | %s | %s… | %s | %s |\n' "$name" "$args" "$claims" "$facts" "$bytes" "$sha" \
    "$(seconds "$wrote")" "$(seconds "$checked")" >> "$summary"
  echo "verify-proofs: $name: $(tail -1 "$out/$name.check.log") ($bytes bytes, written in $(seconds "$wrote") s, checked in $(seconds "$checked") s)"
done
echo "verify-proofs: the table is in $summary"
exit $failed
