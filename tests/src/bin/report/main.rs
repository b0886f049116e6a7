//! `mmtree-report`: writes the tables that make claims about trees and speed, from
//! measurements taken now, so README-style numbers are never typed by hand.
//!
//! - `mmtree-report trees [--check]`: audits every `trees/*.mmt` with the lookup
//!   library and writes the table in `trees/README.md` (with `--check`, fails if the
//!   file is not what it would write).
//! - `mmtree-report bench [--large]`: times `mmgen` on several boards and strategies
//!   (with `--large` also 6x9 and 7x7), `mmlookup next` as whole processes, reads
//!   criterion's medians and the device build's sizes, and writes `BENCHMARKS.md`
//!   (and the device section of `trees/README.md`).
//!
//! - `mmtree-report devices [--write]`: trees on emulated chips (see [`devices`]).
//!
//! - `mmtree-report estimates [--write]`: `mmgen --estimate` against measured runs.
//!
//! - `mmtree-report results ARGS`: reruns the RESULTS.md row of `mmgen ARGS` and
//!   rewrites its figures (see [`results`]).
//!
//! - `mmtree-report recheck DIR [--count N] [--seed S] [--under SECONDS]`: items
//!   of a campaign drawn at random, each solved again to what it recorded and its
//!   new part checked by `mmcheck`: a spot check of the ledger (see [`recheck`]).
//!
//! - `mmtree-report verify FILE...`: times opening each tree verified (checksum and
//!   layout) and unverified, into the verification section of `BENCHMARKS.md`.
//!
//! Run from the repository root (the Makefile does). The binaries it times are the
//! ones beside it, in the same target folder (so `CARGO_TARGET_DIR` is honoured).

mod devices;
mod estimates;
mod load;
mod recheck;
mod results;

use lookup::audit::audit;
use lookup::Tree;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

const TABLE_START: &str =
    "<!-- table: written by `make trees` (mmtree-report trees); do not edit -->";
