//! `mmgen plan`, `mmgen solve-class`, `mmgen status`, `mmgen merge`: one tree built
//! as independent work items, on a cluster or anywhere (see `generator::plan`).

use crate::args::{first_guess, pool, BoardArgs};
use generator::estimate;
use generator::output::{certificate_target, check_target, write_tree_file};
use generator::plan::{
    array_tasks, task_items, Cost, First, Plan, Projection, Recipe, Run, Status,
};
use generator::strategy::{Proof, Standing, DEFAULT_CACHE_MIB};
use generator::Counters;
use lookup::cli::{Failure, Outcome};
use lookup::format::{Param, StrategyInfo, StrategyKind, Summary};
use lookup::Board;
use std::io::Write;
use std::path::PathBuf;

/// Plan a tree as work items in a folder, with Slurm job scripts.
#[derive(clap::Args)]
pub struct PlanArgs {
    #[command(flatten)]
    board: BoardArgs,
    /// The rule that picks each guess; optimal: the exact search, one item per first
    /// guess and answer class.
    #[arg(long, value_enum, default_value_t = StrategyKind::Knuth)]
    strategy: StrategyKind,
    /// Guess only codes that are still possible.
    #[arg(long)]
    consistent_only: bool,
    /// Force the first guess (in the board's notation).
    #[arg(long, value_name = "CODE")]
    first: Option<String>,
    /// optimal: no secret may need more guesses than this.
    #[arg(long, value_name = "D")]
    max_depth: Option<u32>,
    /// Score every code at every node (slower; the tree is the same).
    #[arg(long)]
    no_symmetry: bool,
    /// Guesses chosen in the top, per line (default: the least that gives 100 items;
    /// always 1 for optimal).
    #[arg(long, value_name = "K", value_parser = lookup::cli::at_least_one::<u32>)]
    depth: Option<u32>,
    /// The run's folder: plan.json, items/, job scripts.
    #[arg(long, value_name = "RUN")]
    dir: PathBuf,
    /// Tasks of the Slurm job array, each solving its share of the items (default:
    /// enough for the work, about 100,000 secrets a task for a rule and 2,000 for the
    /// exact search; at most 1000, and no more than items).
    #[arg(long, value_name = "N", value_parser = lookup::cli::at_least_one::<usize>)]
    tasks: Option<usize>,
    /// Worker threads, at most 256 (0: one per core).
    #[arg(long, default_value_t = 0, value_parser = lookup::cli::threads)]
    threads: usize,
    /// optimal: each item writes the certificate of its proof (RUN/items/N.mmc, on
    /// one thread), and `mmgen merge --certificate FILE` puts them together into
    /// one that `mmcheck` checks (docs/certificate.md).
    #[arg(long)]
    certificate: bool,
    /// Replace a different plan already in RUN (its items become useless).
    #[arg(long)]
    force: bool,
    /// Split item --item of the exact plan in folder PARENT a level deeper: a plan
    /// of that item's class (board and options as PARENT's), one item per answer
    /// class of each guess the search tries there.
    #[arg(long, value_name = "PARENT", requires = "item", conflicts_with_all = [
        "pegs", "colors", "no_repeat", "strategy", "consistent_only", "first",
        "max_depth", "no_symmetry", "depth", "certificate",
    ])]
    within: Option<PathBuf>,
    /// With --within: the item of PARENT's plan to split.
    #[arg(long, value_name = "INDEX", requires = "within")]
    item: Option<usize>,
}

/// Build the subtrees of work items (skipping those already done).
#[derive(clap::Args)]
pub struct SolveArgs {
    #[arg(long, value_name = "RUN")]
    dir: PathBuf,
    /// Item numbers, as in plan.json.
    #[arg(
        value_name = "INDEX",
        required_unless_present = "task",
        conflicts_with = "task"
    )]
    items: Vec<usize>,
    /// Solve the share of array task T (0 to N-1) of --tasks N: the items dealt to
    /// it, largest first (what the job scripts run).
    #[arg(long, value_name = "T", requires = "tasks")]
    task: Option<usize>,
    /// The number of array tasks the items are dealt to (with --task).
    #[arg(long, value_name = "N", requires = "task", value_parser = lookup::cli::at_least_one::<usize>)]
    tasks: Option<usize>,
    /// Worker threads, at most 256 (0: one per core).
    #[arg(long, default_value_t = 0, value_parser = lookup::cli::threads)]
    threads: usize,
    /// An exact plan: the search's cache in MiB (default 2048, cut to the memory
    /// available), as for a single run; it changes the work, never the items.
    #[arg(long, value_name = "MIB", value_parser = lookup::cli::at_least_one::<u32>)]
    cache_mib: Option<u32>,
    /// Start even if the cache asked for may not fit in the memory available.
    #[arg(long)]
    force: bool,
    /// An exact plan: save what each item's search proved every SECONDS, in
    /// RUN/items/N.checkpoint/ (its certificate too, while it is written), so that
    /// an item cut off goes on from there when solved again; the folder goes once
    /// the item is done. Each save prints a line on stderr: the positions
    /// searched, the least its class can cost as far as the search has proven,
    /// and how far the guess of least floor there is solved. At each save, and
    /// every --budget-every seconds between saves, the item's budget is drawn
    /// again from the items done by then (by other processes too): if it fell,
    /// the search goes on under it, and says so.
    #[arg(long, value_name = "SECONDS", value_parser = lookup::cli::period)]
    checkpoint_every: Option<f64>,
    /// With --checkpoint-every: seconds between draws of an item's budget from
    /// the items done (default 30; each draw reads their files, so a site whose
    /// many jobs share a slow file system may want fewer).
    #[arg(long, value_name = "SECONDS", requires = "checkpoint_every", value_parser = lookup::cli::period)]
    budget_every: Option<f64>,
    /// An exact plan: ask an item not done for its share of what its guess must
    /// be shown to cost more (its class's weight, the square of its secrets,
    /// among its guess's classes not done; the last of them, for all that is
    /// left), not for all of it; but never for as much as the plan's
    /// heuristic's subtree for its class costs (that asks for its optimum):
    /// then for the part its room, from the least it costs to that subtree's
    /// cost, is of the rooms of its guess's classes not costed in full. A
    /// class's proven floor rises cheaply at first and dearly at the end, so a
    /// guess is shown too dear with less search by its classes each rising some
    /// way. An item shown dearer only by its share, whose guess its other items
    /// leave open, is then to be solved again (`mmgen status --todo` lists it):
    /// for a campaign that takes items until none is left (`make campaign`), not
    /// for a job array that solves each once.
    #[arg(long, conflicts_with = "task")]
    share: bool,
    /// An exact plan: solve again the items named that are done but only shown
    /// to cost at least some total (their share of their guess's gap, or a
    /// budget below it), asking each now for all of its guess's gap: so costed
    /// in full where its optimum is below that. `status --todo` lists such an
    /// item again only once every class of its guess is done or split a level
    /// deeper; where the guess's big classes are hours of search each and not
    /// split yet, its small ones are often cheap to cost in full first (on 5x8,
    /// 23 such items of 44 to 3,796 secrets took 0.1 to 81 s each and raised the
    /// plan's lower bound from 174039 to 175501).
    /// Items not done are solved as without it; items costed in full are done.
    #[arg(long, conflicts_with = "task")]
    again: bool,
    /// An exact plan: solve the items named again though they are done, each
    /// under the budget that gives what it recorded (one above its cost if costed
    /// in full, else the least it was shown to cost), not the one the items done
    /// set today; its file and its certificate's part are written anew. For a
    /// copy of a campaign's folder: `mmtree-report recheck` draws items so, has
    /// `mmcheck` check each new part and compares what it proves with the record.
    #[arg(long, conflicts_with_all = ["task", "again", "share"])]
    recheck: bool,
}

