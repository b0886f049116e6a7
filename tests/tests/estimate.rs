//! `mmgen --estimate` against measured runs, as a user would check it: on five
//! boards (every one-step rule once), the pairs the run scored and its peak memory
//! are within a factor of 3 of what the estimate said just before (the work, not
//! the seconds: those depend on the machine and what else it runs, and
//! `make bench-estimates` measures them); a run estimated
//! to need more memory than the process may take is refused at once, with nothing
//! written, and so is a proof whose `--cache-mib` would not fit when full, while a
//! default cache that would not is cut to fit (a single run's, or an exact plan's
//! items'); a long run says its estimate as it starts, even to a pipe.

mod common;
use common::*;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

#[test]
fn estimates_are_within_a_factor_of_3_of_measured_runs_on_five_boards() {
    let dir = scratch("estimate");
    let boards = mmtree_tests::ESTIMATED_BOARDS;
    for args in boards {
        let mut asked = args.to_vec();
        asked.extend(["--estimate", "--json"]);
        let estimate = json(&ok("mmgen", &asked));
        let out = dir.join("run.mmt");
        let mut run = args.to_vec();
        run.extend(["--json", "--force", "--out", out.to_str().unwrap()]);
        let measured = json(&ok("mmgen", &run));
        let scorings = measured["score_computations"].as_f64().unwrap();
        let bytes = measured["peak_memory_bytes"].as_f64().unwrap();
        let expected_scorings = estimate["scorings"]["expected"].as_f64().unwrap();
        let expected_bytes = estimate["memory_bytes"]["expected"].as_f64().unwrap();
        let (work_ratio, memory_ratio) = (scorings / expected_scorings, bytes / expected_bytes);
        println!(
            "{}: estimated {expected_scorings:.3e} pairs and {:.1} MiB, measured {scorings:.3e} pairs and {:.1} MiB ({work_ratio:.2}x, {memory_ratio:.2}x)",
            args.join(" "),
            expected_bytes / 1048576.0,
            bytes / 1048576.0
        );
        for (what, ratio) in [("work", work_ratio), ("memory", memory_ratio)] {
            assert!(
                (1.0 / 3.0..=3.0).contains(&ratio),
                "{args:?}: the {what} is {ratio:.2} times the estimate"
            );
        }
    }
}

#[test]
fn a_run_that_needs_more_memory_than_it_may_take_is_refused_before_it_starts() {
    let dir = scratch("estimate_memory");
    let out = dir.join("big.mmt");
    let mmgen = bin("mmgen");
    // 8x8 Knuth needs about 2.8 GiB; the shell gives the process 2 GiB of address space.
    let run = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v 2097152 && exec {} --pegs 8 --colors 8 --out {}",
            mmgen.display(),
            out.display()
        ))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(1), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains(
            "this run needs about 2.8 GiB of memory and its address-space limit (ulimit -v) leaves"
        ) && stderr.contains("not started (pass --force to start anyway)"),
        "{stderr}"
    );
    assert!(!out.exists());
}

/// `mmgen ARGS` in a shell whose address space is limited to 1 GiB.
fn in_one_gib(args: &str) -> std::process::Output {
    let mmgen = bin("mmgen");
    let script = format!("ulimit -v 1048576 && exec {} {args}", mmgen.display());
    Command::new("sh").arg("-c").arg(script).output().unwrap()
}

/// A proof's cache fills as far as the proof needs: one asked for that cannot fit
/// when full is refused before the run starts (it would end the run hours in);
/// the default one is cut to fit, with a line that says so, and the proof writes
/// the file it writes with any cache.
#[test]
fn a_cache_that_cannot_fit_is_refused_when_asked_for_and_cut_when_not() {
    let dir = scratch("estimate_cache");
    let out = dir.join("cut.mmt");
    let proof = "--pegs 4 --colors 5 --strategy optimal --threads 1";
    let args: Vec<&str> = proof.split(' ').collect();
    let asked = in_one_gib(&format!("{proof} --cache-mib 4096 --out {}", out.display()));
    let stderr = String::from_utf8_lossy(&asked.stderr);
    assert_eq!(asked.status.code(), Some(1), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("this proof's cache of 4096 MiB may fill")
            && stderr.contains("its address-space limit (ulimit -v) leaves")
            && stderr.contains("not started (--cache-mib "),
        "{stderr}"
    );
    assert!(!out.exists());
    // The default 2048 MiB does not fit in 1 GiB either: cut, and the proof runs.
    let cut = in_one_gib(&format!("{proof} --out {}", out.display()));
    let stderr = String::from_utf8_lossy(&cut.stderr);
    assert!(cut.status.success(), "{stderr}");
    let line = stderr.lines().find(|l| l.contains("cache is cut to"));
    let mib: u32 = line
        .and_then(|l| l.split("cut to ").nth(1)?.split(' ').next()?.parse().ok())
        .unwrap_or_else(|| panic!("no cut said: {stderr}"));
    assert!((1..1024).contains(&mib), "{stderr}");
    let (plain, _) = generate(&dir, "plain.mmt", &args);
    assert!(std::fs::read(out).unwrap() == std::fs::read(plain).unwrap());
}

