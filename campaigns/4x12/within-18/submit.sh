#!/bin/bash
# Submits the item array, then the merge to run once every task succeeded.
set -euo pipefail
mkdir -p '/work/main/campaigns/4x12/within-18'/logs
array=$(sbatch --parsable '/work/main/campaigns/4x12/within-18'/items.sbatch)
merge=$(sbatch --parsable --dependency=afterok:"${array%%;*}" '/work/main/campaigns/4x12/within-18'/merge.sbatch)
echo "items: job $array; merge: job $merge; mmgen status --dir '/work/main/campaigns/4x12/within-18' shows progress"