/// Work items done, missing and damaged, and the time left; or where a proof
/// run with `--checkpoint DIR` stood at its last save.
#[derive(clap::Args)]
pub struct StatusArgs {
    /// The plan's folder. An exact plan's least total known, which its items'
    /// budgets are drawn from, is the least of its heuristic tree's, those of the
    /// first guesses costed in full and the tree's in RUN/known.mmt (checked
    /// against the plan first), if there is one.
    #[arg(long, value_name = "RUN", required_unless_present = "checkpoint")]
    dir: Option<PathBuf>,
    /// The checkpoint folder of a proof (`mmgen ... --strategy optimal --checkpoint
    /// DIR`), running or not: its board, proven sets, positions searched, best
    /// total and floors at its last save, read without loading its facts.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["dir", "todo"])]
    checkpoint: Option<PathBuf>,
    /// One JSON object: jobs, done, missing, damaged (counts), the lists, seconds
    /// (with --checkpoint: the board, sets, positions, best, floor, first guesses,
    /// and with --classes their classes solved).
    #[arg(long, conflicts_with = "todo")]
    json: bool,
    /// With --checkpoint: also how far each first guess's answer classes were
    /// solved, as the run's log says it. This reads the file again and parses its
    /// facts, keeping only those of the first guesses' classes: one to two
    /// seconds a gigabyte from the page cache.
    #[arg(long, requires = "checkpoint")]
    classes: bool,
    /// Only the items still to solve (missing or damaged), one number a line, in
    /// the order to solve them (an exact plan's: the search's, guess by guess,
    /// each guess's classes smallest first, so that big items get the tightest
    /// budgets; those of first guesses settled already last, as --at-once
    /// lists them), but for items split a level deeper in
    /// RUN/within-INDEX (`mmgen plan --within`), which their splits solve: for
    /// `mmgen status --dir RUN --todo | xargs -n 1 -P 2 mmgen solve-class --dir
    /// RUN`. An exact plan's floors are worked out first where RUN keeps none
    /// (hours on a big plan, said on standard error), as solve-class does; the
    /// status alone only reads them.
    #[arg(long)]
    todo: bool,
    /// Only the items split a level deeper (RUN/within-INDEX) and not merged
    /// back yet, one number a line, in the order --todo takes items: the order
    /// `make campaign` works on the splits in (those of first guesses settled
    /// already last).
    #[arg(long, conflicts_with_all = ["checkpoint", "json", "todo"])]
    splits: bool,
    /// Only the items --todo lists that are solved at once, in its order: those
    /// of first guesses settled already (shown too dear), whose budgets are below
    /// what they cost at least. They decide nothing, only make the proof whole,
    /// and take a fraction of a second each: `make campaign` gives them to one
    /// solve-class in batches.
    #[arg(long, conflicts_with_all = ["checkpoint", "json", "todo", "splits"])]
    at_once: bool,
}

/// Merge the items into one tree file, byte-identical to a single run.
#[derive(clap::Args)]
pub struct MergeArgs {
    /// The plan's folder (`mmgen plan --dir RUN`).
    #[arg(long, value_name = "RUN")]
    dir: PathBuf,
    /// Where to write the tree (as for `mmgen --out`).
    #[arg(long, value_name = "FILE", required_unless_present = "into")]
    out: Option<PathBuf>,
    /// A plan of an item's class (`mmgen plan --within PARENT`): write that item of
    /// PARENT instead of a tree (and its certificate, for a certified plan).
    #[arg(long, value_name = "PARENT", conflicts_with_all = ["out", "certificate", "force"])]
    into: Option<PathBuf>,
    /// Replace FILE even if it exists and is not a tree file.
    #[arg(long)]
    force: bool,
    /// A certified plan: write the merged certificate of the proof to FILE (as for
    /// `mmgen --certificate`).
    #[arg(long, value_name = "FILE")]
    certificate: Option<PathBuf>,
    /// Before every item is done: open with TREE's first guess (one the plan
    /// considers), put the items done under it in their places, an item not done
    /// whose split (RUN/within-INDEX) has a guess costed in full as that guess
    /// plays it where that is cheaper than TREE there, and play every other class
    /// as TREE (a tree file of the board) does. Its header names it imported,
    /// with TREE and the plan; it claims nothing an audit does not prove. Written
    /// to RUN/known.mmt (with --force), its total lowers the budgets of the items
    /// of the first guesses still open.
    #[arg(long, value_name = "TREE", conflicts_with_all = ["into", "certificate"])]
    fill: Option<PathBuf>,
    /// Print the statistics as one JSON object.
    #[arg(long)]
    json: bool,
}

