//! `mmtree-report recheck DIR [--count N] [--seed S] [--under SECONDS]`: a spot
//! check of a campaign's ledger by someone who does not take it on trust.
//!
//! A campaign kept in the repository (`campaigns/NAME`) holds each item's result
//! and, in `parts.txt`, one line per part of the proof that `mmcheck --parts`
//! checked where it was written; the parts themselves were let go, and the top
//! certificate's premises are those lines' last facts. So the ledger is the one
//! thing a reader cannot check from the repository alone. This draws items at
//! random (from a seed the reader picks, so we could not have chosen them) and, in
//! a copy of the campaign, solves each again under the budget that gives what it
//! recorded (`mmgen solve-class --recheck`); `mmcheck` checks the new part, whose
//! last fact must prove what the item recorded (its cost, or the least it was
//! shown to cost) for its class, and the new cost must be the recorded one. Only
//! items that took at most `--under` seconds are drawn, and never an item merged
//! from a split (its part is the split's merge: the split's own items are drawn
//! in its folder instead).

use generator::plan::{Cost, Run};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// An item to draw: its level (the campaign's folder, or a split's inside it, as a
/// path from the campaign), its number there, its secrets and what it recorded.
struct Candidate {
    level: PathBuf,
    index: usize,
    secrets: u32,
    cost: Cost,
}