const TABLE_END: &str = "<!-- end of table -->";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["trees"] => trees(false),
        ["trees", "--check"] => trees(true),
        ["bench"] => bench(),
        ["bench", "--large"] => bench_large(None),
        ["bench", "--large", only] => bench_large(Some(only)),
        ["devices"] => devices::devices(false),
        ["devices", "--write"] => devices::devices(true),
        ["estimates"] => estimates::estimates(false),
        ["estimates", "--write"] => estimates::estimates(true),
        ["results", args] => results::results(args),
        ["recheck", ref args @ ..] => recheck::recheck(args),
        ["verify", ref files @ ..] if !files.is_empty() => files
            .iter()
            .try_for_each(|file| record_verify_cost(Path::new(file))),
        _ => Err(
            "usage: mmtree-report trees [--check] | bench [--large [ARGS]] | devices [--write] | estimates [--write] | results ARGS | recheck DIR [--count N] [--seed S] [--under SECONDS] | verify FILE..."
                .into(),
        ),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("mmtree-report: error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// The mmgen command that regenerates a tree: for an optimum proven by a
/// campaign kept in campaigns/ (4x12's, 5x8's), the merge of its items, which
/// gives the single run's bytes in a second where the run takes days (make test
/// checks that merge against the shipped tree).
fn regenerate_command(
    tree: &Tree<&[u8]>,
    info: &lookup::format::StrategyInfo,
    path: &Path,
) -> Result<String, String> {
    let out = path.display();
    if let Some(campaign) = campaign_of(tree.board(), info) {
        return Ok(format!(
            "mmgen merge --dir {} --out {out}",
            campaign.display()
        ));
    }
    let args = mmtree_tests::regenerate_args(Path::new(""), tree.board(), info)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(format!("mmgen {} --out {out}", args.join(" ")))
}

/// The campaign in campaigns/BOARD whose items, all done, merge into the plain
/// optimum of `board` (least total, no option) that `info` describes.
fn campaign_of(board: lookup::Board, info: &lookup::format::StrategyInfo) -> Option<PathBuf> {
    use lookup::format::{Param, StrategyKind};
    let plain = (info.typed_params().iter())
        .all(|p| matches!(p, Param::WorstCase(_) | Param::ProvenLowerBound(_)));
    if info.name != StrategyKind::Optimal.name() || info.proven != Some(true) || !plain {
        return None;
    }
    let dir = Path::new("campaigns").join(board.name().to_string());
    let run = generator::plan::Run::open(&dir).ok()?;
    let recipe = &run.plan.recipe;
    let same = recipe.board == board
        && recipe.strategy == StrategyKind::Optimal
        && recipe.first.is_none()
        && recipe.max_depth.is_none()
        && !recipe.consistent_only
        && run.plan.within.is_none();
    let status = run.status().ok()?;
    (same && status.missing.is_empty() && status.damaged.is_empty()).then_some(dir)
}

fn trees_table() -> Result<String, String> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir("trees")
        .map_err(|e| format!("trees/: {e}"))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "mmt"))
        .collect();
    paths.sort();
    let mut table = String::from(
        "| file | board | strategy | first guess | worst case | total | average | histogram | nodes | bytes | bytes/node | bytes/secret | certificate |\n\
         |---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    let mut commands = String::new();
    for path in &paths {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let tree = Tree::open(&bytes[..]).map_err(|e| format!("{}: {e}", path.display()))?;
        let report = audit(&tree).map_err(|e| format!("{}: audit failed: {e}", path.display()))?;
        let board = tree.board();
        let first = tree.guess(tree.root()).map_err(|e| e.to_string())?;
        let s = &report.stats;
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        let certificate = certified(path, s.total_guesses)?;
        writeln!(
            table,
            "| {name} | {} | {} | {} | {} | {} | {:.4} | {} | {} | {} | {:.2} | {:.2} | {certificate} |",
            board.name(),
            report.meta.strategy.name,
            board.display(first),
            s.max_guesses,
            s.total_guesses,
            s.average(),
            s.histogram_text(),
            s.nodes,
            report.file_bytes,
            report.file_bytes as f64 / s.nodes as f64,
            report.file_bytes as f64 / s.secrets as f64,
        )
        .unwrap();
        let mut command = regenerate_command(&tree, &report.meta.strategy, path)?;
        if certificate != "-" {
            command += &format!(" --certificate {}", path.with_extension("mmc").display());
        }
        writeln!(commands, "- `{name}`: `{command}`").unwrap();
    }
    Ok(format!(
        "{TABLE_START}\n{table}\nEvery row is `mmlookup audit`'s result for the file (the histogram lists \
         guesses:secrets); a certificate is the proof's (NAME.mmc beside the tree), checked fact by fact by \
         the checker behind `mmcheck`, which shares no code with the search, with a claim equal to the total. \
         Regenerate with `make trees`, or one by one:\n\n{commands}{TABLE_END}"
    ))
}

/// The certificate beside the tree at `path` (NAME.mmc), checked by the checker
/// and holding a claim equal to the tree's `total`: "N facts, B bytes"; "-" if there
/// is none.
fn certified(path: &Path, total: u64) -> Result<String, String> {
    let certificate = path.with_extension("mmc");
    if !certificate.exists() {
        return Ok("-".into());
    }
    let checked = checker::check(
        &certificate,
        false,
        &[],
        &Default::default(),
        u64::MAX,
        |_| {},
    )
    .map_err(|e| format!("{}: {e}", certificate.display()))?;
    if !checked.claims.iter().any(|c| c.bound == total) {
        return Err(format!("{} does not prove {total}", certificate.display()));
    }
    let bytes = std::fs::metadata(&certificate)
        .map_err(|e| e.to_string())?
        .len();
    Ok(format!("{} facts, {bytes} bytes", checked.facts))
}