pub fn plan(args: &PlanArgs) -> Outcome {
    let plan = match (&args.within, args.item) {
        (Some(parent), Some(item)) => {
            let parent = Run::open(parent)?;
            pool(args.threads)?.install(|| Plan::within(&parent, item))?
        }
        _ => {
            let recipe = recipe(args)?;
            pool(args.threads)?.install(|| Plan::new(recipe, args.depth))?
        }
    };
    if let Ok(existing) = Run::open(&args.dir) {
        if existing.plan != plan && !args.force {
            return Err(format!(
                "{} holds another plan; not replaced (pass --force to replace it)",
                args.dir.display()
            )
            .into());
        }
    }
    let mmgen = std::env::current_exe()
        .map(|p| p.display().to_string())
        .unwrap_or_else(|_| "mmgen".into());
    let tasks = array_tasks(&plan, args.tasks)?;
    let run = Run::create(&args.dir, plan, &mmgen, tasks)?;
    let sizes: Vec<u32> = run.plan.items.iter().map(|i| i.secrets).collect();
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "planned {} work items at depth {} ({} secrets; the largest item {}, the smallest {}) for {} in {}",
        sizes.len(),
        run.plan.depth,
        sizes.iter().map(|&s| u64::from(s)).sum::<u64>(),
        sizes.iter().max().unwrap_or(&0),
        sizes.iter().min().unwrap_or(&0),
        match tasks {
            1 => "1 array task".to_string(),
            n => format!("{n} array tasks"),
        },
        args.dir.display()
    )?;
    // A split's items merge into its parent's item, not into a tree file.
    let merge = match &args.within {
        Some(parent) => format!("--into {}", parent.display()),
        None => "--out FILE".into(),
    };
    writeln!(
        out,
        "run them: {0}/submit.sh (Slurm), or mmgen solve-class --dir {0} INDEX..., then mmgen merge --dir {0} {merge}",
        args.dir.display()
    )?;
    Ok(())
}

/// What `mmgen plan` builds without --within: the board and options given.
fn recipe(args: &PlanArgs) -> Result<Recipe, Failure> {
    let board = args.board.board()?;
    let first = first_guess(board, args.first.as_deref())?;
    let recipe = Recipe {
        board,
        strategy: args.strategy,
        consistent_only: args.consistent_only,
        first,
        max_depth: args.max_depth,
        symmetry: !args.no_symmetry,
        certified: args.certificate,
    };
    (recipe.check()).map_err(|e| Failure::Usage(format!("{e} (see mmgen plan --help)")))?;
    Ok(recipe)
}

pub fn solve(args: &SolveArgs) -> Outcome {
    if let (Some(task), Some(tasks)) = (args.task, args.tasks) {
        if task >= tasks {
            return Err(Failure::Usage(format!(
                "--task {task}: the tasks are 0 to {} (see mmgen solve-class --help)",
                tasks - 1
            )));
        }
    }
    let mut run = Run::open(&args.dir)?;
    // A certified item's facts come in one thread's order (see `--certificate`).
    let pool = pool(match run.plan.recipe.certified {
        true => 1,
        false => args.threads,
    })?;
    // The options of an exact plan's items: the first given to another plan's named.
    let exact = run.plan.recipe.strategy == StrategyKind::Optimal;
    let exact_only = [
        ("--cache-mib", args.cache_mib.is_some()),
        ("--share", args.share),
        ("--again", args.again),
        ("--recheck", args.recheck),
        ("--checkpoint-every", args.checkpoint_every.is_some()),
    ];
    if let (false, Some((flag, _))) = (exact, exact_only.iter().find(|(_, given)| *given)) {
        return Err(Failure::Usage(format!(
            "{flag} applies to the items of an exact plan only (see mmgen solve-class --help)"
        )));
    }
    if exact {
        run.cache.bytes = item_cache(args, run.plan.recipe.board, pool.current_num_threads())?;
    }
    run.shares = args.share;
    run.again = args.again;
    run.recheck = args.recheck;
    if let Some(every) = args.checkpoint_every {
        run.saves = Some(std::time::Duration::from_secs_f64(every));
        if let Some(seconds) = args.budget_every {
            run.budget_every = std::time::Duration::from_secs_f64(seconds);
        }
        let board = run.plan.recipe.board;
        run.on_save = Some(Box::new(move |index, standing, searched| {
            eprintln!(
                "item {index}: saved; {}",
                item_standing(board, standing, searched)
            );
        }));
        run.on_budget = Some(Box::new(|index, was, now| {
            let (moved, why) = match now < was {
                true => ("fell", "items done since it began"),
                false => ("rose", "its share of its guess's gap grew"),
            };
            eprintln!(
                "item {index}: its budget {moved} from {was} to {now} ({why}): its search goes on under {now}"
            );
        }));
    }
    let items = match (args.task, args.tasks) {
        // The task is below the tasks (checked above).
        (Some(task), Some(tasks)) => task_items(&run.plan, task, tasks).unwrap_or_default(),
        _ => args.items.clone(),
    };
    // Many items (a campaign's items of first guesses settled, up to 256): the
    // status read once, not at each item's budget (0.19 s of the 0.35 s each
    // took on 5x8's within-22).
    if exact && items.len() > 1 {
        run.note_settled()?;
    }
    let mut out = std::io::stdout().lock();
    for &index in &items {
        let started = std::time::Instant::now();
        let solved = pool.install(|| run.solve(index, &Counters::default()))?;
        let took = started.elapsed().as_secs_f64();
        let Some(built) = solved else {
            writeln!(out, "item {index}: done already")?;
            continue;
        };
        let resumed = match built.resumed {
            Some(r) => {
                let before = match r.seconds {
                    0.0 => String::new(),
                    s => format!(", after {s:.2} s of search in the runs before"),
                };
                format!(
                    ", going on from its checkpoint: {} proven sets, {:.1} MB, loaded in {:.2} s{before}",
                    r.sets,
                    r.bytes as f64 / 1e6,
                    r.took.as_secs_f64()
                )
            }
            None => String::new(),
        };
        let searched = match built.positions {
            0 => String::new(),
            positions => format!(", {positions} positions searched"),
        };
        let cost = match built.cost {
            Cost::Exact(total) => format!("costs {total}"),
            cost => format!("costs at least {} (its budget)", cost.least()),
        };
        writeln!(
            out,
            "item {index}: built ({took:.2} s{searched}{resumed}): {cost}"
        )?;
    }
    Ok(())
}

