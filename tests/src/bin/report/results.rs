//! `mmtree-report results ARGS` (`make results ROW="ARGS"`): reruns one row of
//! RESULTS.md's table, `mmgen ARGS --out FILE --json`, checks that the tree is the
//! row's (total, worst case, first guess) and rewrites the row's time, positions
//! searched and peak memory with what this run measured, dated. A row whose ARGS
//! begin with `...` continues the board of the last row above that names one.
//! Rows that a single run cannot repeat (a resumed checkpoint, a refused depth)
//! are refused with the reason.

use std::time::Instant;

const TABLE_HEAD: &str = "| board | objective | total |";

/// The columns rewritten or checked, by their headings.
const COLUMNS: [&str; 6] = [
    "total",
    "worst",
    "first guess",
    "time",
    "positions",
    "peak memory",
];

pub fn results(wanted: &str) -> Result<(), String> {
    let text = std::fs::read_to_string("RESULTS.md").map_err(|e| format!("RESULTS.md: {e}"))?;
    let wanted = words(wanted);
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let head = lines
        .iter()
        .position(|l| l.starts_with(TABLE_HEAD))
        .ok_or("RESULTS.md has no table of results")?;
    let headings = cells(&lines[head]);
    let column = |name: &str| {
        headings
            .iter()
            .position(|h| h == name)
            .ok_or(format!("RESULTS.md's table has no column '{name}'"))
    };
    let args_at = column("ARGS")?;
    let [total_at, worst_at, first_at, time_at, positions_at, memory_at] = COLUMNS.map(column);
    let (total_at, worst_at, first_at) = (total_at?, worst_at?, first_at?);
    let (time_at, positions_at, memory_at) = (time_at?, positions_at?, memory_at?);
    let mut board = String::new();
    let mut found = None;
    let mut known = Vec::new();
    for (index, line) in lines.iter().enumerate().skip(head + 2) {
        if !line.starts_with('|') {
            break;
        }
        let row = cells(line);
        let args = row.get(args_at).map(|a| a.trim_matches('`')).unwrap_or("");
        let args = match args.strip_prefix("... ") {
            Some(more) => format!("{board} {more}"),
            None => {
                board = args.to_string();
                board.clone()
            }
        };
        if words(&args) == wanted {
            found = Some((index, row));
        }
        known.push(args);
    }
    let Some((index, mut row)) = found else {
        return Err(format!(
            "no row of RESULTS.md runs '{}'; the rows run:\n  {}",
            wanted.join(" "),
            known.join("\n  ")
        ));
    };
    if wanted.iter().any(|w| w == "--checkpoint" || w == "DIR") {
        return Err("this row's run resumed a checkpoint: one run cannot repeat it".into());
    }
    let out = super::target_dir().join("results-row.mmt");
    let out_text = out
        .to_str()
        .ok_or("the target folder's path is not UTF-8")?;
    let mut args: Vec<&str> = wanted.iter().map(String::as_str).collect();
    args.extend(["--out", out_text, "--force", "--json"]);
    println!("mmgen {}", args.join(" "));
    let started = Instant::now();
    let run = super::run_json(&super::program("mmgen"), &args)?;
    let seconds = started.elapsed().as_secs_f64();
    let field = |key: &str| {
        run[key]
            .as_u64()
            .ok_or(format!("mmgen gave no {key}: {run}"))
    };
    let (total, worst) = (field("total_guesses")?, field("max_guesses")?);
    let first = run["first_guess"].as_str().unwrap_or("");
    let claimed = |at: usize| row.get(at).cloned().unwrap_or_default();
    if claimed(total_at) != total.to_string()
        || claimed(worst_at) != worst.to_string()
        || claimed(first_at) != first
    {
        return Err(format!(
            "the rerun built total {total}, worst {worst}, first guess {first}; the row says {}, {}, {}: not rewritten",
            claimed(total_at),
            claimed(worst_at),
            claimed(first_at)
        ));
    }
    let threads = wanted
        .windows(2)
        .find(|w| w[0] == "--threads")
        .map_or("default threads".to_string(), |w| {
            format!("{} thread(s)", w[1])
        });
    row[time_at] = format!(
        "{} (make results, {}, {threads})",
        seconds_text(seconds),
        today()
    );
    row[positions_at] = run["positions_searched"]
        .as_u64()
        .map_or(String::new(), thousands);
    row[memory_at] = format!("{:.1} MiB", field("peak_memory_bytes")? as f64 / 1048576.0);
    lines[index] = format!("| {} |", row.join(" | "));
    println!("{}", lines[index]);
    let mut updated = lines.join("\n");
    updated.push('\n');
    std::fs::write("RESULTS.md", updated).map_err(|e| format!("RESULTS.md: {e}"))?;
    println!("rewrote the row's time, positions and peak memory in RESULTS.md");
    Ok(())
}

/// Today's date, as `date +%F` gives it.
fn today() -> String {
    let out = std::process::Command::new("date").arg("+%F").output();
    out.map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default()
}

/// The cells of a table row, trimmed.
fn cells(line: &str) -> Vec<String> {
    let inner = line.trim().trim_start_matches('|').trim_end_matches('|');
    inner.split(" | ").map(|c| c.trim().to_string()).collect()
}

fn words(text: &str) -> Vec<String> {
    text.split_whitespace().map(String::from).collect()
}

/// `12345678` as `12,345,678`.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
}

fn seconds_text(seconds: f64) -> String {
    if seconds < 10.0 {
        format!("{seconds:.2} s")
    } else {
        format!("{seconds:.0} s")
    }
}