fn trees(check: bool) -> Result<(), String> {
    let readme_path = "trees/README.md";
    let readme = std::fs::read_to_string(readme_path).map_err(|e| format!("{readme_path}: {e}"))?;
    let (before, rest) = readme
        .split_once(TABLE_START)
        .ok_or(format!("{readme_path} has no table marker"))?;
    let (_, after) = rest
        .split_once(TABLE_END)
        .ok_or(format!("{readme_path} has no end-of-table marker"))?;
    let updated = format!("{before}{}{after}", trees_table()?);
    if check {
        return if updated == readme {
            Ok(())
        } else {
            Err(format!("{readme_path} is stale: run `make trees`"))
        };
    }
    std::fs::write(readme_path, updated).map_err(|e| format!("{readme_path}: {e}"))
}

/// The folder of this program, where cargo also put mmgen and mmlookup.
fn bin_dir() -> PathBuf {
    std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(Path::to_path_buf))
        .unwrap_or_else(|| PathBuf::from("target/release"))
}

/// A program built beside this one.
fn program(name: &str) -> String {
    bin_dir().join(name).display().to_string()
}

/// The cargo target folder (the parent of the profile folders).
fn target_dir() -> PathBuf {
    bin_dir()
        .parent()
        .map_or_else(|| PathBuf::from("target"), Path::to_path_buf)
}

const VERIFY_START: &str = "<!-- verify: written by mmtree-report verify; do not edit -->";
const VERIFY_END: &str = "<!-- end of verify -->";

/// Times opening the tree at `path` verified ([`Tree::open`]) and unverified, from
/// memory (the check alone, no disk), and returns a table row keyed by the tree.
fn verify_row(path: &Path) -> Result<(String, String), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let tree = Tree::open(&bytes[..]).map_err(|e| format!("{}: {e}", path.display()))?;
    let meta = tree.meta().map_err(|e| e.to_string())?;
    let key = format!("| {} {} |", tree.board().name(), meta.strategy.name);
    let runs = 21;
    let (mut verified, mut unverified) = (Vec::new(), Vec::new());
    for _ in 0..runs {
        let started = Instant::now();
        std::hint::black_box(Tree::open(std::hint::black_box(&bytes[..])).is_ok());
        verified.push(started.elapsed().as_secs_f64() * 1000.0);
        let started = Instant::now();
        std::hint::black_box(Tree::open_unverified(std::hint::black_box(&bytes[..])).is_ok());
        unverified.push(started.elapsed().as_secs_f64() * 1000.0);
    }
    let (verified, unverified) = (median(verified), median(unverified));
    let row = format!(
        "{key} {} | {runs} | {verified:.3} ms | {:.2} µs | {:.0} MB/s |\n",
        bytes.len(),
        unverified * 1000.0,
        bytes.len() as f64 / verified / 1000.0
    );
    Ok((key, row))
}

/// Measures `path` and puts its row into the verification section of
/// BENCHMARKS.md, keeping the rows of other trees.
fn record_verify_cost(path: &Path) -> Result<(), String> {
    let (key, row) = verify_row(path)?;
    let current = std::fs::read_to_string("BENCHMARKS.md").unwrap_or_default();
    let old_rows: Vec<String> = match (
        current.split_once(VERIFY_START),
        current.split_once(VERIFY_END),
    ) {
        (Some((_, rest)), Some(_)) => rest
            .split_once(VERIFY_END)
            .map_or("", |(inside, _)| inside)
            .lines()
            .filter(|l| l.starts_with("| ") && !l.starts_with("| tree ") && !l.starts_with(&key))
            .map(|l| format!("{l}\n"))
            .collect(),
        _ => Vec::new(),
    };
    let mut section = format!(
        "{VERIFY_START}\n## Verifying a tree on open\n\nEvery `mmlookup` command opens its tree with \
         `Tree::open`, which checks the CRC-32 and the breadth-first layout of the tables before anything \
         is answered; `Tree::open_unverified` reads the prefix only. Times from memory (the file read \
         first), medians of alternating runs, measured by `mmtree-report verify FILE` on {}.\n\n\
         | tree | bytes | runs | open (verified) | open_unverified | verified rate |\n|---|---|---|---|---|---|\n",
        machine()
    );
    for line in old_rows.into_iter().chain([row]) {
        section.push_str(&line);
    }
    section.push_str(VERIFY_END);
    let updated = replace_section(&current, VERIFY_START, VERIFY_END, &section);
    std::fs::write("BENCHMARKS.md", updated).map_err(|e| format!("BENCHMARKS.md: {e}"))
}