/// Where an item's search stands at a save: "1267228 positions searched (5012345
/// with its runs before); its class costs at least 33162; at most 33790 (its
/// guess 1234 costed in full); its guess of least floor, 1457: 12 of 14 classes
/// solved (2100 of 2238 secrets; open: 138)".
fn item_standing(board: Board, standing: &Standing, searched: u64) -> String {
    let all = match standing.earlier {
        0 => String::new(),
        earlier => format!(" ({} with its runs before)", searched + earlier),
    };
    let code = |guess: u32| board.code(guess).map(|c| board.display(c).to_string());
    let best = match (standing.best, standing.best_first.and_then(code)) {
        (Some(total), Some(guess)) => {
            format!("; at most {total} (its guess {guess} costed in full)")
        }
        _ => String::new(),
    };
    let least = (standing.firsts.iter().zip(&standing.solved))
        .min_by_key(|((_, floor), _)| *floor)
        .and_then(|((guess, _), solved)| {
            let code = code(*guess)?;
            let open: Vec<String> = solved.open.iter().map(u32::to_string).collect();
            Some(format!(
                "; its guess of least floor, {code}: {} of {} classes solved ({} of {} secrets; open: {})",
                solved.classes,
                solved.of_classes,
                solved.secrets,
                solved.of_secrets,
                open.join(" ")
            ))
        })
        .unwrap_or_default();
    format!(
        "{searched} positions searched{all}; its class costs at least {}{best}{least}",
        standing.floor
    )
}

/// The cache of an exact plan's items in bytes: `--cache-mib` or the default,
/// checked against the memory available as a single run's is (each item needs at
/// most what the whole board's search does besides its cache).
fn item_cache(args: &SolveArgs, board: Board, threads: usize) -> Result<usize, Failure> {
    let asked = args.cache_mib.map_or(DEFAULT_CACHE_MIB, |mib| mib as usize) << 20;
    let Some(available) = crate::generate::available_memory() else {
        return Ok(asked);
    };
    let run = estimate::Run {
        board,
        strategy: StrategyKind::Optimal,
        threads,
        trees: 1,
        exact_below: false,
        rollout: false,
        time_limit: None,
        cache_bytes: asked as u64,
        saves: args.checkpoint_every.is_some(),
    };
    // An exact search's memory has no rate in it: any scoring time will do.
    let estimate = estimate::estimate(&run, 1.0);
    let cut = crate::generate::fit_cache(&estimate, args.cache_mib, args.force, available)?;
    Ok(cut.unwrap_or(asked))
}

/// A time as `mmgen status` says it: in hours from an hour on, else in seconds.
fn hours(seconds: f64) -> String {
    match seconds {
        s if s >= 3600.0 => format!("{:.1} h", s / 3600.0),
        s => format!("{s:.0} s"),
    }
}

/// What `mmgen status` says of an exact plan's time left: its projection from the
/// items done, said to be one, or why there is none yet.
fn projected_left(projected: Option<Projection>, stopped: Option<Projection>) -> String {
    let Some(p) = projected else {
        // On 4x12, a class of 4,096 secrets took 18 s and one of 6,944 was not done
        // after 25 minutes: the rate of the secrets done says nothing of those left.
        return "not projected until three items of different sizes have taken a second \
                or more each (an exact item's search grows far faster than its secrets)"
            .into();
    };
    let time = hours(p.seconds);
    let beyond = match p.beyond {
        (0, _) => String::new(),
        (n, s) => format!(
            ", {:.0}% of it for the {n} items left larger than any in the fit",
            100.0 * s / p.seconds
        ),
    };
    let stopped = match stopped {
        Some(s) => format!(
            "; about {} if each stops at its budget as the {} items done that did (and took a \
             second or more) took: n^{:.2}, times {:.2}, within {:.1} times",
            hours(s.seconds),
            s.fitted,
            s.exponent,
            s.scale,
            s.spread
        ),
        None => String::new(),
    };
    format!(
        "about {time} of one core, projected: each item left of a first guess still open \
         taking what items of its size took, the power of its secrets fitted to the {} items \
         done that took a second or more (n^{:.2}; they lie within {:.1} times of the fit), \
         times {:.2}, their mean over the fit{beyond}{stopped}; a first guess settled on the \
         way leaves its items out",
        p.fitted, p.exponent, p.spread, p.scale
    )
}

