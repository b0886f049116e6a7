//! `mmtree-report`: writes the tables that make claims about trees and speed, from
//! measurements taken now, so README-style numbers are never typed by hand.
//!
//! - `mmtree-report trees [--check]`: audits every `trees/*.mmt` with the lookup
//!   library and writes the table in `trees/README.md` (with `--check`, fails if the
//!   file is not what it would write).
//! - `mmtree-report bench`: times `mmgen` on several boards and `mmlookup next` as
//!   whole processes, reads criterion's medians, and writes `BENCHMARKS.md`.
//!
//! Run from the repository root (the Makefile does).

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
        _ => Err("usage: mmtree-report trees [--check] | bench".into()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("mmtree-report: error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// The mmgen command that regenerates a tree.
fn regenerate_command(
    tree: &Tree<&[u8]>,
    info: &lookup::format::StrategyInfo,
    path: &Path,
) -> String {
    let args = generator::strategy::command_args(tree.board(), info);
    format!("mmgen {} --out {}", args.join(" "), path.display())
}

fn trees_table() -> Result<String, String> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir("trees")
        .map_err(|e| format!("trees/: {e}"))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "mmt"))
        .collect();
    paths.sort();
    let mut table = String::from(
        "| file | board | strategy | first guess | worst case | total | average | histogram | nodes | bytes | bytes/node | bytes/secret |\n\
         |---|---|---|---|---|---|---|---|---|---|---|---|\n",
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
        writeln!(
            table,
            "| {name} | {} | {} | {} | {} | {} | {:.4} | {} | {} | {} | {:.2} | {:.2} |",
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
        writeln!(
            commands,
            "- `{name}`: `{}`",
            regenerate_command(&tree, &report.meta.strategy, path)
        )
        .unwrap();
    }
    Ok(format!(
        "{TABLE_START}\n{table}\nEvery row is `mmlookup audit`'s result for the file (the histogram lists \
         guesses:secrets). Regenerate with `make trees`, or one by one:\n\n{commands}{TABLE_END}"
    ))
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
    let path = format!("target/criterion/{name}/new/estimates.json");
    let text = std::fs::read_to_string(&path)
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

fn bench() -> Result<(), String> {
    let mmgen = "target/release/mmgen";
    let mmlookup = "target/release/mmlookup";
    let scratch = std::env::temp_dir().join(format!("mmtree-bench-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).map_err(|e| e.to_string())?;
    let out_path = scratch.join("tree.mmt");
    let out = out_path.to_str().ok_or("temp path is not UTF-8")?;

    let mut md = String::from("# Benchmarks\n\nWritten by `make bench` (`mmtree-report bench`); every figure below was measured in that run.\n\n");
    writeln!(md, "Machine: {}.\n", machine()).unwrap();

    md.push_str("## mmgen: complete trees\n\nCommand: `mmgen --pegs P --colors C [--no-repeat] --strategy knuth --out FILE --json`, \
                 default threads (one per core). Generation time is what mmgen reports for expanding the tree \
                 (median of the runs); wall time is the whole process, writing the file included.\n\n\
                 | board | strategy | runs | generation (median) | wall (median) | peak memory | nodes | worst | total | file bytes | bytes/secret |\n\
                 |---|---|---|---|---|---|---|---|---|---|---|\n");
    let boards: [(&str, &[&str], usize); 5] = [
        ("4x6", &["--pegs", "4", "--colors", "6"], 9),
        (
            "4x10 no-repeat",
            &["--pegs", "4", "--colors", "10", "--no-repeat"],
            5,
        ),
        ("4x8", &["--pegs", "4", "--colors", "8"], 5),
        ("5x7", &["--pegs", "5", "--colors", "7"], 3),
        ("5x8", &["--pegs", "5", "--colors", "8"], 3),
    ];
    for (name, board, runs) in boards {
        let mut generation = Vec::new();
        let mut wall = Vec::new();
        let mut last = serde_json::Value::Null;
        for _ in 0..runs {
            let mut args = board.to_vec();
            args.extend(["--strategy", "knuth", "--out", out, "--json"]);
            let started = Instant::now();
            last = run_json(mmgen, &args)?;
            wall.push(started.elapsed().as_secs_f64() * 1000.0);
            generation.push(last["generation_ms"].as_f64().unwrap_or(f64::NAN));
        }
        let peak = last["peak_memory_bytes"].as_f64().unwrap_or(f64::NAN) / 1024.0 / 1024.0;
        let bytes = last["file_bytes"].as_f64().unwrap_or(f64::NAN);
        let secrets = last["secrets"].as_f64().unwrap_or(f64::NAN);
        writeln!(
            md,
            "| {name} | knuth | {runs} | {:.1} ms | {:.1} ms | {peak:.1} MiB | {} | {} | {} | {bytes} | {:.2} |",
            median(generation),
            median(wall),
            last["nodes"],
            last["max_guesses"],
            last["total_guesses"],
            bytes / secrets
        )
        .unwrap();
        eprintln!("measured {name}");
    }

    md.push_str("\n## mmlookup: answering a move\n\n");
    md.push_str("In-process (criterion, `cargo bench -p mmtree-lookup --bench next`, shipped classic Knuth tree in memory; \
                 median of criterion's samples):\n\n| benchmark | median |\n|---|---|\n");
    for name in ["next_4_moves", "next_empty_history", "open"] {
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
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::write("BENCHMARKS.md", md).map_err(|e| format!("BENCHMARKS.md: {e}"))
}