/// `text` with the part from `start` to `end` (markers included) replaced by
/// `section`, or `section` appended if the markers are missing.
fn replace_section(text: &str, start: &str, end: &str, section: &str) -> String {
    match (text.split_once(start), text.split_once(end)) {
        (Some((before, _)), Some((_, after))) => format!("{before}{section}{after}"),
        _ => format!("{}\n\n{section}\n", text.trim_end()),
    }
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    let mid = values.len() / 2;
    if values.len().is_multiple_of(2) {
        (values[mid - 1] + values[mid]) / 2.0
    } else {
        values[mid]
    }
}

fn run_json(program: &str, args: &[&str]) -> Result<serde_json::Value, String> {
    let out = Command::new(program)
        .args(args)
        .output()
        .map_err(|e| format!("{program}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "{program} {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    serde_json::from_slice(&out.stdout).map_err(|e| format!("{program}: {e}"))
}

/// criterion's median estimate for a benchmark, in nanoseconds.
fn criterion_median(name: &str) -> Result<f64, String> {
    let path = target_dir().join(format!("criterion/{name}/new/estimates.json"));
    let path = path.to_string_lossy();
    let text = std::fs::read_to_string(&*path)
        .map_err(|e| format!("{path}: {e} (run cargo bench first)"))?;
    let json: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{path}: {e}"))?;
    json["median"]["point_estimate"]
        .as_f64()
        .ok_or(format!("{path}: no median"))
}

fn machine() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    let memory = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|m| {
            m.lines()
                .next()
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|k| k.parse::<u64>().ok())
        })
        .map_or("unknown".into(), |kib| {
            format!("{:.0} GiB", kib as f64 / 1024.0 / 1024.0)
        });
    format!(
        "{cpu}, {cores} cores, {memory} RAM, {} {}",
        std::env::consts::OS,
        std::env::consts::ARCH
    )
}

/// One mmgen measurement.
struct Case {
    args: &'static str,
    runs: usize,
    plain: bool,
}

/// The 5x5 rows' yardstick: not measured by this run (fancidev's program is not
/// part of the project), so its figures are quoted with where they come from.
const FANCIDEV: &str = "\nThe one-thread 5x5 rows are the yardstick of the results issue: fancidev's 2012 \
single-threaded C++ exact search took 4.2 s and 4.5 MiB for the 5x5 optimum on this project's 2-core machine \
the day the issue was filed, when mmgen as it then was (commit 928797f) took 4.9 s beside it. Its program is \
not part of the project, so this run does not measure it, and machines here differ from day to day, so \
928797f carries the yardstick: on 2026-11-25, seven runs on one thread alternating with the build of commit \
0604d10 (no other work running), 928797f took 9.02 s (median wall) and 0604d10 1.46 s, 6.2 times faster; \
by the filing day's ratio (4.2 s against 4.9 s) fancidev's program stands for about 7.7 s there, so 0604d10 \
is 5.3 times faster, in 18 MiB. `--cache-mib 32` bounds the search's cache: facts not used lately make room, \
and the search redoes some work.\n";