pub fn status(args: &StatusArgs) -> Outcome {
    let dir = match (&args.dir, &args.checkpoint) {
        (_, Some(checkpoint)) => {
            return crate::checkpoint::status(checkpoint, args.json, args.classes)
        }
        (Some(dir), None) => dir,
        (None, None) => return Err("--dir RUN or --checkpoint DIR is required".into()),
    };
    let run = Run::open(dir)?;
    if args.todo || args.splits || args.at_once {
        let items = if args.todo {
            run.todo()?
        } else if args.at_once {
            run.todo_at_once()?
        } else {
            run.splits_todo()?
        };
        let mut out = std::io::stdout().lock();
        for item in items {
            writeln!(out, "{item}")?;
        }
        return Ok(());
    }
    let status = run.status()?;
    let known_tree = run.known_tree()?.map(|tree| tree.total);
    let saves = Saved::read_all(&run, &status);
    let board = run.plan.recipe.board;
    let code = |index: u32| board.code(index).map(|c| board.display(c).to_string());
    let standing = status.standing.as_ref();
    let best = standing.and_then(|s| s.best);
    let done_of = |first: &First| {
        let done = first.items.iter().filter(|i| status.done.contains(i));
        done.count()
    };
    let mut out = std::io::stdout().lock();
    let split_dir = |item: usize| run.split_dir(item).display().to_string();
    // A save of an item split a level deeper since: its split's items solve it.
    let left_over = |item: usize| status.is_split(item);
    // A split's class costs at least what its own standing proves and its
    // item's floor here, whichever is more (its floors may not be worked out).
    let least = |item: usize| status.least(item);
    // The items this run's workers still have to solve, by their classes' sizes.
    let mut to_solve: Vec<u32> = (0..status.jobs)
        .filter(|&i| status.to_solve(i))
        .map(|i| run.plan.items[i].secrets)
        .collect();
    to_solve.sort_unstable_by(|a, b| b.cmp(a));
    let to_solve_secrets: u64 = to_solve.iter().map(|&n| u64::from(n)).sum();
    let settled = (0..status.jobs).filter(|&i| status.at_once(i)).count();
    let projection = run.projection(&status);
    let stopped = run.projection_stopped(&status);
    // Each split's own, from its items done (a split is a plan of its own).
    // A split's time left is what its own status projects: `status.splits`
    // holds its status uncapped, in which items its cap stopped (at their
    // budgets) look open and to be solved again (5x8's within-39, all done,
    // showed 4.9 hours left so).
    let split_left = |item: usize| -> Option<f64> {
        let split = run.split(item)?;
        let own = split.status().ok()?;
        Some(split.projection(&own)??.seconds)
    };
    let seconds_left = match &projection {
        Some(projected) => projected.as_ref().map(|p| p.seconds),
        None => status.seconds_left(),
    };
    if args.json {
        let json = serde_json::json!({
            "jobs": status.jobs,
            "done": status.done.len(),
            "missing": status.missing.len(),
            "damaged": status.damaged.len(),
            "missing_items": status.missing,
            "damaged_items": status.damaged,
            "seconds": status.seconds(),
            "items_done": (status.done.iter().zip(&status.times))
                .map(|(item, (secrets, seconds))| serde_json::json!({
                    "item": item,
                    "secrets": secrets,
                    "seconds": seconds,
                    "least": least(*item),
                    "exact": status.costs.get(*item).map(|cost| matches!(cost, Cost::Exact(_))),
                }))
                .collect::<Vec<_>>(),
            "seconds_left": seconds_left,
            "projection": projection.flatten().map(|p| serde_json::json!({
                "fitted": p.fitted,
                "exponent": p.exponent,
                "scale": p.scale,
                "spread": p.spread,
            })),
            "projection_stopped": stopped.map(|p| serde_json::json!({
                "fitted": p.fitted,
                "exponent": p.exponent,
                "scale": p.scale,
                "spread": p.spread,
                "seconds": p.seconds,
            })),
            "to_solve": to_solve.len(),
            "to_solve_secrets": to_solve_secrets,
            "to_solve_largest": to_solve.first(),
            "to_solve_settled": settled,
            "to_solve_again": status.reopened.len(),
            "best_first": best.and_then(|(guess, _)| code(guess)),
            "best_total": best.map(|(_, total)| total),
            "lower_bound": standing.map(|s| s.floor),
            "best_known_total": standing.and_then(|s| s.best_known),
            "known_tree_total": known_tree,
            "split_best_first": standing.and_then(|s| s.split_best).and_then(|(guess, _)| code(guess)),
            "split_best_total": standing.and_then(|s| s.split_best).map(|(_, total)| total),
            "open_first_guesses": standing.map(|s| s.open),
            "floors_left": standing.map(|_| status.floors_left),
            "cap": standing.and_then(|s| s.cap),
            "first_guesses": standing.map(|s| (s.firsts.iter())
                .map(|f| serde_json::json!({
                    "guess": code(f.guess),
                    "items": f.items.len(),
                    "done": done_of(f),
                    "least_total": f.cost.least(),
                    "exact": matches!(f.cost, Cost::Exact(_)),
                    "tree_total": f.cost.tree(),
                    "open": f.open,
                }))
                .collect::<Vec<_>>()),
            "in_progress": (saves.iter())
                .map(|(item, saved)| match saved {
                    Ok(saved) => serde_json::json!({
                        "item": item,
                        "left_over": left_over(*item),
                        "seconds_since_save": saved.age,
                        "seconds_searched": saved.searched,
                        "positions": saved.positions,
                        "least_total": saved.least(least(*item)),
                        "best_second": saved.best.and_then(|(guess, _)| code(guess)),
                        "best_total": saved.best.map(|(_, total)| total),
                    }),
                    Err(e) => serde_json::json!({ "item": item, "left_over": left_over(*item), "error": e }),
                })
                .collect::<Vec<_>>(),
            "splits": (status.splits.iter())
                .map(|(item, split)| serde_json::json!({
                    "item": item,
                    "dir": split_dir(*item),
                    "items": split.jobs,
                    "done": split.done.len(),
                    "least_total": least(*item),
                    "floors_left": split.floors_left,
                    "seconds_left": split_left(*item),
                }))
                .collect::<Vec<_>>(),
        });
        writeln!(out, "{json}")?;
        return Ok(());
    }
    writeln!(
        out,
        "{} work items: {} done, {} missing, {} damaged",
        status.jobs,
        status.done.len(),
        status.missing.len(),
        status.damaged.len()
    )?;
    if let Some(within) = &run.plan.within {
        let secrets = run.plan.secrets();
        writeln!(
            out,
            "within       item {} of another plan, its class of {secrets} secrets: the totals \
             below are the class's, and its guesses stand where first guesses do",
            within.item
        )?;
        if let Some(cap) = standing.and_then(|s| s.cap) {
            writeln!(
                out,
                "matters      below {cap} guesses for its class (item {}'s budget in the plan \
                 above): a guess that costs that much is settled, and none need prove more",
                within.item
            )?;
        } else if run.above().is_none() {
            writeln!(
                out,
                "matters      not known here: the plan above is not in the folder that holds \
                 this one (a campaign lays its levels out so), and its cap, item {}'s budget \
                 there, is read from it: a guess is settled here only above the best known",
                within.item
            )?;
        }
    }
    writeln!(
        out,
        "time spent   {:.1} s (summed over the items)",
        status.seconds()
    )?;
    let dir = dir.display();
    let merge = match run.plan.within {
        Some(_) => "--into PARENT",
        None => "--out FILE",
    };
    let without_slurm = format!(
        "without Slurm: mmgen status --dir {dir} --todo | xargs -n 1 -P 2 mmgen solve-class --dir {dir}"
    );
    if status.missing.is_empty() && status.damaged.is_empty() {
        writeln!(
            out,
            "all done     only the merge is left: mmgen merge --dir {dir} {merge}"
        )?;
    } else if let Some(projected) = projection {
        let splits = match status.splits.is_empty() {
            true => "",
            false => {
                " (besides the items split a level deeper: each split's line below gives its own)"
            }
        };
        writeln!(
            out,
            "time left    {}{splits}; {without_slurm}",
            projected_left(projected, stopped)
        )?;
    } else if let Some(left) = seconds_left {
        writeln!(
            out,
            "time left    about {left:.1} s of work, at the rate of the items done; {without_slurm}"
        )?;
    } else {
        writeln!(
            out,
            "time left    unknown until an item is done; {without_slurm}"
        )?;
    }
    if let Some(&largest) = to_solve.first() {
        let big = to_solve.iter().filter(|&&n| n >= 1000).count();
        let split = match status.splits.is_empty() {
            true => "",
            false => " (besides the items split a level deeper, whose lines are below)",
        };
        let quick = match settled {
            0 => String::new(),
            n => format!(
                "; {n} of them of first guesses already settled (shown too dear), \
                 each solved at once"
            ),
        };
        let again = match status.reopened.len() {
            0 => String::new(),
            n => format!(
                "; {n} of them done, shown dearer by their shares only (solve-class --share) \
                 where their guesses' other items left the guesses open: solved again, \
                 under all the gap"
            ),
        };
        writeln!(
            out,
            "to solve     {} items{split}, {to_solve_secrets} secrets in all, {big} of 1000 \
             secrets or more, the largest {largest}{quick}{again}",
            to_solve.len()
        )?;
    }
    if status.floors_left > 0 {
        writeln!(
            out,
            "floors       {} of the {} items have no floor worked out yet: they count at their \
             classes' size bounds below, a weaker bound; mmgen status --dir {dir} --todo works \
             them out and keeps them (hours on a big plan), as make campaign does",
            status.floors_left, status.jobs
        )?;
    }
    if let Some(standing) = standing {
        if let Some((guess, total)) = best {
            let first = code(guess).unwrap_or_default();
            writeln!(
                out,
                "best so far  {total} guesses in total, first guess {first}"
            )?;
        }
        if let Some((guess, total)) = standing.split_best {
            let first = code(guess).unwrap_or_default();
            writeln!(
                out,
                "tree known   {total} guesses in total, first guess {first}, with its splits' \
                 best trees so far, or the known tree's where cheaper (their searches may \
                 still lower it)"
            )?;
        }
        if standing.floor >= generator::plan::NEVER {
            writeln!(out, "proven       no strategy meets the plan's --max-depth")?;
        } else {
            let by = match status.splits.is_empty() {
                true => "the items done and the others' floors",
                false => "the items done, those of the splits below and the others' floors",
            };
            let open = match standing.open {
                1 => "1 first guess".to_string(),
                n => format!("{n} first guesses"),
            };
            writeln!(
                out,
                "lower bound  {} guesses in total for any strategy with the plan's options \
                 (proven by {by}); {open} still open",
                standing.floor
            )?;
            if let Some(known) = standing.best_known {
                let gap = 100.0 * known.saturating_sub(standing.floor) as f64 / known as f64;
                // A tree one can open, the known tree, is named before the
                // splits' trees so far, which may be it.
                let whose = match (best, standing.split_best) {
                    (Some((_, total)), _) if total == known => "the best so far".into(),
                    _ if known_tree == Some(known) => {
                        format!(
                            "the tree in {}",
                            run.dir.join(generator::plan::KNOWN_TREE).display()
                        )
                    }
                    (_, Some((guess, total))) if total == known => format!(
                        "first guess {}'s tree with its splits' trees so far",
                        code(guess).unwrap_or_default()
                    ),
                    _ => "a heuristic tree's".into(),
                };
                writeln!(
                    out,
                    "gap          {gap:.2}% from the lower bound to the least total known, {known} ({whose})"
                )?;
            }
            // An open guess is settled once its least reaches this: past the
            // least total known, or at the cap.
            let past_known = standing.best_known.map(|known| known + 1);
            let settles_at = past_known.into_iter().chain(standing.cap).min();
            writeln!(out, "first guess  items done  least total")?;
            for first in &standing.firsts {
                let state = match (first.cost, first.open) {
                    (Cost::Exact(total), _) => format!("{total} (costed in full)"),
                    (Cost::AtLeast(least), true) => match settles_at {
                        Some(bar) => format!(
                            "at least {least} (open: {} short of being settled)",
                            bar - least
                        ),
                        None => format!("at least {least} (open)"),
                    },
                    (Cost::Between(least, tree), true) => {
                        format!("at least {least}, a tree of {tree} with its splits' (open)")
                    }
                    (Cost::AtLeast(least) | Cost::Between(least, _), false)
                        if least >= generator::plan::NEVER =>
                    {
                        "none within the depth limit (settled)".into()
                    }
                    (Cost::AtLeast(least) | Cost::Between(least, _), false)
                        if standing.cap.is_some_and(|cap| least >= cap) =>
                    {
                        format!("at least {least} (settled: too dear to matter above)")
                    }
                    (Cost::AtLeast(least) | Cost::Between(least, _), false) => {
                        format!("at least {least} (settled: above the best known)")
                    }
                };
                let items = format!("{} of {}", done_of(first), first.items.len());
                let guess = code(first.guess).unwrap_or_default();
                writeln!(out, "{guess:<12} {items:<11} {state}")?;
            }
        }
    }
    for (item, split) in &status.splits {
        let secrets = run.plan.items[*item].secrets;
        let at_least = least(*item).map_or(String::new(), |f| format!(", its class at least {f}"));
        let floors = match split.floors_left {
            0 => String::new(),
            n => format!(" ({n} of its items with no floor worked out yet)"),
        };
        let all_done = split.done.len() == split.jobs;
        let left = match (!all_done).then(|| split_left(*item)).flatten() {
            Some(seconds) => format!(
                ", about {} of one core left by its own projection (its status says how)",
                hours(seconds)
            ),
            None => String::new(),
        };
        let merge = match all_done {
            true => "all done, only the merge is left",
            false => "once all are done",
        };
        writeln!(
            out,
            "split        item {item}'s class of {secrets} secrets, in {}: {} of {} items done{at_least}{floors}{left}; \
             {merge}: mmgen merge --dir {} --into {dir}",
            split_dir(*item),
            split.done.len(),
            split.jobs,
            split_dir(*item),
        )?;
    }
    for (item, saved) in &saves {
        let secrets = run.plan.items[*item].secrets;
        let at = match saved {
            Ok(saved) => saved.words(board, status.least(*item)),
            Err(e) => format!("its checkpoint cannot be read: {e}"),
        };
        match left_over(*item) {
            false => writeln!(
                out,
                "in progress  item {item}, its class of {secrets} secrets: {at}"
            )?,
            true => writeln!(
                out,
                "left over    item {item}'s save, its class of {secrets} secrets: {at}; the item was \
                 split a level deeper since, in {}, whose items --todo and campaigns take instead: \
                 no longer gone on with, it may be deleted ({})",
                split_dir(*item),
                run.checkpoint_dir(*item).display()
            )?,
        }
    }
    Ok(())
}

