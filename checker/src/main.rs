//! `mmcheck [TREE] CERTIFICATE`: checks a proof certificate fact by fact, and with
//! a tree file, that the tree reaches what the certificate proves.

use checker::bounds::INFINITE;
use checker::parts::Parts;
use checker::read::Prefix;
use checker::{check, Checked, Claim, Progress};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Check an mmtree proof certificate with rules, scoring and bounds of its own.
///
/// With a tree file, prints whether the tree is proven optimal: the tree's total
/// (checked by replaying every secret) equals what the certificate proves every
/// strategy needs. Exits 1 with the first fact that fails.
#[derive(clap::Parser)]
#[command(name = "mmcheck", version)]
struct Args {
    /// The tree file (as mmgen wrote it), then the certificate; or the certificate
    /// alone, to see what it proves.
    #[arg(value_name = "FILE", num_args = 1..=2, required = true)]
    files: Vec<PathBuf>,
    /// Record in RECORD how far the check got (every 10,000 facts and at its
    /// end), and go on from where an earlier check of the same bytes recorded
    /// there: for a check longer than one sitting. What it skips, it says it
    /// skipped.
    #[arg(long, value_name = "RECORD")]
    resume: Option<PathBuf>,
    /// The certificate may still be being written (a proof's
    /// `certificate.partial`, in its checkpoint folder): check its facts as far
    /// as they are written. It proves nothing yet; with --resume, the check of
    /// the finished certificate goes on from there.
    #[arg(long)]
    unfinished: bool,
    /// Check facts on this many threads (0: one per core). Each fact uses only
    /// facts before it, so the outcome, and the first fact that fails, are the
    /// same on any number.
    #[arg(long, default_value_t = 0, value_parser = lookup::cli::threads)]
    threads: usize,
    /// The record of a proof in parts: a certificate with no claim (a part, as
    /// `mmgen solve-class` writes one per item) is recorded here once its facts
    /// hold, with its last fact; a certificate with premises (`mmgen merge
    /// --certificate` where an item's certificate was let go) takes each from
    /// here, and from nowhere else.
    #[arg(long, value_name = "LEDGER")]
    parts: Option<PathBuf>,
}

fn main() -> ExitCode {
    let args: Args = lookup::cli::parse("mmcheck");
    let (tree, certificate) = match &args.files[..] {
        [certificate] => (None, certificate),
        [tree, certificate] => (Some(tree), certificate),
        _ => unreachable!("clap takes one or two files"),
    };
    if args.unfinished && tree.is_some() {
        eprintln!("mmcheck: --unfinished checks a certificate alone: a tree is compared with a finished one");
        return ExitCode::from(2);
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads)
        .build()
        .map_err(|e| format!("cannot start {} threads: {e}", args.threads));
    let outcome = pool.and_then(|pool| pool.install(|| run(tree, certificate, &args)));
    match outcome {
        Ok(lines) => {
            use std::io::Write;
            let mut out = std::io::stdout().lock();
            // A reader that went away (`| head`) has read all it wanted.
            let _ = lines.iter().try_for_each(|line| writeln!(out, "{line}"));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("mmcheck: {e}");
            ExitCode::FAILURE
        }
    }
}

/// How often, in facts, a check says how far it got.
const PROGRESS_EVERY: u64 = 100_000;

/// How often, in facts, a check with `--resume` records how far it got: ten
/// times as often as it says so, since a part of 5x8's campaign holds tens of
/// thousands of facts and takes an hour to check, and one cut off before a
/// record begins again from its first fact.
const RECORD_EVERY: u64 = 10_000;