fn cases(large: bool) -> Vec<Case> {
    let case = |args, runs, plain| Case { args, runs, plain };
    let cases = vec![
        case("--pegs 4 --colors 6 --strategy knuth", 9, true),
        case("--pegs 4 --colors 10 --no-repeat --strategy knuth", 5, true),
        case("--pegs 4 --colors 8 --strategy knuth", 5, true),
        case("--pegs 5 --colors 7 --strategy knuth", 3, true),
        case("--pegs 5 --colors 8 --strategy knuth", 3, true),
        case("--pegs 4 --colors 6 --strategy most-parts", 9, true),
        case("--pegs 4 --colors 8 --strategy most-parts", 5, true),
        case("--pegs 5 --colors 7 --strategy most-parts", 3, false),
        case("--pegs 5 --colors 8 --strategy most-parts", 3, false),
        case("--pegs 3 --colors 5 --strategy optimal", 5, false),
        case("--pegs 4 --colors 4 --strategy optimal", 5, false),
        case(
            "--pegs 4 --colors 6 --no-repeat --strategy optimal",
            5,
            false,
        ),
        case("--pegs 4 --colors 6 --strategy optimal", 5, false),
        case(
            "--pegs 4 --colors 6 --strategy optimal --max-depth 5",
            3,
            false,
        ),
        case(
            "--pegs 4 --colors 7 --strategy optimal --time-limit 60",
            3,
            false,
        ),
        case(
            "--pegs 5 --colors 5 --strategy optimal --time-limit 60",
            3,
            false,
        ),
        // Beside fancidev's single-threaded exact search (BENCHMARKS.md says how it
        // compares), and in under 64 MiB.
        case(
            "--pegs 5 --colors 5 --strategy optimal --threads 1",
            3,
            false,
        ),
        case(
            "--pegs 5 --colors 5 --strategy optimal --threads 1 --cache-mib 32",
            3,
            false,
        ),
        case(
            "--pegs 4 --colors 10 --no-repeat --strategy optimal --time-limit 300",
            1,
            false,
        ),
    ];
    let large_cases = vec![
        case("--pegs 6 --colors 9 --strategy knuth", 1, false),
        case("--pegs 7 --colors 7 --strategy knuth", 1, false),
        case("--pegs 6 --colors 9 --strategy most-parts", 1, false),
        case("--pegs 7 --colors 7 --strategy most-parts", 1, false),
    ];
    if large {
        large_cases
    } else {
        cases
    }
}

/// Runs one case and returns its table row.
fn measure(mmgen: &str, out: &str, case: &Case) -> Result<String, String> {
    let run = |extra: &[&str]| -> Result<(f64, f64, serde_json::Value), String> {
        let mut args: Vec<&str> = case.args.split(' ').collect();
        args.extend(extra);
        args.extend(["--out", out, "--json"]);
        let started = Instant::now();
        let report = run_json(mmgen, &args)?;
        let wall = started.elapsed().as_secs_f64() * 1000.0;
        Ok((
            report["generation_ms"].as_f64().unwrap_or(f64::NAN),
            wall,
            report,
        ))
    };
    let (mut generation, mut wall, mut last) = (Vec::new(), Vec::new(), serde_json::Value::Null);
    for _ in 0..case.runs {
        let (g, w, report) = run(&[])?;
        generation.push(g);
        wall.push(w);
        last = report;
    }
    let (generation, wall) = (median(generation), median(wall));
    let scorings = last["score_computations"].as_f64().unwrap_or(f64::NAN);
    let plain = if case.plain {
        let (g, _, report) = run(&["--no-symmetry"])?;
        let plain_scorings = report["score_computations"].as_f64().unwrap_or(f64::NAN);
        format!("{:.1}x, {:.1}x", g / generation, plain_scorings / scorings)
    } else {
        "-".into()
    };
    let peak = last["peak_memory_bytes"].as_f64().unwrap_or(f64::NAN) / 1024.0 / 1024.0;
    let bytes = last["file_bytes"].as_f64().unwrap_or(f64::NAN);
    let secrets = last["secrets"].as_f64().unwrap_or(f64::NAN);
    let searched = last["positions_searched"]
        .as_u64()
        .map_or("-".into(), |n| n.to_string());
    let proven = match last["proven"].as_bool() {
        Some(true) => "yes",
        Some(false) => "no (time limit)",
        None => "-",
    };
    let time = |ms: f64| {
        if ms >= 10_000.0 {
            format!("{:.1} s", ms / 1000.0)
        } else {
            format!("{ms:.1} ms")
        }
    };
    Ok(format!(
        "| `{}` | {} | {} | {} | {peak:.1} MiB | {scorings:.3e} | {searched} | {plain} | {proven} | {} | {} | {} | {bytes} | {:.2} |\n",
        case.args,
        case.runs,
        time(generation),
        time(wall),
        last["nodes"],
        last["max_guesses"],
        last["total_guesses"],
        bytes / secrets
    ))
}