/// Where an item not done stood at its search's last save (cut off, or
/// running now): `mmgen solve-class --checkpoint-every` keeps it in
/// RUN/items/N.checkpoint.
struct Saved {
    /// Seconds since the save.
    age: f64,
    /// How long its search had taken by then, in all its runs (saves of a build
    /// before 2026-12-01 do not say).
    searched: Option<f64>,
    positions: u64,
    /// The least its class costs, as far as the search had proven.
    floor: Option<u32>,
    /// The cheapest second guess costed in full (its classes all solved), and its total.
    best: Option<(u32, u32)>,
}

impl Saved {
    /// The saves of `run`'s items not done, in item order.
    fn read_all(run: &Run, status: &Status) -> Vec<(usize, Result<Saved, String>)> {
        let mut open: Vec<usize> = status
            .missing
            .iter()
            .chain(&status.damaged)
            .copied()
            .collect();
        open.sort_unstable();
        (open.into_iter())
            .filter_map(|item| {
                let path = generator::checkpoint::file(&run.checkpoint_dir(item));
                let modified = std::fs::metadata(&path).ok()?.modified().ok()?;
                Some((item, Saved::read(&path, modified)))
            })
            .collect()
    }

    fn read(path: &std::path::Path, modified: std::time::SystemTime) -> Result<Saved, String> {
        let in_file = |e: String| format!("{}: {e}", path.display());
        let opened = std::fs::File::open(path).map_err(|e| in_file(e.to_string()))?;
        let summary = generator::checkpoint::summary(opened).map_err(in_file)?;
        let standing = summary.standing.as_ref();
        let dir = path.parent().unwrap_or(std::path::Path::new("."));
        Ok(Saved {
            age: modified.elapsed().map_or(0.0, |d| d.as_secs_f64()),
            searched: generator::checkpoint::recorded_seconds(dir)?,
            positions: standing.map_or(0, |s| s.earlier),
            floor: standing.filter(|s| !s.firsts.is_empty()).map(|s| s.floor),
            best: standing.and_then(|s| s.best_first.zip(s.best)),
        })
    }