fn run(tree: Option<&PathBuf>, certificate: &Path, args: &Args) -> Result<Vec<String>, String> {
    // The tree first: a wrong or damaged tree is said before a long check.
    let audited = tree.map(audited).transpose()?;
    let record = args.resume.as_deref();
    let mut points = record.map(read_progress).unwrap_or_default();
    // What its end record says it holds: a certificate still being written has
    // none yet (its last bytes are some fact's).
    let stated = match args.unfinished {
        true => None,
        false => checker::read::stated_facts(certificate),
    };
    // The last report, if any: its facts and when (the first counts from the start,
    // which includes reading past what an earlier check recorded).
    let start = std::time::Instant::now();
    let mut last: Option<(u64, std::time::Instant)> = None;
    let parts = match &args.parts {
        Some(ledger) => Parts::read(ledger)?,
        None => Parts::default(),
    };
    // A part whose check the ledger records already, the same bytes (a check cut
    // off after it wrote its line, say): its line says its facts held. A file that
    // cannot be named so (damaged, unfinished) is left to the check to say why; one
    // of a size no line names is not read for its CRC-32 at all.
    let size = std::fs::metadata(certificate).map_or(0, |m| m.len());
    if let (Some(ledger), None, false, true) =
        (&args.parts, tree, args.unfinished, parts.any_of_size(size))
    {
        let named = checker::read::identity(certificate).ok();
        if let Some((named, facts)) = named.and_then(|n| Some((n, parts.facts_of(n)?))) {
            let (bytes, crc) = named;
            return Ok(vec![format!(
                "part of a proof: its {facts} facts held when its check was recorded in {} \
                 (the same {bytes} bytes, CRC-32 {crc:08x}): not checked again",
                ledger.display()
            )]);
        }
    }
    let checked = check(
        certificate,
        args.unfinished,
        &points.clone(),
        &parts,
        RECORD_EVERY,
        |now| {
            if let Some(record) = record {
                // Earlier points past this one (of bytes a rewound certificate no
                // longer has) go; those before stay: a later check goes on from the
                // longest the file still starts with.
                points.retain(|p| p.facts < now.facts && p.prefix.bytes < now.prefix.bytes);
                points.push(now);
                if let Err(e) = write_progress(record, &points) {
                    eprintln!(
                        "mmcheck: cannot record the progress in {}: {e}",
                        record.display()
                    );
                }
            }
            if !now.facts.is_multiple_of(PROGRESS_EVERY) {
                return; // recorded only, or the end: said below
            }
            // How far, and how fast lately: a check of millions of facts takes hours.
            let of = stated.map_or(String::new(), |all| {
                format!(
                    " of the {all} it says it holds ({:.0}%)",
                    100.0 * now.facts as f64 / all.max(1) as f64
                )
            });
            let pace = match last {
                Some((facts, at)) => format!(
                    ", the last {} in {:.0} s",
                    now.facts - facts,
                    at.elapsed().as_secs_f64()
                ),
                None => format!(", {:.0} s after the start", start.elapsed().as_secs_f64()),
            };
            eprintln!("mmcheck: {} facts checked{of}{pace}", now.facts);
            last = Some((now.facts, std::time::Instant::now()));
        },
    )
    .map_err(|e| format!("{}: {e}", certificate.display()))?;
    let Checked {
        header,
        facts,
        earlier,
        ref claims,
        finished,
        premises,
        ..
    } = checked;
    let by_earlier = match (earlier, record) {
        (1.., Some(record)) => format!(
            ", the first {earlier} by an earlier check recorded in {}",
            record.display()
        ),
        _ => String::new(),
    };
    if !finished {
        let then = match record {
            Some(record) => format!(
                "; a check of the finished certificate with --resume {} goes on from there",
                record.display()
            ),
            None => String::new(),
        };
        return Ok(vec![format!(
            "unfinished: its first {facts} facts hold{by_earlier}; it is still being written (no end yet), so it proves nothing yet{then}"
        )]);
    }
    let by_parts = match (premises, &args.parts) {
        (1.., Some(ledger)) => format!(
            ", {premises} of them premises taken from the checks of its parts recorded in {}",
            ledger.display()
        ),
        _ => String::new(),
    };
    if claims.is_empty() {
        return part(&checked, &by_earlier, &by_parts, tree, args);
    }
    let proven = format!("proven (certificate checked: {facts} facts{by_earlier}{by_parts})");
    let mut lines: Vec<String> = (claims.iter())
        .filter(|c| c.bound == INFINITE)
        .map(|c| {
            let d = c.depth.unwrap_or(0);
            format!("no strategy solves every secret within {d} guesses: {proven}")
        })
        .collect();
    let Some((board, total, worst, consistent)) = audited else {
        for c in claims.iter().filter(|c| c.bound != INFINITE) {
            lines.push(format!(
                "{} needs at least {} guesses in total: {proven}",
                strategies(c),
                c.bound
            ));
        }
        return Ok(lines);
    };
    if (board.pegs(), board.colors(), board.repeat()) != (header.pegs, header.colors, header.repeat)
        || consistent != header.candidates_only
    {
        return Err("the certificate is about another board or other rules than the tree".into());
    }
    let fits = |c: &&Claim| c.bound == total && c.depth.is_none_or(|d| worst <= d);
    let Some(claim) = claims.iter().filter(fits).min_by_key(|c| c.depth.is_some()) else {
        let said: Vec<String> = (claims.iter())
            .filter(|c| c.bound != INFINITE)
            .map(|c| format!("{} needs at least {}", strategies(c), c.bound))
            .collect();
        return Err(format!(
            "not proven: the tree totals {total} (worst case {worst}); the certificate proves {}",
            said.join(", ")
        ));
    };
    lines.push(match claim.depth {
        None => format!("optimal: total {total}, {proven}"),
        Some(d) => format!("optimal within {d} guesses: total {total}, {proven}"),
    });
    // The tree's worst case is the least when one guess fewer leaves no strategy:
    // by a claim above, or by counting answers alone.
    let fewer = worst - 1;
    let answers = (header.pegs + 1) * (header.pegs + 2) / 2 - 1;
    let codes = board.code_count() as u64;
    let counted = checker::bounds::least_total(codes, answers, Some(fewer)) == INFINITE;
    let claimed = (claims.iter()).any(|c| c.bound == INFINITE && c.depth == Some(fewer));
    if counted && !claimed {
        lines.push(format!(
            "no strategy solves every secret within {fewer} guesses: proven by counting answers ({codes} secrets, {answers} answers a guess)"
        ));
    }
    Ok(lines)
}