/// What the lookup core adds to a program, from the device profile's builds.
fn device_sizes() -> Result<String, String> {
    let size = |name: &str| {
        let path = target_dir().join("device").join(name);
        std::fs::metadata(&path)
            .map(|m| m.len())
            .map_err(|e| format!("{}: {e} (make bench builds it)", path.display()))
    };
    let (demo, baseline) = (size("device-demo")?, size("device-baseline")?);
    let tree = std::fs::metadata("trees/knuth-4x6.mmt")
        .map_err(|e| e.to_string())?
        .len();
    let section = format!(
        "{DEVICE_START}\nThe device example (`ports/device/`, the no_std core with the classic Knuth tree embedded) built with \
         `cargo build -p mmtree-device --profile device` (opt-level z, LTO, panic=abort, stripped), on {}: \
         `device-demo` is {demo} bytes, the same program without the core and the tree (`device-baseline`) \
         {baseline} bytes, so the core and the tree add {} bytes, of which the tree is {tree} and the core's code \
         {} bytes. The walk uses no heap and no recursion; the device tests play all 1296 secrets on a 16 KiB \
         thread stack (the smallest the platform gives).\n{DEVICE_END}",
        std::env::consts::ARCH,
        demo - baseline,
        (demo - baseline).saturating_sub(tree)
    );
    let readme = std::fs::read_to_string("trees/README.md").map_err(|e| e.to_string())?;
    let updated = match (
        readme.split_once(DEVICE_START),
        readme.split_once(DEVICE_END),
    ) {
        (Some((before, _)), Some((_, after))) => format!("{before}{section}{after}"),
        _ => format!("{}\n## On a device\n\n{section}\n", readme.trim_end()),
    };
    std::fs::write("trees/README.md", updated).map_err(|e| e.to_string())?;
    Ok(format!(
        "\n## The core on a device\n\n{}\n",
        section.lines().nth(1).unwrap_or_default()
    ))
}

const DEVICE_START: &str =
    "<!-- device: written by `make bench` (mmtree-report bench); do not edit -->";
const DEVICE_END: &str = "<!-- end of device -->";

/// The measurements behind the tuning constants in the code, written by hand when
/// a constant is chosen (each says how and where it was measured); kept as is.
const TUNING_START: &str =
    "<!-- tuning: measured when each constant was chosen; kept by make bench -->";
const TUNING_END: &str = "<!-- end of tuning -->";

/// Trees built as work items (`mmgen plan`), measured by hand with the commands the
/// section gives; kept as is.
const ITEMS_START: &str =
    "<!-- work items: measured by hand as the section says; kept by make bench -->";
const ITEMS_END: &str = "<!-- end of work items -->";

/// Python: a hint and a position's value from `import mmtree`, measured by hand
/// with the scripts in ports/python/benches (they need the wheel built); kept as is.
const PYTHON_START: &str =
    "<!-- python: measured by hand as the sections say; kept by make bench -->";
const PYTHON_END: &str = "<!-- end of python -->";

/// Proof certificates: what writing and checking one costs, measured by hand as
/// the section says; kept as is.
const CERTIFICATES_START: &str =
    "<!-- certificates: measured by hand as the section says; kept by make bench -->";
const CERTIFICATES_END: &str = "<!-- end of certificates -->";

const LARGE_START: &str = "<!-- large boards: written by `make bench-large`; do not edit -->";
const LARGE_END: &str = "<!-- end of large boards -->";