    /// The least its class costs: its search's floor, or `plan`'s (the plan's
    /// floors) if higher.
    fn least(&self, plan: Option<u64>) -> Option<u64> {
        (self.floor.map(u64::from).into_iter().chain(plan)).max()
    }

    /// "878877 positions at its save 4 min ago, after 5.2 h of search; its class
    /// costs at least 24094; at most 25036 (its guess 22536 costed in full)", the
    /// floor [`Saved::least`].
    fn words(&self, board: Board, plan: Option<u64>) -> String {
        let floor = self.least(plan);
        let floor = floor.map_or(String::new(), |f| format!("; its class costs at least {f}"));
        let best = self
            .best
            .and_then(|(guess, total)| Some((board.display(board.code(guess)?), total)))
            .map_or(String::new(), |(guess, total)| {
                format!("; at most {total} (its guess {guess} costed in full)")
            });
        let searched =
            (self.searched).map_or(String::new(), |s| format!(", after {} of search", hours(s)));
        format!(
            "{} positions at its save {:.0} min ago{searched}{floor}{best}",
            self.positions,
            self.age / 60.0
        )
    }
}

pub fn merge(args: &MergeArgs) -> Outcome {
    let Some(target) = &args.out else {
        return merge_into(args);
    };
    check_target(target, args.force).map_err(|e| e.to_string())?;
    let certificate = (args.certificate.as_ref())
        .map(|target| certificate_target(target, args.force, &Proof::MAGIC))
        .transpose()
        .map_err(|e| e.to_string())?;
    let run = Run::open(&args.dir)?;
    if let Some(fill) = &args.fill {
        return merge_filled(args, &run, fill, target);
    }
    let merged = run.merge();
    let written = match (&certificate, &merged) {
        (Some(path), Ok(_)) => Some(run.merge_certificate(path)?),
        // The items proved that no strategy meets the depth: that is certified too.
        (Some(path), Err(e)) if e.contains("no strategy") => {
            let written = run.merge_certificate(path)?;
            eprintln!(
                "mmgen: certificate of that proof: {} ({} facts)",
                path.display(),
                written.facts
            );
            None
        }
        _ => None,
    };
    let tree = merged?;
    let (summary, bytes) = written_tree(target, &tree, args.force)?;
    let mut out = std::io::stdout().lock();
    if args.json {
        let extra = serde_json::json!({
            "file": target.display().to_string(),
            "certificate_facts": written.as_ref().map(|w| w.facts),
            "certificate_premises": written.as_ref().map(|w| w.premises),
            "certificate_bytes": written.as_ref().map(|w| w.bytes),
        });
        writeln!(out, "{}", lookup::cli::report(&summary, extra))?;
    } else {
        writeln!(out, "{summary}")?;
        if let (Some(w), Some(path)) = (written, &certificate) {
            let (tree, cert) = (target.display(), path.display());
            match w.premises {
                0 => writeln!(
                    out,
                    "certificate  {cert} ({} facts, {} bytes; check it: mmcheck {tree} {cert})",
                    w.facts, w.bytes
                )?,
                premises => writeln!(
                    out,
                    "certificate  {cert} ({} facts, {premises} of them premises for the parts not here, {} bytes; \
                     check it with the ledger of their checks: mmcheck --parts LEDGER {tree} {cert})",
                    w.facts, w.bytes
                )?,
            }
        }
        writeln!(out, "file         {} ({bytes} bytes)", target.display())?;
    }
    Ok(())
}