/// The verdict on a part of a proof, a certificate with no claim: recorded in
/// the ledger of `--parts`, if given.
fn part(
    checked: &Checked,
    by_earlier: &str,
    by_parts: &str,
    tree: Option<&PathBuf>,
    args: &Args,
) -> Result<Vec<String>, String> {
    let Checked {
        ref header,
        identity,
        facts,
        ref last,
        ..
    } = *checked;
    if tree.is_some() {
        return Err("it claims nothing about the whole board: a part of a proof, which proves no tree (check it alone, with --parts LEDGER)".into());
    }
    let Some(named) = identity else {
        return Err("it holds no fact".into());
    };
    let Some(last) = last else {
        return Ok(vec![
            "part of a proof with no fact: it proves nothing, and no premise can come from it (a plan's item writes none when the bounds alone settle its class)".into(),
        ]);
    };
    let n = last.set.len();
    let proves = match (last.bound, last.depth) {
        (Some(bound), None) => {
            format!("every strategy needs at least {bound} guesses for its {n} secrets")
        }
        (Some(bound), Some(d)) => format!(
            "every strategy that solves its {n} secrets within {d} guesses needs at least {bound}"
        ),
        (None, d) => format!(
            "no strategy solves its {n} secrets within {} guesses",
            d.unwrap_or(0)
        ),
    };
    let recorded = match &args.parts {
        Some(ledger) => {
            checker::parts::record(ledger, header, named, facts, last)?;
            format!("; recorded in {}", ledger.display())
        }
        None => "; record it with --parts LEDGER to use it as a premise".into(),
    };
    Ok(vec![format!(
        "part of a proof: its {facts} facts hold{by_earlier}{by_parts}; its last fact: {proves}{recorded}"
    )])
}

/// The strategies a claim is about.
fn strategies(claim: &Claim) -> String {
    match claim.depth {
        None => "every strategy".into(),
        Some(d) => format!("every strategy that solves every secret within {d} guesses"),
    }
}

/// The tree at `path`, audited (every secret replayed): its board, total, worst
/// case and whether it guesses only codes still possible.
fn audited(path: &PathBuf) -> Result<(lookup::Board, u64, u32, bool), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let tree = lookup::Tree::open(bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    let report = lookup::audit::audit(&tree).map_err(|e| format!("{}: {e}", path.display()))?;
    let consistent = (report.meta.strategy.typed_params().iter())
        .any(|p| matches!(p, lookup::format::Param::ConsistentOnly));
    Ok((
        tree.board(),
        report.stats.total_guesses,
        report.stats.max_guesses,
        consistent,
    ))
}

/// The progress earlier checks recorded in `record`, if it holds any: a line
/// each, as [`write_progress`] writes them.
fn read_progress(record: &Path) -> Vec<Progress> {
    let text = std::fs::read_to_string(record).unwrap_or_default();
    let point = |line: &str| {
        let mut numbers = line
            .split_whitespace()
            .filter_map(|w| w.trim_end_matches([',', ';']).parse::<u64>().ok());
        let (facts, bytes, crc) = (numbers.next()?, numbers.next()?, numbers.next()?);
        let crc = u32::try_from(crc).ok()?;
        Some(Progress {
            facts,
            prefix: Prefix { bytes, crc },
        })
    };
    text.lines().filter_map(point).collect()
}

/// Records `points` in `record`, through a temporary file renamed over it.
fn write_progress(record: &Path, points: &[Progress]) -> std::io::Result<()> {
    let text: String = (points.iter())
        .map(|p| {
            format!(
                "mmcheck progress: the first {} facts hold; they are the first {} bytes, whose CRC-32 is {}\n",
                p.facts, p.prefix.bytes, p.prefix.crc
            )
        })
        .collect();
    let temporary = record.with_extension("tmp");
    std::fs::write(&temporary, text)?;
    std::fs::rename(&temporary, record)
}