/// `make bench-large`: only the large boards, into their own section of BENCHMARKS.md.
/// With `only`, just the cases whose arguments are exactly `only` are measured
/// again, and their rows replace the old ones (the other rows are kept).
fn bench_large(only: Option<&str>) -> Result<(), String> {
    let scratch = std::env::temp_dir().join(format!("mmtree-bench-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).map_err(|e| e.to_string())?;
    let out = scratch.join("tree.mmt");
    let out = out.to_str().ok_or("temp path is not UTF-8")?;
    let mut section = format!(
        "{LARGE_START}\n## Large boards\n\nSame columns and command as above, one run each, on {}.\n\n\
         | args | runs | generation | wall | peak memory | scorings | searched | plain: time, scorings | proven | nodes | worst | total | file bytes | bytes/secret |\n\
         |---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
        machine()
    );
    let current = std::fs::read_to_string("BENCHMARKS.md").unwrap_or_default();
    let old_row = |args: &str| {
        let start = format!("| `{args}` |");
        current
            .lines()
            .find(|l| l.starts_with(&start))
            .map(|l| format!("{l}\n"))
    };
    for case in cases(true) {
        let row = match (only, old_row(case.args)) {
            (Some(only), Some(row)) if only != case.args => row,
            _ => {
                let row = measure(&program("mmgen"), out, &case)?;
                eprintln!("measured {}", case.args);
                if case.args == "--pegs 7 --colors 7 --strategy knuth" {
                    // The largest tree: what verifying it on open costs.
                    record_verify_cost(Path::new(out))?;
                }
                row
            }
        };
        section.push_str(&row);
    }
    section.push_str(LARGE_END);
    let _ = std::fs::remove_dir_all(&scratch);
    // Read again: the verification section may have changed meanwhile.
    let current = std::fs::read_to_string("BENCHMARKS.md").unwrap_or_default();
    let updated = replace_section(&current, LARGE_START, LARGE_END, &section);
    std::fs::write("BENCHMARKS.md", updated).map_err(|e| format!("BENCHMARKS.md: {e}"))
}

/// The hint board's server under a bounded load on loopback.
fn serve_load(mmlookup: &str) -> Result<String, String> {
    let (requests, clients) = (20_000, 32);
    let mut md = format!(
        "\n## mmlookup serve: answering over HTTP\n\n`mmlookup serve` (built-in classic tree) on loopback, \
         {requests} requests from {clients} keep-alive clients at once (tasks on one thread of the report \
         tool, on the same cores as the server); latency from writing a request to reading its whole response, \
         whose body is checked. Peak memory is the server's VmHWM after the run.\n\n\
         | request | requests | throughput | p50 | p99 | max | server peak memory |\n|---|---|---|---|---|---|---|\n"
    );
    let cases = [
        (
            "/api/next?moves=1122:1,0+1344:0,1+3526:1,2+1462:1,1",
            "\"guess\":\"3632\"",
        ),
        ("/api/trees", "knuth-4x6"),
    ];
    for (target, expect) in cases {
        let load = load::run(mmlookup, target, expect, requests, clients)?;
        writeln!(
            md,
            "| `GET {target}` | {} | {:.0} /s | {:.3} ms | {:.3} ms | {:.3} ms | {} |",
            load.requests,
            load.requests as f64 / load.seconds,
            load.percentile(0.5),
            load.percentile(0.99),
            load.latencies.last().copied().unwrap_or(0.0),
            load.peak_memory_kib
                .map_or("-".into(), |k| format!("{:.1} MiB", k as f64 / 1024.0)),
        )
        .unwrap();
        eprintln!("measured serve {target}");
    }
    Ok(md)
}

fn bench() -> Result<(), String> {
    let mmgen = &program("mmgen");
    let mmlookup = &program("mmlookup");
    let scratch = std::env::temp_dir().join(format!("mmtree-bench-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).map_err(|e| e.to_string())?;
    let out_path = scratch.join("tree.mmt");
    let out = out_path.to_str().ok_or("temp path is not UTF-8")?;

    let mut md = String::from("# Benchmarks\n\nWritten by `make bench` (`mmtree-report bench`); every figure below was measured in that run.\n\n");
    writeln!(md, "Machine: {}.\n", machine()).unwrap();

    md.push_str(
        "## mmgen: complete trees\n\nCommand: `mmgen ARGS --out FILE --json`, default threads (one per core). \
         Generation is the time mmgen reports for building the tree, wall is the whole process (writing the file \
         included); both are medians over the runs. Peak memory is the process's peak resident set (VmHWM). \
         Scorings are guess-secret pairs scored (shared-peg counts of colour multisets included); searched is the \
         positions the exact search looked at (it varies a little with the thread schedule; the tree does not). \
         Plain is the \
         same run with `--no-symmetry` (every code scored at every node; the file is byte-identical): its generation \
         time and scorings as multiples of the reduced search's.\n\n\
         | args | runs | generation | wall | peak memory | scorings | searched | plain: time, scorings | proven | nodes | worst | total | file bytes | bytes/secret |\n\
         |---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for case in cases(false) {
        md.push_str(&measure(mmgen, out, &case)?);
        eprintln!("measured {}", case.args);
    }
    md.push_str(FANCIDEV);
    md.push_str(&device_sizes()?);

    md.push_str("\n## mmlookup: answering a move\n\n");
    md.push_str("In-process (criterion, `cargo bench -p mmtree-lookup --bench next`, shipped classic Knuth tree in memory; \
                 median of criterion's samples):\n\n| benchmark | median |\n|---|---|\n");
    for name in [
        "next_4_moves",
        "next_empty_history",
        "open_verified",
        "open_unverified",
    ] {
        writeln!(md, "| {name} | {:.1} ns |", criterion_median(name)?).unwrap();
    }
    let runs = 200;
    let history = ["1122:1,0", "1344:0,1", "3526:1,2", "1462:1,1"];
    md.push_str("\nWhole process (`mmlookup next` with the history below, started and waited for by the report tool; \
                 process start-up and exit included):\n\n| command | runs | median |\n|---|---|---|\n");
    for tree in [None, Some("trees/knuth-4x6.mmt")] {
        let mut args = vec!["next"];
        if let Some(path) = tree {
            args.extend(["--tree", path]);
        }
        args.extend(history);
        let mut times = Vec::new();
        for _ in 0..runs {
            let started = Instant::now();
            let status = Command::new(mmlookup)
                .args(&args)
                .stdout(std::process::Stdio::null())
                .status()
                .map_err(|e| e.to_string())?;
            times.push(started.elapsed().as_secs_f64() * 1000.0);
            if !status.success() {
                return Err(format!("mmlookup {args:?} failed"));
            }
        }
        let source = if tree.is_some() {
            "memory-mapped file"
        } else {
            "built-in tree"
        };
        writeln!(
            md,
            "| `mmlookup {}` ({source}) | {runs} | {:.2} ms |",
            args.join(" "),
            median(times)
        )
        .unwrap();
    }
    md.push_str(&serve_load(mmlookup)?);
    let _ = std::fs::remove_dir_all(&scratch);
    // Keep Python's, the large boards', the verification, the tuning and the chips'
    // sections: Python's are measured by hand, the large boards by `make bench-large`, and so is the largest
    // tree's verification; the tuning section records how constants were chosen; the
    // chips are measured by `make bench-devices`.
    if let Ok(current) = std::fs::read_to_string("BENCHMARKS.md") {
        let kept = [
            (PYTHON_START, PYTHON_END),
            (LARGE_START, LARGE_END),
            (VERIFY_START, VERIFY_END),
            (TUNING_START, TUNING_END),
            (ITEMS_START, ITEMS_END),
            (CERTIFICATES_START, CERTIFICATES_END),
            (devices::CHIPS_START, devices::CHIPS_END),
            (estimates::START, estimates::END),
        ];
        for (start, end) in kept {
            if let (Some((_, rest)), true) = (current.split_once(start), current.contains(end)) {
                let kept = rest.split_once(end).map_or("", |(inside, _)| inside);
                writeln!(md, "\n{start}{kept}{end}").unwrap();
            }
        }
    }
    std::fs::write("BENCHMARKS.md", md).map_err(|e| format!("BENCHMARKS.md: {e}"))?;
    record_verify_cost(Path::new("trees/knuth-4x6.mmt"))
}