/// `tree` written to `target`: what `mmgen` prints of it, and its bytes.
fn written_tree(
    target: &std::path::Path,
    tree: &generator::Generated,
    force: bool,
) -> Result<(Summary, u64), Failure> {
    let bytes = write_tree_file(target, tree, force).map_err(|e| e.to_string())?;
    let first = tree
        .board
        .code(tree.numbered.records[0].guess)
        .ok_or("no first guess")?;
    Ok((Summary::new(tree.board, &tree.meta, first, bytes), bytes))
}

/// `mmgen merge --dir RUN --fill TREE --out FILE`: the items done, the rest
/// played as TREE plays it (`generator::plan::fill`).
fn merge_filled(
    args: &MergeArgs,
    run: &Run,
    fill: &std::path::Path,
    target: &std::path::Path,
) -> Outcome {
    let codes = generator::codes::Codes::new(run.plan.recipe.board);
    let other = generator::import::tree_file(&codes, fill)?;
    let source = other.strategy;
    let opens = other.tree.first_guess();
    let first = codes
        .board()
        .code(opens)
        .map(|c| codes.board().display(c).to_string());
    let first = first.unwrap_or_default();
    let filled = run.filled(other.tree)?;
    let tally = &filled.tally;
    let name = fill.file_name().unwrap_or_default().to_string_lossy();
    let (searched, split, left) = (tally.searched.len(), tally.split.len(), tally.filled.len());
    let of_splits = match split {
        0 => String::new(),
        n => format!(", {n} as their splits' best guesses so far play them"),
    };
    let mut info = StrategyInfo {
        name: StrategyKind::Imported.name().into(),
        rule: format!(
            "an exact plan's items done, {searched} of the {} after {first}, in their places{of_splits}; \
             the other classes played as {name} plays them",
            searched + split + left
        ),
        tie_break: "as given".into(),
        params: Vec::new(),
        proven: None,
    };
    info.set_params(&[
        Param::Source(name.to_string()),
        Param::SourceStrategy(source),
        Param::Plan(format!("{:08x}", run.identity())),
    ]);
    let tree = generator::lay_out(codes.board(), &filled.tree, info);
    let (summary, bytes) = written_tree(target, &tree, args.force)?;
    let mut out = std::io::stdout().lock();
    let (now, before) = (tally.searched_total, tally.replaced_total);
    if args.json {
        let extra = serde_json::json!({
            "file": target.display().to_string(),
            "items_searched": tally.searched,
            "items_filled": tally.filled,
            "searched_total": now,
            "fill_total_there": before,
            "items_from_splits": tally.split,
            "splits_total": tally.split_total,
            "fill_total_at_splits": tally.split_replaced_total,
        });
        writeln!(out, "{}", lookup::cli::report(&summary, extra))?;
        return Ok(());
    }
    writeln!(out, "{summary}")?;
    let gain = match before.cmp(&now) {
        std::cmp::Ordering::Greater => format!("{} fewer", before - now),
        std::cmp::Ordering::Equal => "as many".into(),
        std::cmp::Ordering::Less => format!("{} more", now - before),
    };
    let of_splits = match split {
        0 => String::new(),
        _ => format!(
            "; {split} ({}) as their splits' best guesses so far play them: {} guesses where {name} takes {}",
            tally.split.iter().map(|i| format!("item {i}")).collect::<Vec<_>>().join(", "),
            tally.split_total,
            tally.split_replaced_total
        ),
    };
    writeln!(
        out,
        "items        {searched} of {} after {first} searched: {now} guesses where {name} takes {before} ({gain}){of_splits}; \
         {left} played as {name} plays them",
        searched + split + left
    )?;
    writeln!(out, "file         {} ({bytes} bytes)", target.display())?;
    Ok(())
}

/// `mmgen merge --dir RUN --into PARENT`: a plan of an item's class written as
/// that item of PARENT.
fn merge_into(args: &MergeArgs) -> Outcome {
    let parent = args
        .into
        .as_ref()
        .ok_or("--out FILE or --into PARENT is required")?;
    let run = Run::open(&args.dir)?;
    let (cost, written) = run.merge_into(&Run::open(parent)?)?;
    let index = run.plan.within.as_ref().map_or(0, |w| w.item);
    let mut out = std::io::stdout().lock();
    let what = match cost {
        Cost::Exact(total) => format!("total {total} for its class"),
        cost => format!(
            "its class costs at least {}, too dear to matter there",
            cost.least()
        ),
    };
    writeln!(out, "item {index} of {}: merged ({what})", parent.display())?;
    if let Some(w) = written {
        writeln!(
            out,
            "certificate  its part ({} facts, {} of them premises for the parts not here, {} bytes): \
             mmcheck --parts LEDGER checks it once its own parts are in LEDGER",
            w.facts, w.premises, w.bytes
        )?;
    }
    Ok(())
}