/// The items of an exact plan get the same check: a cache asked for that cannot
/// fit is refused before any item is built, the default is cut to fit, and the
/// items built with either cache, or a cache of 1 MiB, merge into the single
/// run's file.
#[test]
fn an_exact_plan_s_items_get_a_cache_that_fits() {
    let dir = scratch("estimate_item_cache");
    let board = ["--pegs", "4", "--colors", "5", "--strategy", "optimal"];
    let (plain, _) = generate(&dir, "plain.mmt", &board);
    let merged = |name: &str, solve: &str| {
        let run = dir.join(name);
        let plan = [&["plan"][..], &board, &["--dir", run.to_str().unwrap()]].concat();
        ok("mmgen", &plan);
        let run = run.display();
        let solved = in_one_gib(&format!(
            "solve-class --dir {run} --task 0 --tasks 1 {solve}"
        ));
        let stderr = String::from_utf8_lossy(&solved.stderr).to_string();
        let status = json(&ok(
            "mmgen",
            &["status", "--dir", &run.to_string(), "--json"],
        ));
        if !solved.status.success() {
            assert_eq!(status["done"], 0, "{status}");
            return (None, stderr);
        }
        let out = dir.join(format!("{name}.mmt"));
        let out = out.to_str().unwrap();
        ok("mmgen", &["merge", "--dir", &run.to_string(), "--out", out]);
        (Some(std::fs::read(out).unwrap()), stderr)
    };
    let (refused, stderr) = merged("asked", "--cache-mib 4096");
    assert!(refused.is_none(), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("this proof's cache of 4096 MiB may fill")
            && stderr.contains("not started (--cache-mib "),
        "{stderr}"
    );
    let plain = std::fs::read(plain).unwrap();
    let (cut, stderr) = merged("cut", "");
    assert!(stderr.contains("the search's cache is cut to "), "{stderr}");
    assert!(cut == Some(plain.clone()), "{stderr}");
    let (small, stderr) = merged("small", "--cache-mib 1");
    assert!(small == Some(plain), "{stderr}");
}

#[test]
fn a_long_run_says_its_estimate_as_it_starts_even_to_a_pipe() {
    let dir = scratch("estimate_start");
    let out = dir.join("long.mmt");
    // 7x7 Knuth on one thread: estimated to take minutes.
    let long_run = ["--pegs", "7", "--colors", "7", "--threads", "1"];
    let mut child = Command::new(bin("mmgen"))
        .args(long_run)
        .args(["--progress", "never"])
        .arg("--out")
        .arg(&out)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stderr.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(
        first.starts_with("estimate: 7x7 knuth on 1 thread: about ") && first.contains("of memory"),
        "{first}"
    );
    let estimate = json(&ok(
        "mmgen",
        &[&long_run[..], &["--estimate", "--json"]].concat(),
    ));
    assert!(
        estimate["seconds"]["expected"].as_f64().unwrap() > 60.0,
        "{estimate}"
    );
}

/// A proof under a memory budget: 5x5 with a 2 MiB cache, which it fills (it
/// searches more positions than with the default cache, so facts were dropped),
/// completes with the same file, and its peak memory, measured by the run itself,
/// stays within the high end of the range its estimate states (the cache, and
/// what the search holds besides) and within 16 MiB.
#[test]
fn a_proof_under_a_memory_budget_writes_the_same_file_within_it() {
    let dir = scratch("memory_budget");
    let board = ["--pegs", "5", "--colors", "5", "--strategy", "optimal"];
    let budget = [&board[..], &["--cache-mib", "2", "--threads", "1"]].concat();
    let said = json(&ok(
        "mmgen",
        &[&budget[..], &["--estimate", "--json"]].concat(),
    ));
    let high = said["at_most_bytes"].as_f64().unwrap();
    assert_eq!(said["cache_bytes"].as_f64(), Some(2.0 * 1024.0 * 1024.0));
    let (small, report) = generate(&dir, "small.mmt", &budget);
    let peak = report["peak_memory_bytes"].as_f64().unwrap();
    assert!(peak <= high, "peak {peak} over the stated {high}");
    assert!(peak <= 16.0 * 1024.0 * 1024.0, "peak {peak}");
    let plain_args = [&board[..], &["--threads", "1"]].concat();
    let (plain, plain_report) = generate(&dir, "plain.mmt", &plain_args);
    let searched = |r: &serde_json::Value| r["positions_searched"].as_u64().unwrap();
    assert!(
        searched(&report) > searched(&plain_report),
        "the cache never filled: {} positions against {}",
        searched(&report),
        searched(&plain_report)
    );
    assert!(std::fs::read(small).unwrap() == std::fs::read(plain).unwrap());
}

/// Past `--time-limit`, a run keeps a margin to finish a complete tree only where
/// one can be finished in it: 5x7 keeps 5 s (its trees take about a second), 8x8
/// none (any tree takes hours, on any number of cores), so it stops at the limit
/// itself. The margin the
/// estimate states is the one the run keeps (`args::margin_for`).
#[test]
fn a_time_limit_keeps_a_margin_only_where_a_tree_can_be_finished_in_it() {
    let at_most = |board: &[&str], limit: &str| {
        let args = [
            board,
            &[
                "--strategy",
                "optimal",
                "--time-limit",
                limit,
                "--estimate",
                "--json",
            ],
        ]
        .concat();
        json(&ok("mmgen", &args))["at_most_seconds"]
            .as_f64()
            .unwrap()
    };
    assert_eq!(at_most(&["--pegs", "5", "--colors", "7"], "1"), 6.0);
    assert_eq!(at_most(&["--pegs", "8", "--colors", "8"], "3"), 3.0);
}