pub fn recheck(args: &[&str]) -> Result<(), String> {
    let usage = "usage: mmtree-report recheck DIR [--count N] [--seed S] [--under SECONDS]";
    let (dir, options) = args.split_first().ok_or(usage)?;
    let (mut count, mut seed, mut under) = (10usize, 1u64, 10.0f64);
    for pair in options.chunks(2) {
        let value = pair.get(1).ok_or(usage)?;
        let bad = format!("{}: not a number: {value}", pair[0]);
        match pair[0] {
            "--count" => count = value.parse().map_err(|_| bad)?,
            "--seed" => seed = value.parse().map_err(|_| bad)?,
            "--under" => under = value.parse().map_err(|_| bad)?,
            _ => return Err(usage.into()),
        }
    }
    let campaign = Path::new(dir);
    let mut candidates = Vec::new();
    for level in levels(campaign)? {
        let status = Run::open(&campaign.join(&level))?.status()?;
        for (&index, &(secrets, seconds)) in status.done.iter().zip(&status.times) {
            let merged = campaign
                .join(&level)
                .join(format!("within-{index}"))
                .exists();
            let cost = status.costs[index];
            if !merged && seconds <= under {
                candidates.push(Candidate {
                    level: level.clone(),
                    index,
                    secrets,
                    cost,
                });
            }
        }
    }
    if candidates.is_empty() {
        return Err(format!("{dir}: no item done in {under} s or less to draw"));
    }
    let drawn = draw(candidates.len(), count, seed);
    println!(
        "{dir}: {} of {} items (those that took {under} s or less, none merged from a split), drawn with seed {seed}",
        drawn.len(),
        candidates.len()
    );
    let scratch = std::env::temp_dir().join(format!("mmtree-recheck-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    copy_dir(campaign, &scratch).map_err(|e| format!("copying {dir}: {e}"))?;
    let mut ledgers = HashMap::new();
    let result = (drawn.iter())
        .try_for_each(|&i| solve_again(campaign, &scratch, &candidates[i], &mut ledgers));
    let _ = std::fs::remove_dir_all(&scratch);
    result?;
    println!(
        "all {} items solved again to what they recorded, each new part checked by mmcheck",
        drawn.len()
    );
    Ok(())
}

/// Solves one item again in the copy under the budget its record gives, checks
/// its new part and compares what it proves with the record; says whether its
/// last fact is also, word for word, one of the committed ledger's (`ledgers`:
/// each level's last facts, read once). An item its bounds alone settle writes
/// a part with no fact, from which no premise comes: it need only cost the same.
/// Puts the item's file back after.
fn solve_again(
    campaign: &Path,
    scratch: &Path,
    item: &Candidate,
    ledgers: &mut HashMap<PathBuf, HashSet<String>>,
) -> Result<(), String> {
    let level = scratch.join(&item.level);
    let name = format!(
        "{}, item {}",
        campaign.join(&item.level).display(),
        item.index
    );
    let file = level.join("items").join(format!("{}.item", item.index));
    let kept = std::fs::read(&file).map_err(|e| format!("{}: {e}", file.display()))?;
    let start = Instant::now();
    let level_arg = level.display().to_string();
    let index = item.index.to_string();
    let solve = [
        "solve-class",
        "--dir",
        &level_arg,
        "--recheck",
        "--threads",
        "1",
        "--cache-mib",
        "1024",
        &index,
    ];
    run("mmgen", &solve).map_err(|e| format!("{name}: {e}"))?;
    let seconds = start.elapsed().as_secs_f64();
    let now = Run::open(&level)?.status()?.costs[item.index];
    let part = level.join("items").join(format!("{}.mmc", item.index));
    let ledger = scratch.join("recheck-ledger.txt");
    let [ledger_arg, part_arg] = [&ledger, &part].map(|p| p.display().to_string());
    let check = ["--threads", "1", "--parts", &ledger_arg, &part_arg];
    let said = run("mmcheck", &check).map_err(|e| format!("{name}: its new part: {e}"))?;
    std::fs::write(&file, &kept).map_err(|e| format!("{}: {e}", file.display()))?;
    let _ = std::fs::remove_file(&part);
    if said.starts_with("part of a proof with no fact") && now == item.cost {
        println!(
            "{name} ({} secrets, recorded {}): solved again to the same by the bounds alone, with no fact: no premise rests on it",
            item.secrets,
            words(item.cost)
        );
        return Ok(());
    }
    let claim = (said.split("its last fact: ").nth(1))
        .and_then(|s| s.split(';').next())
        .unwrap_or_default();
    let proven = claimed(claim).filter(|&(_, secrets)| secrets == item.secrets);
    let recorded = item.cost.least();
    let same = match item.cost {
        Cost::Exact(_) => now == item.cost,
        _ => now.least() >= recorded,
    };
    if !same || proven.is_none_or(|(least, _)| least < recorded) {
        return Err(format!(
            "{name}: recorded {}, solved again {} with a part that proves \"{claim}\"",
            words(item.cost),
            words(now)
        ));
    }
    let written = std::fs::read_to_string(&ledger).map_err(|e| e.to_string())?;
    let fact = written
        .lines()
        .last()
        .and_then(last_fact)
        .unwrap_or_default();
    let committed = campaign.join(&item.level).join("parts.txt");
    if !ledgers.contains_key(&committed) {
        let facts = ledger_facts(&committed)?;
        ledgers.insert(committed.clone(), facts);
    }
    let line = match ledgers[&committed].contains(fact) {
        true => "the same last fact as a line of the ledger",
        false => "not the same last fact as any line of the ledger, but as strong or stronger",
    };
    println!(
        "{name} ({} secrets, recorded {}): solved again in {seconds:.2} s to {}, its new part checked: {claim} ({line})",
        item.secrets,
        words(item.cost),
        words(now)
    );
    Ok(())
}

/// "costs 1211" or "at least 1211".
fn words(cost: Cost) -> String {
    match cost {
        Cost::Exact(total) => format!("costs {total}"),
        cost => format!("at least {}", cost.least()),
    }
}

/// The least and the secrets of mmcheck's "every strategy needs at least L
/// guesses for its N secrets".
fn claimed(claim: &str) -> Option<(u64, u32)> {
    let rest = claim.strip_prefix("every strategy needs at least ")?;
    let (least, rest) = rest.split_once(" guesses for its ")?;
    let secrets = rest.strip_suffix(" secrets")?;
    Some((least.parse().ok()?, secrets.parse().ok()?))
}

/// The campaign's levels: itself and every split inside it, at any depth, as
/// paths from it, in a fixed order.
fn levels(campaign: &Path) -> Result<Vec<PathBuf>, String> {
    let mut found = vec![PathBuf::new()];
    let mut at = 0;
    while at < found.len() {
        let here = campaign.join(&found[at]);
        let mut inner: Vec<PathBuf> = std::fs::read_dir(&here)
            .map_err(|e| format!("{}: {e}", here.display()))?
            .filter_map(Result::ok)
            .map(|entry| entry.file_name())
            .filter(|name| name.to_string_lossy().starts_with("within-"))
            .map(|name| found[at].join(name))
            .filter(|split| campaign.join(split).join("plan.json").exists())
            .collect();
        inner.sort();
        found.extend(inner);
        at += 1;
    }
    Ok(found)
}

/// `count` distinct numbers below `n` (all of them if `count >= n`), drawn by a
/// Fisher-Yates shuffle on splitmix64 from `seed`, in drawing order.
fn draw(n: usize, count: usize, seed: u64) -> Vec<usize> {
    let mut state = seed;
    let mut next = || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let mut order: Vec<usize> = (0..n).collect();
    let take = count.min(n);
    for i in 0..take {
        let j = i + (next() % (n - i) as u64) as usize;
        order.swap(i, j);
    }
    order.truncate(take);
    order
}

/// A ledger line's last fact (its last word): `part SIZE CRC FACTS ... FACT`.
fn last_fact(line: &str) -> Option<&str> {
    line.starts_with("part ")
        .then(|| line.split(' ').next_back())?
}

/// Every last fact a ledger holds.
fn ledger_facts(ledger: &Path) -> Result<HashSet<String>, String> {
    let text = std::fs::read_to_string(ledger).map_err(|e| format!("{}: {e}", ledger.display()))?;
    Ok(text
        .lines()
        .filter_map(last_fact)
        .map(String::from)
        .collect())
}

/// Runs one of the binaries beside this one; its stdout, or its stderr as the error.
fn run(program: &str, args: &[&str]) -> Result<String, String> {
    let out = Command::new(super::program(program))
        .args(args)
        .output()
        .map_err(|e| format!("{program}: {e}"))?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    match out.status.success() {
        true => Ok(String::from_utf8_lossy(&out.stdout).into_owned()),
        false => Err(format!("{program} failed: {}", stderr.trim())),
    }
}

/// Copies a campaign's folder but for its ledgers (read where they are),
/// following links (a campaign's `known.mmt` links into trees/).
fn copy_dir(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let (source, target) = (entry.path(), to.join(entry.file_name()));
        match std::fs::metadata(&source)?.is_dir() {
            true => copy_dir(&source, &target)?,
            false if entry.file_name() == "parts.txt" => {}
            false => std::fs::copy(&source, &target).map(drop)?,
        }
    }
    Ok(())
}
