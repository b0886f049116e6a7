//! The job scripts `mmgen plan` writes beside a plan: a Slurm job array over the
//! items (at most [`MAX_TASKS`] tasks, each taking its share of the items as
//! [`super::task_items`] deals them, and at most [`AT_ONCE`] running at once), a
//! merge job, and `submit.sh`, which submits the array and the merge to run when
//! every task succeeded.

use super::run::Run;

/// Slurm's default `MaxArraySize` is 1001: tasks stay below it.
pub const MAX_TASKS: usize = 1000;

/// Array tasks running at once (`--array=...%AT_ONCE`), unless the user edits it.
pub const AT_ONCE: usize = 64;

/// Quotes `text` for a POSIX shell.
fn quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// (file name, contents) of each script for `run` in `tasks` array tasks, run with
/// the program `mmgen`.
pub fn scripts(run: &Run, mmgen: &str, tasks: usize) -> Vec<(&'static str, String)> {
    let dir = std::fs::canonicalize(&run.dir).unwrap_or_else(|_| run.dir.clone());
    let dir = quoted(&dir.display().to_string());
    let mmgen = quoted(mmgen);
    let items = run.plan.items.len();
    let array = format!(
        "#!/bin/bash\n\
         # Solves the plan's {items} work items in {tasks} tasks, each taking its share\n\
         # (mmgen solve-class --task T --tasks {tasks} deals them, largest first).\n\
         # A task that fails can be resubmitted alone (sbatch --array=T items.sbatch);\n\
         # items already done are skipped. A task lost with its node is requeued by\n\
         # Slurm (--requeue) and does again only what its first attempt left.\n\
         #SBATCH --job-name=mmtree-items\n\
         #SBATCH --requeue\n\
         #SBATCH --array=0-{last}%{AT_ONCE}\n\
         #SBATCH --cpus-per-task=1\n\
         #SBATCH --output={dir}/logs/item-%a.out\n\
         set -euo pipefail\n\
         mkdir -p {dir}/logs\n\
         exec {mmgen} solve-class --dir {dir} --threads \"${{SLURM_CPUS_PER_TASK:-1}}\" \\\n\
         \x20 --task \"$SLURM_ARRAY_TASK_ID\" --tasks {tasks}\n",
        last = tasks - 1,
    );
    // A certified plan's merge puts its items' certificates together too.
    let certificate = match run.plan.recipe.certified {
        true => format!(" \\\n  --certificate {dir}/tree.mmc"),
        false => String::new(),
    };
    let merge = format!(
        "#!/bin/bash\n\
         # Merges the items into one tree file, byte-identical to a single mmgen run.\n\
         # If a task of the array fails, Slurm cancels this job (--kill-on-invalid-dep):\n\
         # rerun what mmgen status names, then sbatch this file.\n\
         #SBATCH --job-name=mmtree-merge\n\
         #SBATCH --kill-on-invalid-dep=yes\n\
         #SBATCH --output={dir}/logs/merge.out\n\
         set -euo pipefail\n\
         exec {mmgen} merge --dir {dir} --out {dir}/tree.mmt{certificate}\n"
    );
    let submit = format!(
        "#!/bin/bash\n\
         # Submits the item array, then the merge to run once every task succeeded.\n\
         set -euo pipefail\n\
         mkdir -p {dir}/logs\n\
         array=$(sbatch --parsable {dir}/items.sbatch)\n\
         merge=$(sbatch --parsable --dependency=afterok:\"${{array%%;*}}\" {dir}/merge.sbatch)\n\
         echo \"items: job $array; merge: job $merge; mmgen status --dir {dir} shows progress\"\n"
    );
    vec![
        ("items.sbatch", array),
        ("merge.sbatch", merge),
        ("submit.sh", submit),
    ]
}
