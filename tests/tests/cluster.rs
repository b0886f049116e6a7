//! One tree as work items: plan, solve the items as separate processes, merge into
//! the very bytes a single run writes; a killed item rerun alone, a damaged item
//! named by merge and status. No Slurm needed (that is `make test-cluster`).

mod common;
use common::*;
use lookup::Code;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const BOARD: [&str; 6] = ["--pegs", "5", "--colors", "7", "--strategy", "knuth"];

/// `mmgen plan` arguments for a depth-1 plan of 5x7 with `strategy` in `dir`.
fn depth_one_plan<'a>(dir: &'a str, strategy: &'a str) -> Vec<&'a str> {
    let board = ["--pegs", "5", "--colors", "7", "--strategy", strategy];
    [&["plan", "--dir", dir, "--depth", "1"][..], &board].concat()
}

/// Once three items of the exact plan in `run` are stopped by their budgets, of
/// two sizes or more: each said to have taken a second a secret, those costed a
/// thousand, the projection of the items stopped is fitted to the first alone
/// (time = secrets: the power 1, scaled by 1), the other to both. Whether they
/// were there to fit.
fn stopped_items_project_their_own_fit(run: &Path) -> bool {
    let now = status(run);
    let done = now["items_done"].as_array().unwrap();
    let stopped: Vec<&serde_json::Value> = done.iter().filter(|e| e["exact"] == false).collect();
    let mut sizes: Vec<u64> = stopped
        .iter()
        .map(|e| e["secrets"].as_u64().unwrap())
        .collect();
    sizes.dedup();
    if stopped.len() < 3 || sizes.len() < 2 || now["to_solve"] == 0 {
        return false;
    }
    for entry in done {
        let secrets = entry["secrets"].as_f64().unwrap();
        let seconds = if entry["exact"] == false {
            secrets
        } else {
            1000.0 * secrets
        };
        set_item_seconds(run, entry["item"].as_u64().unwrap() as usize, seconds);
    }
    let now = status(run);
    let fit = &now["projection_stopped"];
    assert_eq!(fit["fitted"], stopped.len(), "{now}");
    assert!(
        (fit["exponent"].as_f64().unwrap() - 1.0).abs() < 1e-9,
        "{now}"
    );
    assert!((fit["scale"].as_f64().unwrap() - 1.0).abs() < 1e-9, "{now}");
    let all = &now["projection"];
    assert_eq!(all["fitted"], done.len(), "{now}");
    assert!(all["scale"].as_f64().unwrap() > 1.0, "{now}");
    let text = ok("mmgen", &["status", "--dir", run.to_str().unwrap()]);
    let line = format!(
        "if each stops at its budget as the {} items done",
        stopped.len()
    );
    assert!(text.contains(&line), "{text}");
    true
}

/// Rewrites the seconds item `index` of the run in `dir` says it took (the f64
/// after its magic, plan and index: generator/src/plan/item.rs), its checksum
/// made again.
fn set_item_seconds(dir: &Path, index: usize, seconds: f64) {
    let path = dir.join("items").join(format!("{index}.item"));
    let mut bytes = std::fs::read(&path).unwrap();
    let body = bytes.len() - 4;
    bytes[16..24].copy_from_slice(&seconds.to_le_bytes());
    let crc = lookup::checksum::crc32(&bytes[..body]);
    bytes[body..].copy_from_slice(&crc.to_le_bytes());
    std::fs::write(&path, bytes).unwrap();
}

fn status(dir: &Path) -> serde_json::Value {
    json(&ok(
        "mmgen",
        &["status", "--dir", dir.to_str().unwrap(), "--json"],
    ))
}

/// Merges the run in `run` into `out`; what mmgen prints.
fn merge(run: &Path, out: &Path) -> String {
    let (run, out) = (run.to_str().unwrap(), out.to_str().unwrap());
    ok("mmgen", &["merge", "--dir", run, "--out", out])
}

/// Solves `items` as separate `mmgen solve-class` processes, two at a time.
fn solve_two_at_a_time(dir: &Path, items: &[usize]) {
    let jobs: Vec<Vec<String>> = items.iter().map(|i| vec![i.to_string()]).collect();
    two_at_a_time(dir, &jobs);
}

/// Runs `mmgen solve-class --dir DIR` with each of `jobs`' arguments as a separate
/// process, two at a time.
fn two_at_a_time(dir: &Path, jobs: &[Vec<String>]) {
    for pair in jobs.chunks(2) {
        let children: Vec<_> = pair
            .iter()
            .map(|args| {
                Command::new(bin("mmgen"))
                    .args(["solve-class", "--dir", dir.to_str().unwrap()])
                    .args(args)
                    .stdout(Stdio::null())
                    .spawn()
                    .expect("mmgen starts")
            })
            .collect();
        for mut child in children {
            assert!(child.wait().unwrap().success());
        }
    }
}

#[test]
fn a_plan_solved_item_by_item_merges_into_the_single_run_s_bytes() {
    let dir = scratch("cluster_57");
    let run = dir.join("run");
    let run_text = run.to_str().unwrap();
    let planned = ok(
        "mmgen",
        &[&["plan", "--dir", run_text], &BOARD[..]].concat(),
    );
    assert!(planned.starts_with("planned "), "{planned}");
    // Deterministic: the same plan, the same bytes.
    let text = std::fs::read(run.join("plan.json")).unwrap();
    let again = dir.join("again");
    ok(
        "mmgen",
        &[&["plan", "--dir", again.to_str().unwrap()], &BOARD[..]].concat(),
    );
    assert_eq!(std::fs::read(again.join("plan.json")).unwrap(), text);
    let jobs = status(&run)["jobs"].as_u64().unwrap() as usize;
    assert!(jobs >= 100, "at least 100 items by default: {jobs}");
    assert_eq!(status(&run)["missing"], jobs);
    for script in ["submit.sh", "items.sbatch", "merge.sbatch"] {
        assert!(run.join(script).exists(), "{script}");
    }
    // The array's tasks follow the work, not the items: 5x7 Knuth's 16,807
    // secrets are one task's worth (a task per item made Slurm start 230 tasks for
    // 0.1 s of work).
    let array = std::fs::read_to_string(run.join("items.sbatch")).unwrap();
    assert!(array.contains("--array=0-0%"), "{array}");
    assert!(array.contains("--tasks 1"), "{array}");
    assert!(planned.contains(" for 1 array task in "), "{planned}");
    for (task, tasks, error) in [("3", "3", "the tasks are 0 to 2"), ("0", "0", "at least 1")] {
        let args = [
            "solve-class",
            "--dir",
            run_text,
            "--task",
            task,
            "--tasks",
            tasks,
        ];
        let err = usage_error("mmgen", &args);
        assert!(err.contains(error), "{err}");
    }

    let items: Vec<usize> = (0..jobs).collect();
    solve_two_at_a_time(&run, &items);
    let after = status(&run);
    assert_eq!(
        (after["done"].as_u64(), after["missing"].as_u64()),
        (Some(jobs as u64), Some(0))
    );
    assert_eq!(after["seconds_left"], 0.0);
    // Each item's secrets and time, as the plan has them and adding up to the
    // whole: what a projection is fitted to, there to check it by.
    let plan = json(&std::fs::read_to_string(run.join("plan.json")).unwrap());
    let done = after["items_done"].as_array().unwrap();
    assert_eq!(done.len(), jobs, "{after}");
    let mut seconds = 0.0;
    for (index, entry) in done.iter().enumerate() {
        assert_eq!(entry["item"], index, "{after}");
        assert_eq!(entry["secrets"], plan["items"][index]["secrets"], "{after}");
        seconds += entry["seconds"].as_f64().unwrap();
    }
    assert!(
        (seconds - after["seconds"].as_f64().unwrap()).abs() < 1e-6,
        "{after}"
    );

    let merged = dir.join("merged.mmt");
    merge(&run, &merged);
    let (single, _) = generate(&dir, "single.mmt", &BOARD);
    assert!(
        std::fs::read(&merged).unwrap() == std::fs::read(&single).unwrap(),
        "merged and single-run files differ"
    );
    ok("mmlookup", &["audit", merged.to_str().unwrap()]);
}

#[test]
fn a_killed_or_damaged_item_is_named_and_rerun_alone() {
    let dir = scratch("cluster_rerun");
    let run = dir.join("run");
    let run_text = run.to_str().unwrap();
    ok(
        "mmgen",
        &[&["plan", "--dir", run_text, "--depth", "1"], &BOARD[..]].concat(),
    );
    let jobs = status(&run)["jobs"].as_u64().unwrap() as usize;
    solve_two_at_a_time(&run, &(1..jobs).collect::<Vec<_>>());
    // Item 0 is killed while it runs: it is done or missing after, never damaged.
    let mut child = Command::new(bin("mmgen"))
        .args(["solve-class", "--dir", run_text, "0"])
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    let killed = status(&run);
    assert_eq!(killed["damaged"], 0);
    if killed["missing"] == 1 {
        assert_eq!(killed["missing_items"], serde_json::json!([0]));
        let out = dir.join("x.mmt");
        let err = fails(
            "mmgen",
            &["merge", "--dir", run_text, "--out", out.to_str().unwrap()],
        );
        assert!(
            err.contains(&format!(
                "to solve (mmgen solve-class --dir {run_text} INDEX...): missing 0;"
            )) && err.ends_with("and --fill TREE makes a tree of the items done in TREE's places"),
            "{err}"
        );
        assert!(!out.exists());
    }
    let rerun = ok("mmgen", &["solve-class", "--dir", run_text, "0", "1"]);
    assert!(rerun.contains("item 1: done already"), "{rerun}");
    assert_eq!(status(&run)["done"], jobs);

    // A damaged item file is named, then rebuilt by a rerun.
    let item = run.join("items/2.item");
    let mut bytes = std::fs::read(&item).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x10;
    std::fs::write(&item, &bytes).unwrap();
    assert_eq!(status(&run)["damaged_items"], serde_json::json!([2]));
    let out = dir.join("merged.mmt");
    let err = fails(
        "mmgen",
        &["merge", "--dir", run_text, "--out", out.to_str().unwrap()],
    );
    assert!(err.contains("damaged 2"), "{err}");
    let rebuilt = ok("mmgen", &["solve-class", "--dir", run_text, "2"]);
    assert!(rebuilt.contains("item 2: built"), "{rebuilt}");
    ok(
        "mmgen",
        &["merge", "--dir", run_text, "--out", out.to_str().unwrap()],
    );
    let (single, _) = generate(&dir, "single.mmt", &BOARD);
    assert!(std::fs::read(&out).unwrap() == std::fs::read(&single).unwrap());

    // Another plan's item in its place is refused as damaged; another plan over
    // this folder is refused unless forced.
    let other = dir.join("other");
    ok(
        "mmgen",
        &depth_one_plan(other.to_str().unwrap(), "most-parts"),
    );
    ok(
        "mmgen",
        &["solve-class", "--dir", other.to_str().unwrap(), "3"],
    );
    std::fs::copy(other.join("items/3.item"), run.join("items/3.item")).unwrap();
    assert_eq!(status(&run)["damaged_items"], serde_json::json!([3]));
    let err = fails("mmgen", &depth_one_plan(run_text, "entropy"));
    assert!(err.contains("holds another plan"), "{err}");
    // Forced, the new plan starts with no items: the old ones can never merge.
    ok(
        "mmgen",
        &[&depth_one_plan(run_text, "entropy")[..], &["--force"]].concat(),
    );
    let fresh = status(&run);
    assert_eq!(
        (fresh["done"].as_u64(), fresh["damaged"].as_u64()),
        (Some(0), Some(0))
    );
}

/// Merges the certified run in `run` (every item done) into `dir`, checks its
/// certificate with mmcheck and its bytes against a single run of `board`; the
/// single run's report.
fn merges_into_the_single_run(dir: &Path, run: &Path, board: &[&str]) -> serde_json::Value {
    let merged = dir.join("merged.mmt");
    let cert = dir.join("merged.mmc");
    let out = merge_certified(run, &merged, &cert);
    assert!(out.contains("proven       yes"), "{out}");
    assert!(out.contains("certificate  "), "{out}");
    let checked = ok(
        "mmcheck",
        &[merged.to_str().unwrap(), cert.to_str().unwrap()],
    );
    assert!(
        checked.contains(", proven (certificate checked: "),
        "{checked}"
    );
    let single_args = [&["--strategy", "optimal"][..], board].concat();
    let (single, report) = generate(dir, "single.mmt", &single_args);
    assert!(
        std::fs::read(&merged).unwrap() == std::fs::read(&single).unwrap(),
        "merged and single-run files differ for {board:?}"
    );
    report
}

/// Plans `board` with the exact search in `dir/NAME`, certified; returns the
/// run's folder.
fn plan_exact_in(dir: &Path, name: &str, board: &[&str]) -> PathBuf {
    let run = dir.join(name);
    let base = [
        "plan",
        "--dir",
        run.to_str().unwrap(),
        "--strategy",
        "optimal",
        "--certificate",
    ];
    let planned = ok("mmgen", &[&base[..], board].concat());
    assert!(planned.starts_with("planned "), "{planned}");
    run
}

fn plan_exact(dir: &Path, board: &[&str]) -> PathBuf {
    plan_exact_in(dir, "run", board)
}

/// Solves every item of `run` as `tasks` array tasks, two at a time.
fn solve_as_tasks(run: &Path, tasks: usize) {
    let tasks: Vec<Vec<String>> = (0..tasks)
        .map(|t| {
            ["--task", &t.to_string(), "--tasks", &tasks.to_string()]
                .map(String::from)
                .to_vec()
        })
        .collect();
    two_at_a_time(run, &tasks);
}

/// Merges the certified run in `run` into `out` and its certificate `cert`; what
/// mmgen prints.
fn merge_certified(run: &Path, out: &Path, cert: &Path) -> String {
    let [run, out, cert] = [run, out, cert].map(|p| p.to_str().unwrap());
    ok(
        "mmgen",
        &["merge", "--dir", run, "--out", out, "--certificate", cert],
    )
}

/// Plans `board` with the exact search in `dir` (certified), solves every item two
/// at a time as separate processes, merges, checks the bytes against a single run
/// and the merged certificate with mmcheck; returns the final status.
fn exact_plan_matches_the_single_run(dir: &Path, board: &[&str]) -> serde_json::Value {
    let run = plan_exact(dir, board);
    let plan = json(&std::fs::read_to_string(run.join("plan.json")).unwrap());
    assert!(plan["heuristic"]["total"].as_u64().is_some(), "{plan}");
    assert_eq!(plan["certificate"], true);
    let fresh = status(&run);
    assert_eq!(fresh["best_total"], serde_json::Value::Null);
    // No item done: no time left projected (an exact item's time grows far faster
    // than its secrets, so it is fitted to items done, plan::projection).
    assert!(
        fresh["projection"].is_null() && fresh["seconds_left"].is_null(),
        "{fresh}"
    );
    let text = ok("mmgen", &["status", "--dir", run.to_str().unwrap()]);
    assert!(
        text.contains("time left    not projected until three items"),
        "{text}"
    );
    // Each first guess with its items, none done, each open while its floor is
    // not above the heuristic's total; their items are all the plan's.
    let firsts = fresh["first_guesses"].as_array().unwrap();
    let known = fresh["best_known_total"].as_u64().unwrap();
    assert_eq!(known, plan["heuristic"]["total"].as_u64().unwrap());
    let items: u64 = firsts.iter().map(|f| f["items"].as_u64().unwrap()).sum();
    assert_eq!(items, fresh["jobs"].as_u64().unwrap(), "{fresh}");
    for first in firsts {
        assert_eq!(
            (first["done"].as_u64(), first["exact"].as_bool()),
            (Some(0), Some(false))
        );
        let least = first["least_total"].as_u64().unwrap();
        assert!(least >= fresh["lower_bound"].as_u64().unwrap(), "{fresh}");
        assert_eq!(first["open"], least <= known, "{fresh}");
    }
    // As the job array runs them: five tasks, each solving its share.
    solve_as_tasks(&run, 5);
    assert_eq!(status(&run)["missing"], 0);
    let report = merges_into_the_single_run(dir, &run, board);
    let after = status(&run);
    assert_eq!(after["best_total"], report["total_guesses"], "{after}");
    assert_eq!(after["lower_bound"], report["total_guesses"], "{after}");
    assert_eq!(after["open_first_guesses"], 0);
    // Every first guess done: the best costed in full at the optimum, none below.
    let optimum = report["total_guesses"].as_u64().unwrap();
    for first in after["first_guesses"].as_array().unwrap() {
        assert_eq!(first["done"], first["items"], "{after}");
        assert_eq!(first["open"], false, "{after}");
        assert!(first["least_total"].as_u64().unwrap() >= optimum, "{after}");
        if first["guess"] == after["best_first"] {
            assert_eq!(
                (first["exact"].as_bool(), first["least_total"].as_u64()),
                (Some(true), Some(optimum))
            );
        }
    }
    // Each item done with the least its class costs, exact or shown too dear:
    // a first guess costs the board's secrets plus its classes', so every one
    // costs the optimum at least, and one with every class exact costs it.
    let secrets = report["secrets"].as_u64().unwrap();
    let mut by_first = std::collections::BTreeMap::<u64, (u64, bool)>::new();
    for entry in after["items_done"].as_array().unwrap() {
        let item = &plan["items"][entry["item"].as_u64().unwrap() as usize];
        let first = item["path"][0][0].as_u64().unwrap();
        let (total, exact) = by_first.entry(first).or_insert((secrets, true));
        *total += entry["least"].as_u64().unwrap();
        *exact &= entry["exact"].as_bool().unwrap();
    }
    assert!(
        by_first.values().all(|&(total, _)| total >= optimum),
        "{after}"
    );
    assert!(by_first.values().any(|&f| f == (optimum, true)), "{after}");
    // A first guess settled before any item was solved (its floors past the
    // heuristic's total) has its items shown too dear, not solved.
    if firsts.iter().any(|first| first["open"] == false) {
        assert!(by_first.values().any(|&(_, exact)| !exact), "{after}");
    }
    after
}

#[test]
fn exact_plans_merge_into_the_single_run_s_proven_optimum() {
    let dir = scratch("cluster_exact_46");
    let after = exact_plan_matches_the_single_run(&dir, &["--pegs", "4", "--colors", "6"]);
    // 5 first guesses up to symmetry, each with its classes as items.
    assert!(after["jobs"].as_u64().unwrap() > 40, "{after}");
    assert_eq!(after["best_first"], "1123");
    let dir = scratch("cluster_exact_46_depth5");
    let after = exact_plan_matches_the_single_run(
        &dir,
        &["--pegs", "4", "--colors", "6", "--max-depth", "5"],
    );
    assert_eq!(after["best_total"], 5626);
}

/// Items of first guesses settled already decide nothing: `status --at-once` lists
/// them, as many as the status counts and last in `--todo`'s order, and one
/// solve-class shows each too dear; the other items, solved after them, merge
/// into the single run's proven optimum.
#[test]
fn items_of_settled_guesses_are_listed_last_and_solved_together() {
    let dir = scratch("cluster_at_once");
    let board = ["--pegs", "4", "--colors", "4"];
    let run = plan_exact(&dir, &board);
    let p = run.to_str().unwrap();
    let list = |flag: &str| status_list(&run, flag);
    // 4x4's floors settle first guesses before any item is solved, some of them
    // before open ones in the search's order: listed after those.
    let (todo, at_once) = (list("--todo"), list("--at-once"));
    assert!(
        !at_once.is_empty() && todo.len() > at_once.len(),
        "{todo:?} {at_once:?}"
    );
    assert!(todo.ends_with(&at_once), "{todo:?} {at_once:?}");
    let plan = json(&std::fs::read_to_string(run.join("plan.json")).unwrap());
    let order = search_order(&plan);
    assert_ne!(todo, order);
    // Split a level deeper, an item of a settled guess waits for one of an open
    // guess that the search takes after it.
    let settled = *order.iter().find(|i| at_once.contains(i)).unwrap();
    let after = order.iter().skip_while(|&&i| i != settled);
    let open = *after.filter(|i| !at_once.contains(i)).last().unwrap();
    let splits = plan_exact_in(&dir, "splits", &board);
    let s = splits.to_str().unwrap();
    for item in [settled, open] {
        let (item, within) = (item.to_string(), splits.join(format!("within-{item}")));
        let within = within.to_str().unwrap();
        ok(
            "mmgen",
            &["plan", "--within", s, "--item", &item, "--dir", within],
        );
    }
    // Its floors worked out (as `--todo` does in a campaign), the settled guess
    // is known.
    ok("mmgen", &["status", "--dir", s, "--todo"]);
    let listed = ok("mmgen", &["status", "--dir", s, "--splits"]);
    assert_eq!(listed, format!("{open}\n{settled}\n"));
    assert_eq!(status(&run)["to_solve_settled"], at_once.len());
    let indexes: Vec<String> = at_once.iter().map(usize::to_string).collect();
    let mut args = vec!["solve-class", "--dir", p, "--threads", "1", "--share"];
    args.extend(indexes.iter().map(String::as_str));
    let said = ok("mmgen", &args);
    // Solved together, the status read once for all (not at each budget), each
    // costs what it costs solved alone, a process each, in the same plan.
    let alone = plan_exact_in(&dir, "alone", &board);
    assert_eq!(status_list(&alone, "--at-once"), at_once);
    let cost = |said: &str| said.split_once("): ").map(|(_, cost)| cost.to_string());
    for &index in &at_once {
        let line = (said.lines())
            .find(|l| l.starts_with(&format!("item {index}: built")))
            .unwrap_or_else(|| panic!("{said}"));
        assert!(line.contains("costs at least"), "{said}");
        let by_itself = solve_item(&alone, "--share", index);
        assert_eq!(cost(line), cost(by_itself.trim()), "{said}\n{by_itself}");
    }
    assert!(list("--at-once").is_empty());
    assert_eq!(list("--todo"), todo[..todo.len() - at_once.len()]);
    while let Some(&next) = list("--todo").first() {
        solve_item(&run, "--share", next);
    }
    merges_into_the_single_run(&dir, &run, &board);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Items asked for their shares of their guesses' gaps (`solve-class --share`,
/// as a campaign solves them), taken one at a time in `status --todo`'s order
/// until none is left: on 3x8, some class shown dearer only by its share is
/// left by its guess's other classes (all done) undecided against the best, and
/// is listed to be solved again, under the whole gap; then the merge is the
/// single run's, and its certificate checks.
#[test]
fn items_asked_for_their_shares_are_solved_again_until_their_guesses_are_decided() {
    let dir = scratch("cluster_shares");
    let board = ["--pegs", "3", "--colors", "8"];
    let run = plan_exact(&dir, &board);
    let run_text = run.to_str().unwrap();
    let mut solved: Vec<usize> = Vec::new();
    let mut again = 0;
    let mut projected = false;
    loop {
        let todo = ok("mmgen", &["status", "--dir", run_text, "--todo"]);
        let Some(next) = todo.lines().next() else {
            break;
        };
        if !projected {
            projected = stopped_items_project_their_own_fit(&run);
        }
        let next: usize = next.parse().unwrap();
        if solved.contains(&next) {
            // Done, but shown too dear by its share only, and its guess, all of
            // its items done, still open.
            let now = status(&run);
            let entry = (now["items_done"].as_array().unwrap().iter())
                .find(|e| e["item"] == next)
                .unwrap();
            assert_eq!(entry["exact"], false, "{now}");
            let firsts = now["first_guesses"].as_array().unwrap();
            assert!(
                firsts
                    .iter()
                    .any(|f| f["open"] == true && f["done"] == f["items"]),
                "{now}"
            );
            assert!(now["to_solve_again"].as_u64() >= Some(1), "{now}");
            let text = ok("mmgen", &["status", "--dir", run_text]);
            assert!(text.contains("shown dearer by their shares only"), "{text}");
            again += 1;
            // Its first solve said to have taken 1000 s: solved again, it keeps them.
            set_item_seconds(&run, next, 1000.0);
        }
        ok(
            "mmgen",
            &[
                "solve-class",
                "--dir",
                run_text,
                "--threads",
                "1",
                "--share",
                &next.to_string(),
            ],
        );
        if solved.contains(&next) {
            let now = status(&run);
            let entry = (now["items_done"].as_array().unwrap().iter())
                .find(|e| e["item"] == next)
                .unwrap();
            assert!(entry["seconds"].as_f64().unwrap() >= 1000.0, "{now}");
        }
        solved.push(next);
        assert!(solved.len() < 100, "{solved:?}");
    }
    assert!(again > 0, "no item solved again: {solved:?}");
    assert!(projected, "never three items stopped by their budgets");
    let report = merges_into_the_single_run(&dir, &run, &board);
    assert_eq!(status(&run)["lower_bound"], report["total_guesses"]);
    // A job array solves each item once: no shares there.
    let err = usage_error(
        "mmgen",
        &[
            "solve-class",
            "--dir",
            run_text,
            "--task",
            "0",
            "--tasks",
            "2",
            "--share",
        ],
    );
    assert!(err.contains("--share"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `mmgen solve-class --dir RUN --threads 1 FLAG INDEX`; what it prints.
fn solve_item(run: &Path, flag: &str, index: usize) -> String {
    let (run, index) = (run.to_str().unwrap(), index.to_string());
    ok(
        "mmgen",
        &["solve-class", "--dir", run, "--threads", "1", flag, &index],
    )
}

/// Item `index`'s entry in a status's `items_done`, if it is done.
fn done_entry(status: &serde_json::Value, index: usize) -> Option<serde_json::Value> {
    (status["items_done"].as_array().unwrap().iter())
        .find(|e| e["item"] == index)
        .cloned()
}

/// Solves `run`'s items as a campaign does (`--share`, in `status --todo`'s
/// order) until one is shown dearer by its share alone while its guess still has
/// classes not done: that item.
fn solve_until_one_is_shown_dearer_by_its_share(run: &Path, items: &[serde_json::Value]) -> usize {
    for _ in 0..items.len() {
        let todo = ok(
            "mmgen",
            &["status", "--dir", run.to_str().unwrap(), "--todo"],
        );
        let next: usize = todo.lines().next().expect("items left").parse().unwrap();
        solve_item(run, "--share", next);
        let now = status(run);
        let guess = first_guess(items, next);
        let guess_open = (0..items.len())
            .any(|i| first_guess(items, i) == guess && done_entry(&now, i).is_none());
        if done_entry(&now, next).unwrap()["exact"] == false && guess_open {
            return next;
        }
    }
    panic!("no item was shown dearer by its share alone")
}

/// An item shown dearer only by its share while its guess still has classes not
/// done, asked again at once (`solve-class --again`), is costed in full or shown
/// dearer by all of its guess's gap, and is not asked again after; the plan's
/// lower bound never falls, the rest are solved as a campaign solves them, and
/// the merge is still the single run's. `--again` is refused for a rule's plan.
#[test]
fn an_item_shown_dearer_by_its_share_is_solved_again_when_asked() {
    let dir = scratch("cluster_again");
    let board = ["--pegs", "3", "--colors", "8"];
    let (run, items) = plan_items(&dir, &board);
    let index = solve_until_one_is_shown_dearer_by_its_share(&run, &items);
    let before = status(&run);
    let said = solve_item(&run, "--again", index);
    assert!(said.contains(&format!("item {index}: built")), "{said}");
    let after = status(&run);
    let (mine, again) = (
        done_entry(&before, index).unwrap(),
        done_entry(&after, index).unwrap(),
    );
    assert!(
        again["exact"] == true || again["least"].as_u64() > mine["least"].as_u64(),
        "{mine} then {again}"
    );
    assert!(
        after["lower_bound"].as_u64() >= before["lower_bound"].as_u64(),
        "{after}"
    );
    let said = solve_item(&run, "--again", index);
    assert!(said.contains("done already"), "{said}");
    let run_text = run.to_str().unwrap();
    loop {
        let todo = ok("mmgen", &["status", "--dir", run_text, "--todo"]);
        let Some(next) = todo.lines().next() else {
            break;
        };
        solve_item(&run, "--share", next.parse().unwrap());
    }
    let report = merges_into_the_single_run(&dir, &run, &board);
    assert_eq!(status(&run)["lower_bound"], report["total_guesses"]);
    let rule = dir.join("rule");
    let rule_text = rule.to_str().unwrap();
    ok(
        "mmgen",
        &[
            &["plan", "--dir", rule_text, "--strategy", "knuth"][..],
            &board,
        ]
        .concat(),
    );
    let err = usage_error(
        "mmgen",
        &["solve-class", "--dir", rule_text, "--again", "0"],
    );
    assert!(err.contains("--again"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A guess whose classes left are all split a level deeper waits on its splits'
/// long searches: its classes shown dearer by their shares only are listed to
/// be solved again at once (not once the splits are done), since their costs
/// tighten the splits' caps.
#[test]
fn a_guess_waiting_on_its_splits_has_its_classes_shown_dearer_by_shares_solved_again() {
    let dir = scratch("cluster_reopen_split");
    let board = ["--pegs", "3", "--colors", "8"];
    let (run, items) = plan_items(&dir, &board);
    let run_text = run.to_str().unwrap();
    let index = solve_until_one_is_shown_dearer_by_its_share(&run, &items);
    let guess = first_guess(&items, index);
    let largest = largest_item(&items, &guess);
    assert_ne!(largest, index);
    // The guess's other classes done, but its largest.
    for i in (0..items.len()).filter(|&i| i != largest && first_guess(&items, i) == guess) {
        solve_item(&run, "--share", i);
    }
    let now = status(&run);
    assert_eq!(done_entry(&now, index).unwrap()["exact"], false, "{now}");
    assert!(done_entry(&now, largest).is_none(), "{now}");
    let todo = |run: &str| ok("mmgen", &["status", "--dir", run, "--todo"]);
    let listed = |text: &str| text.lines().any(|l| l == index.to_string());
    assert!(!listed(&todo(run_text)), "{}", todo(run_text));
    let split = run.join(format!("within-{largest}"));
    let split_text = split.to_str().unwrap();
    let largest_text = largest.to_string();
    ok(
        "mmgen",
        &[
            "plan",
            "--within",
            run_text,
            "--item",
            &largest_text,
            "--dir",
            split_text,
        ],
    );
    let after = todo(run_text);
    assert!(listed(&after), "{after}");
    assert!(!after.lines().any(|l| l == largest_text), "{after}");
    assert!(status(&run)["to_solve_again"].as_u64() >= Some(1));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_certified_plan_s_certificate_is_the_same_whatever_the_tasks_and_damage_is_named() {
    let dir = scratch("cluster_certified");
    let board = ["--pegs", "4", "--colors", "6", "--consistent-only"];
    // An item's budget, and so its proof, depends on the items done before it:
    // the certificates of two task splits differ, but both prove the optimum, and
    // the same items merge into the same bytes.
    let certificate = |name: &str, tasks: usize| {
        let run = plan_exact_in(&dir, name, &board);
        solve_as_tasks(&run, tasks);
        let (tree, cert) = (
            dir.join(format!("{name}.mmt")),
            dir.join(format!("{name}.mmc")),
        );
        merge_certified(&run, &tree, &cert);
        let checked = ok("mmcheck", &[tree.to_str().unwrap(), cert.to_str().unwrap()]);
        assert!(
            checked.starts_with("optimal: total 5660, proven"),
            "{checked}"
        );
        let again = dir.join("again.mmc");
        std::fs::remove_file(&tree).unwrap();
        merge_certified(&run, &tree, &again);
        assert!(std::fs::read(&cert).unwrap() == std::fs::read(&again).unwrap());
        run
    };
    certificate("one", 1);
    let run = certificate("three", 3);

    // An item's certificate gone: the item, which names it, still stands (the
    // test below merges such a run); another file in its place is not it.
    let cert_of_2 = run.join("items").join("2.mmc");
    let kept = std::fs::read(&cert_of_2).unwrap();
    std::fs::remove_file(&cert_of_2).unwrap();
    assert_eq!(status(&run)["damaged_items"], serde_json::json!([]));
    std::fs::write(&cert_of_2, &kept[..kept.len() - 1]).unwrap();
    assert_eq!(status(&run)["damaged_items"], serde_json::json!([2]));
    // A byte of it changed: the merge refuses it, naming the item, and writes nothing.
    let mut bad = kept.clone();
    let middle = bad.len() / 2;
    bad[middle] ^= 1;
    std::fs::write(&cert_of_2, &bad).unwrap();
    let (bad_tree, bad_cert) = (dir.join("bad.mmt"), dir.join("bad.mmc"));
    let [r, out, cert] = [&run, &bad_tree, &bad_cert].map(|p| p.to_str().unwrap());
    let err = fails(
        "mmgen",
        &["merge", "--dir", r, "--out", out, "--certificate", cert],
    );
    assert!(
        err.contains("2.mmc") && err.contains("rerun item 2"),
        "{err}"
    );
    assert!(!bad_cert.exists() && !bad_tree.exists());
    std::fs::write(&cert_of_2, &kept).unwrap();

    // A plan made without --certificate has none to merge.
    let plain = dir.join("plain");
    let base = [
        "plan",
        "--dir",
        plain.to_str().unwrap(),
        "--strategy",
        "optimal",
    ];
    ok("mmgen", &[&base[..], &board].concat());
    solve_as_tasks(&plain, 1);
    let err = fails(
        "mmgen",
        &[
            "merge",
            "--dir",
            plain.to_str().unwrap(),
            "--out",
            out,
            "--certificate",
            cert,
        ],
    );
    assert!(err.contains("made without --certificate"), "{err}");
}

#[test]
fn a_proof_in_parts_is_checked_from_its_ledger_once_the_parts_are_gone() {
    let dir = scratch("cluster_parts");
    let run = plan_exact_in(&dir, "run", &["--pegs", "4", "--colors", "6"]);
    solve_as_tasks(&run, 2);
    let (tree, whole) = (dir.join("whole.mmt"), dir.join("whole.mmc"));
    merge_certified(&run, &tree, &whole);
    // Each part checked on its own, and recorded with its last fact.
    let ledger = dir.join("parts.txt");
    let ledger_arg = ledger.to_str().unwrap();
    let mut parts = Vec::new();
    for entry in std::fs::read_dir(run.join("items")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "mmc") {
            let said = ok("mmcheck", &["--parts", ledger_arg, path.to_str().unwrap()]);
            assert!(said.starts_with("part of a proof"), "{said}");
            parts.push(path);
        }
    }
    assert!(parts.len() > 40, "{}", parts.len());
    // A part checked again with its check recorded (a campaign cut off between the
    // check and keeping the item, say) is not checked twice, nor recorded twice.
    let recorded = std::fs::read_to_string(&ledger).unwrap();
    let again: Vec<String> = (parts.iter())
        .map(|p| ok("mmcheck", &["--parts", ledger_arg, p.to_str().unwrap()]))
        .collect();
    assert!(
        again.iter().any(
            |said| said.contains("facts held when its check was recorded in")
                && said.contains("not checked again")
        ),
        "{again:?}"
    );
    assert_eq!(std::fs::read_to_string(&ledger).unwrap(), recorded);
    // A part proves no tree.
    let (t, part) = (tree.to_str().unwrap(), parts[0].to_str().unwrap());
    let err = fails("mmcheck", &[t, part]);
    assert!(err.contains("a part of a proof"), "{err}");
    let recorded = std::fs::read_to_string(&ledger).unwrap();
    // Every part with a fact has a line (those the bounds settle have none).
    let lines = recorded.lines().filter(|l| l.starts_with("part ")).count();
    assert!(lines > 30 && lines <= parts.len(), "{lines}");

    // The parts let go: the items still stand, and the merge writes the same tree
    // with a premise for each part, which the ledger, and only the ledger, vouches for.
    parts.iter().for_each(|p| std::fs::remove_file(p).unwrap());
    assert_eq!(status(&run)["damaged_items"], serde_json::json!([]));
    let (top_tree, top) = (dir.join("top.mmt"), dir.join("top.mmc"));
    let merged = merge_certified(&run, &top_tree, &top);
    assert!(
        merged.contains(&format!("{lines} of them premises"))
            && merged.contains("mmcheck --parts LEDGER"),
        "{merged}"
    );
    assert!(std::fs::read(&tree).unwrap() == std::fs::read(&top_tree).unwrap());
    let [t, c] = [&top_tree, &top].map(|p| p.to_str().unwrap());
    let checked = ok("mmcheck", &["--parts", ledger_arg, t, c]);
    assert!(
        checked.starts_with("optimal: total 5625, proven")
            && checked.contains(&format!("{lines} of them premises")),
        "{checked}"
    );
    let err = fails("mmcheck", &[t, c]);
    assert!(
        err.contains("premise") && err.contains("not recorded"),
        "{err}"
    );
    // A ledger without one part's line, or with a line changed, vouches for less.
    let mut cut: Vec<&str> = recorded.lines().collect();
    let last = cut.pop().unwrap();
    let other = dir.join("other.txt");
    std::fs::write(&other, cut.join("\n")).unwrap();
    let err = fails("mmcheck", &["--parts", other.to_str().unwrap(), t, c]);
    assert!(err.contains("not recorded"), "{err}");
    // The same part, its last fact's bound one more (the head's second number).
    let (before, head) = last.rsplit_once(' ').unwrap();
    let mut head = head.to_string();
    let bumped = u8::from_str_radix(&head[2..4], 16).unwrap() ^ 1;
    head.replace_range(2..4, &format!("{bumped:02x}"));
    let changed = format!("{}\n{before} {head}\n", cut.join("\n"));
    std::fs::write(&other, changed).unwrap();
    let err = fails("mmcheck", &["--parts", other.to_str().unwrap(), t, c]);
    assert!(
        err.contains("last fact") && err.contains("is another"),
        "{err}"
    );
    // The same part's line, as a part of a board of 7 colours: its numbers are other codes.
    let seven = last.replacen(" 4 6 1 0 ", " 4 7 1 0 ", 1);
    assert_ne!(seven, last);
    std::fs::write(&other, format!("{}\n{seven}\n", cut.join("\n"))).unwrap();
    let err = fails("mmcheck", &["--parts", other.to_str().unwrap(), t, c]);
    assert!(err.contains("another board"), "{err}");

    // A reader who does not trust the ledger draws items, solves each again under
    // the budget that gives its record, and has mmcheck check the new part: every
    // record is proven again, each fact the same as its ledger line's.
    std::fs::write(run.join("parts.txt"), &recorded).unwrap();
    let r = run.to_str().unwrap();
    let all = [
        "recheck", r, "--count", "1000", "--seed", "3", "--under", "1000",
    ];
    let said = ok("mmtree-report", &all);
    let items = status(&run)["jobs"].as_u64().unwrap();
    assert!(
        said.contains(&format!(
            "all {items} items solved again to what they recorded"
        )) && said
            .matches("(the same last fact as a line of the ledger)")
            .count()
            == lines
            && said.matches("by the bounds alone").count() == items as usize - lines,
        "{said}"
    );
    // The seed picks the items: another seed, other items.
    let draw = |seed: &str| {
        let said = ok(
            "mmtree-report",
            &["recheck", r, "--count", "3", "--seed", seed],
        );
        let items: Vec<String> = (said.lines().skip(1))
            .filter_map(|l| Some(l.split(", item ").nth(1)?.split(' ').next()?.to_string()))
            .collect();
        assert_eq!(items.len(), 3, "{said}");
        items
    };
    assert_eq!(draw("5"), draw("5"));
    assert_ne!(draw("5"), draw("6"));
    // A record that claims more than its class costs: an item costed in full,
    // rewritten to say it costs at least one more (its checksum made again), is
    // found out, though its file reads as sound.
    let done = &status(&run)["items_done"];
    let (index, cost) = (done.as_array().unwrap().iter())
        .find(|i| i["exact"] == true && i["secrets"].as_u64() > Some(20))
        .map(|i| (i["item"].as_u64().unwrap(), i["least"].as_u64().unwrap()))
        .unwrap();
    let path = run.join("items").join(format!("{index}.item"));
    let bytes = std::fs::read(&path).unwrap();
    let tag = outcome_at(&bytes);
    let mut forged = bytes[..tag].to_vec();
    forged.push(2);
    forged.extend((cost + 1).to_le_bytes());
    let crc = lookup::checksum::crc32(&forged);
    forged.extend(crc.to_le_bytes());
    std::fs::write(&path, forged).unwrap();
    assert_eq!(status(&run)["damaged_items"], serde_json::json!([]));
    let out = common::run("mmtree-report", &all);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.code() == Some(1)
            && err.contains(&format!(
                "item {index}: recorded at least {}, solved again costs {cost}",
                cost + 1
            )),
        "{err}"
    );
}

/// A certified exact plan of `board` in `dir/run`: its folder and its items.
fn plan_items(dir: &Path, board: &[&str]) -> (PathBuf, Vec<serde_json::Value>) {
    let run = plan_exact(dir, board);
    let plan = json(&std::fs::read_to_string(run.join("plan.json")).unwrap());
    (run, plan["items"].as_array().unwrap().clone())
}

/// The first guess of item `index` of a plan's `items`.
fn first_guess(items: &[serde_json::Value], index: usize) -> serde_json::Value {
    items[index]["path"][0][0].clone()
}

/// The largest of the items of first guess `guess` (the last of the largest).
fn largest_item(items: &[serde_json::Value], guess: &serde_json::Value) -> usize {
    (0..items.len())
        .filter(|&i| first_guess(items, i) == *guess)
        .max_by_key(|&i| (items[i]["secrets"].as_u64(), i))
        .unwrap()
}

/// `mmgen solve-class` arguments: item `index` of `run` on one thread, saved every
/// `seconds`.
fn saving_every(run: &Path, index: usize, seconds: &str) -> Vec<String> {
    let run = run.to_str().unwrap();
    [
        "solve-class",
        "--dir",
        run,
        "--threads",
        "1",
        "--checkpoint-every",
        seconds,
    ]
    .map(String::from)
    .into_iter()
    .chain([index.to_string()])
    .collect()
}

/// An exact item cut off (`kill -9`, saves included: one every millisecond) goes on
/// from its checkpoint folder; the plan still merges into the single run's bytes,
/// with a certificate mmcheck proves, and the folder goes once the item is done.
#[test]
fn an_exact_item_cut_off_goes_on_from_its_checkpoint() {
    let dir = scratch("cluster_item_checkpoint");
    // 4x8: the largest class of the first guess tried first (the optimum's) takes
    // most of a second on one thread; those of hopeless first guesses stop early.
    let board = ["--pegs", "4", "--colors", "8"];
    let (run, planned) = plan_items(&dir, &board);
    let largest = largest_item(&planned, &first_guess(&planned, 0));
    // The plan's floors worked out first (once, in about a second: kept in
    // floors.txt), so that each run below goes straight to its search.
    status_items(&run);
    let args = saving_every(&run, largest, "0.001");
    let items = run.join("items");
    let saved = items.join(format!("{largest}.checkpoint/checkpoint.mmc"));
    let partial = saved.with_file_name("certificate.partial");
    // Waits of 20 to 400 ms (xorshift, seeded); a run that finishes first is undone.
    // Until one is cut off while it writes its certificate (not in the moment
    // after it was finished and renamed, before the item was written).
    let mut x = 0x2545_f491_u32;
    let mut kills = 0;
    for _ in 0..200 {
        if kills >= 3 && saved.exists() && partial.exists() {
            break;
        }
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        let mut child = Command::new(bin("mmgen"))
            .args(&args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(20 + u64::from(x % 380)));
        if child.try_wait().unwrap().is_none() {
            child.kill().unwrap(); // SIGKILL
            kills += 1;
        }
        assert!(child.wait().unwrap().success() || kills > 0);
        // A run that wrote its item is undone, its folder too (cut off before it
        // went). One cut off after finishing its certificate but before writing
        // its item leaves the certificate: the next run takes it back.
        if items.join(format!("{largest}.item")).exists() {
            for done in [format!("{largest}.item"), format!("{largest}.mmc")] {
                std::fs::remove_file(items.join(done)).unwrap();
            }
            let _ = std::fs::remove_dir_all(items.join(format!("{largest}.checkpoint")));
        }
    }
    assert!(
        kills >= 3 && saved.exists() && partial.exists(),
        "{kills} kills"
    );
    // Its checkpoint says whose it is; the guess played before the item's class,
    // which makes no progress there, can never finish a tree.
    let folder = saved.parent().unwrap().to_str().unwrap();
    let shown = ok("mmgen", &["status", "--checkpoint", folder]);
    assert!(
        shown.contains(&format!("item         {largest} of the plan in "))
            && (shown.contains(" never") || shown.contains("no floor kept (an item's floors")),
        "{shown}"
    );
    let shown = ok("mmgen", &["status", "--checkpoint", folder, "--json"]);
    assert!(
        json(&shown)["proven_sets"].as_u64() > Some(0) && !shown.contains("4294967295"),
        "{shown}"
    );
    // The item's first guesses split its class, not the board (all its secrets
    // but the guess's own, if it is one; none for the guess played before, which
    // splits nothing there); a tree found (a first guess with every class
    // solved) costs at least the floor.
    let secrets = planned[largest]["secrets"].as_u64().unwrap();
    let shown = ok(
        "mmgen",
        &["status", "--checkpoint", folder, "--classes", "--json"],
    );
    let shown = json(&shown);
    let classes = shown["classes_solved"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(
        (classes.iter())
            .all(|c| [0, secrets - 1, secrets].contains(&c["of_secrets"].as_u64().unwrap())),
        "{shown}"
    );
    if let Some(best) = shown["best_total"].as_u64() {
        let floor = shown["lower_bound"].as_u64().unwrap();
        assert!(best >= floor && best < u64::from(u32::MAX), "{shown}");
    }
    // The run's status lists the item in progress, as its last save left it,
    // with how long its runs had searched by then, as the folder says (set here,
    // so that the count is known).
    std::fs::write(saved.with_file_name("seconds"), "1000.25\n").unwrap();
    let run_arg = run.to_str().unwrap();
    let shown = ok("mmgen", &["status", "--dir", run_arg]);
    let line = format!("in progress  item {largest}, its class of {secrets} secrets: ");
    assert!(shown.contains(&line), "{shown}");
    assert!(
        shown.contains(" min ago, after 1000 s of search"),
        "{shown}"
    );
    let listed = |status: &serde_json::Value| {
        let saves = status["in_progress"].as_array().unwrap().clone();
        (saves.into_iter()).find(|s| s["item"].as_u64() == Some(largest as u64))
    };
    let last = listed(&status(&run)).unwrap();
    assert!(last["positions"].as_u64().is_some(), "{last}");
    assert_eq!(last["seconds_searched"].as_f64(), Some(1000.25), "{last}");
    // Its class's floor there is at least the plan's (floors.txt: "INDEX FLOOR").
    let floors = std::fs::read_to_string(run.join("floors.txt")).unwrap();
    let planned_floor: u64 = (floors.lines())
        .find_map(|l| l.strip_prefix(&format!("{largest} ")))
        .and_then(|f| f.trim().parse().ok())
        .unwrap();
    assert!(
        last["least_total"].as_u64() >= Some(planned_floor),
        "{last}"
    );
    let shown = json(&ok("mmgen", &["status", "--checkpoint", folder, "--json"]));
    if let Some(floor) = shown["lower_bound"].as_u64() {
        assert!(floor >= planned_floor, "{shown}");
    }
    // Split a level deeper, the item is its split's to solve: its save is no
    // longer in progress but left over, and said to be (then the split goes).
    let split = run.join(format!("within-{largest}"));
    let (item, split_arg) = (largest.to_string(), split.to_str().unwrap());
    let within = [
        "plan", "--within", run_arg, "--item", &item, "--dir", split_arg,
    ];
    ok("mmgen", &within);
    let shown = ok("mmgen", &["status", "--dir", run_arg]);
    assert!(
        !shown.contains(&line)
            && shown.contains(&format!(
                "left over    item {largest}'s save, its class of {secrets} secrets: "
            ))
            && shown.contains(&format!(
                "no longer gone on with, it may be deleted ({})",
                folder
            )),
        "{shown}"
    );
    assert_eq!(listed(&status(&run)).unwrap()["left_over"], true);
    std::fs::remove_dir_all(&split).unwrap();
    assert_eq!(listed(&status(&run)).unwrap()["left_over"], false);
    // Cut off between finishing its certificate (renamed to the item's, its end
    // written) and writing its item: the next run takes that certificate back,
    // its bytes checked against the checkpoint's (another file is refused).
    let finished = items.join(format!("{largest}.mmc"));
    let mut bytes = std::fs::read(&partial).unwrap();
    std::fs::remove_file(&partial).unwrap();
    let args_str: Vec<&str> = args.iter().map(String::as_str).collect();
    // Another file: a byte of the header changed, which every checkpoint's bytes
    // hold. Taken back and refused: it stays as the partial, to be looked at.
    bytes[9] ^= 1;
    std::fs::write(&finished, &bytes).unwrap();
    let err = fails("mmgen", &args_str);
    assert!(
        err.contains("is not the one the checkpoint was taken with") && partial.exists(),
        "{err}"
    );
    bytes[9] ^= 1;
    std::fs::remove_file(&partial).unwrap();
    // The certificate as the run finished it: what followed the save, then its end.
    bytes.extend([0, 1, 2, 3]);
    std::fs::write(&finished, &bytes).unwrap();
    // The item records the time of the runs cut off (1000.25 s, above) with its
    // last run's.
    let out = common::run("mmgen", &args_str);
    let (said, saves) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(
        out.status.success()
            && said.contains(&format!("item {largest}: built ("))
            && said.contains("going on from its checkpoint: ")
            && said.contains(", after 1000.25 s of search in the runs before)"),
        "{said}"
    );
    assert!(!items.join(format!("{largest}.checkpoint")).exists());
    let done = status(&run);
    assert!(listed(&done).is_none());
    let recorded = done["seconds"].as_f64().unwrap();
    assert!((1000.25..1300.0).contains(&recorded), "{done}");
    // Each save says where the item's search stands: its positions (those of the
    // runs cut off too) and a floor for its class, never above what it costs.
    // Where it found a tree, that tree's total, never below the floor.
    let number = |text: &str, after: &str| -> Option<u64> {
        let rest = text.split_once(after)?.1;
        rest.split(|c: char| !c.is_ascii_digit())
            .next()?
            .parse()
            .ok()
    };
    let standings: Vec<(u64, Option<u64>)> = (saves.lines())
        .filter_map(|l| {
            l.strip_prefix(&format!("item {largest}: saved; "))?
                .split_once(" positions searched (")
        })
        .filter_map(|(_, rest)| {
            let floor = number(rest, "its class costs at least ")?;
            Some((floor, number(rest, "; at most ")))
        })
        .collect();
    let floors: Vec<u64> = standings.iter().map(|&(floor, _)| floor).collect();
    assert!(
        !floors.is_empty() && floors.iter().all(|&f| f >= 2 * secrets - 1),
        "{saves}"
    );
    assert!(floors.windows(2).all(|w| w[0] <= w[1]), "{floors:?}");
    assert!(
        (standings.iter()).all(|&(floor, best)| best.is_none_or(|b| b >= floor)),
        "{saves}"
    );
    solve_as_tasks(&run, 2);
    merges_into_the_single_run(&dir, &run, &board);
}

/// An exact item whose budget falls while it runs sees it at its next save and
/// goes on under the lower budget, with what it proved kept; the plan still merges
/// into the single run's bytes, with a certificate mmcheck proves. On 4x8, the
/// largest item of the second first guess tried starts under a budget drawn from
/// the heuristic's total (20688); the first guess's items, done meanwhile by other
/// processes, cost it in full at the optimum (20471), which lowers it.
#[test]
fn an_exact_item_goes_on_under_a_budget_that_fell_while_it_ran() {
    budget_falls_while_an_item_runs("cluster_budget_falls", "0.01", None);
}

/// Between saves too: an item saved once an hour draws its budget every
/// `--budget-every` seconds, and sees the fall with no save made.
#[test]
fn an_item_s_budget_is_drawn_again_between_its_saves() {
    budget_falls_while_an_item_runs("cluster_budget_polled", "3600", Some("0.01"));
}

/// Solves the largest item of 4x8's second first guess, saved every `every`
/// seconds (its budget drawn every `budget_every` seconds if given), while the
/// first guess's items are put in place; checks that it saw its budget fall, and
/// that the plan then merges into the single run's proof.
fn budget_falls_while_an_item_runs(name: &str, every: &str, budget_every: Option<&str>) {
    let dir = scratch(name);
    let board = ["--pegs", "4", "--colors", "8"];
    let (run, planned) = plan_items(&dir, &board);
    let first = |i: usize| first_guess(&planned, i);
    let second = (0..planned.len()).find(|&i| first(i) != first(0)).unwrap();
    let largest = largest_item(&planned, &first(second));
    let siblings: Vec<usize> = (0..planned.len())
        .filter(|&i| first(i) == first(0))
        .collect();
    // The first guess's items solved aside, in a copy of the plan.
    let aside = dir.join("aside");
    std::fs::create_dir_all(aside.join("items")).unwrap();
    std::fs::copy(run.join("plan.json"), aside.join("plan.json")).unwrap();
    solve_two_at_a_time(&aside, &siblings);
    let items = run.join("items");
    let files = |i: usize| [format!("{i}.mmc"), format!("{i}.item")];
    let mut args = saving_every(&run, largest, every);
    if let Some(seconds) = budget_every {
        args.splice(1..1, ["--budget-every".to_string(), seconds.to_string()]);
    }
    let fell = format!("item {largest}: its budget fell from ");
    // The item started alone; once it has begun under the budget of then (its
    // first save made, or a tenth of a second gone when it saves once an hour),
    // the first guess's files are put in place (each whole: copied under another
    // name, then renamed). Its search takes about a second; one that ends before
    // a draw of its budget sees them is undone.
    let mut said = String::new();
    for _ in 0..10 {
        for i in siblings.iter().chain([&largest]) {
            for f in files(*i) {
                let _ = std::fs::remove_file(items.join(f));
            }
        }
        let _ = std::fs::remove_dir_all(items.join(format!("{largest}.checkpoint")));
        let child = Command::new(bin("mmgen"))
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        match budget_every {
            None => {
                let saved = items.join(format!("{largest}.checkpoint"));
                for _ in 0..500 {
                    if saved.exists() {
                        break;
                    }
                    std::thread::sleep(std::time::Duration::from_millis(2));
                }
            }
            Some(_) => std::thread::sleep(std::time::Duration::from_millis(100)),
        }
        for i in &siblings {
            for f in files(*i) {
                let tmp = items.join(format!("{f}.tmp"));
                std::fs::copy(aside.join("items").join(&f), &tmp).unwrap();
                std::fs::rename(&tmp, items.join(&f)).unwrap();
            }
        }
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        said = String::from_utf8_lossy(&out.stderr).into_owned();
        if said.contains(&fell) {
            break;
        }
    }
    let line = said.lines().find(|l| l.starts_with(&fell));
    let (was, now) = line
        .and_then(|l| l.strip_prefix(&fell)?.split_once(" to "))
        .map(|(was, rest)| {
            (
                was.parse::<u64>(),
                rest.split(' ').next().unwrap().parse::<u64>(),
            )
        })
        .unwrap_or_else(|| panic!("no draw saw the budget fall: {said}"));
    let (was, now) = (was.unwrap(), now.unwrap());
    assert!(now < was, "{said}");
    assert!(
        line.unwrap()
            .ends_with(&format!("its search goes on under {now}")),
        "{said}"
    );
    if budget_every.is_some() {
        assert!(!said.contains(": saved; "), "{said}");
    }
    solve_as_tasks(&run, 2);
    merges_into_the_single_run(&dir, &run, &board);
}

/// An exact item split a level deeper: the plan of its class lists the guesses the
/// search tries there, each with its answer classes as items whose paths go on from
/// the item's; merged back into the item, with a certificate resting on its own
/// parts, the whole plan merges into the single run's bytes and is proven from the
/// ledger of every part, those of the split item's included. The status says what
/// is left to solve on each level.
#[test]
fn an_item_split_a_level_deeper_merges_back_into_the_single_run_s_proof() {
    let dir = scratch("cluster_within");
    let parent = plan_exact(&dir, &["--pegs", "4", "--colors", "7"]);
    let read = |run: &Path| json(&std::fs::read_to_string(run.join("plan.json")).unwrap());
    let item = read(&parent)["items"][2].clone();
    // Made where the parent's status finds it: RUN/within-INDEX.
    let sub = parent.join("within-2");
    status_items(&parent);
    let before = status(&parent);
    let [p, s] = [&parent, &sub].map(|d| d.to_str().unwrap());
    let planned = ok("mmgen", &["plan", "--within", p, "--item", "2", "--dir", s]);
    assert!(planned.starts_with("planned "), "{planned}");
    // Its items merge into the parent's item, which the plan's hint says.
    let merge = format!("then mmgen merge --dir {s} --into {p}\n");
    assert!(planned.ends_with(&merge), "{planned}");
    let plan = read(&sub);
    assert_eq!(plan["within"]["item"], 2);
    assert_eq!(plan["within"]["path"], item["path"]);
    assert_eq!(
        (plan["pegs"].as_u64(), plan["colors"].as_u64()),
        (Some(4), Some(7))
    );
    assert_eq!(plan["certificate"], true);
    let class = item["secrets"].as_u64().unwrap();
    let options = plan["top"]["cheapest"].as_array().unwrap();
    assert!(options.len() > 1, "{plan}");
    let items = plan["items"].as_array().unwrap();
    for option in options {
        // Each option splits the whole class: a win, leaves, and items.
        assert_eq!(option["candidates"].as_u64(), Some(class));
        let mut placed = u64::from(option["wins"] == true);
        for child in option["children"].as_array().unwrap() {
            placed += match child[1]["item"].as_u64() {
                Some(i) => {
                    let path = items[i as usize]["path"].as_array().unwrap();
                    assert_eq!(path[..1], item["path"].as_array().unwrap()[..]);
                    assert_eq!(path[1][0], option["guess"]);
                    items[i as usize]["secrets"].as_u64().unwrap()
                }
                None => 1,
            };
        }
        assert_eq!(placed, class, "{option}");
    }
    // Another board's options are refused, and an item not in the plan is named.
    let err = usage_error(
        "mmgen",
        &[
            "plan", "--within", p, "--item", "2", "--colors", "8", "--dir", s,
        ],
    );
    assert!(err.contains("--colors"), "{err}");
    let err = fails(
        "mmgen",
        &["plan", "--within", p, "--item", "51", "--dir", s],
    );
    assert!(
        err.contains("no item 51: the plan has items 0 to 50"),
        "{err}"
    );
    // With the other items of the first guess that holds item 2 done, the split's
    // tree (none of its items done: its heuristic's) completes a tree of that
    // first guess, not costed in full: the least total known, which the gap and
    // the budgets draw on.
    let option = &read(&parent)["top"]["cheapest"][0];
    for child in option["children"].as_array().unwrap() {
        match child[1]["item"].as_u64() {
            Some(2) | None => {}
            Some(i) => drop(ok("mmgen", &["solve-class", "--dir", p, &i.to_string()])),
        }
    }
    let known = status(&parent);
    let first = &known["first_guesses"][0];
    let [tree, least] = [&first["tree_total"], &first["least_total"]].map(|v| v.as_u64().unwrap());
    let heuristic = plan["heuristic"]["total"].as_u64().unwrap();
    let split_least = known["splits"][0]["least_total"].as_u64().unwrap();
    assert_eq!(tree - least, heuristic - split_least, "{known}");
    assert!(first["exact"] == false && first["open"] == true, "{known}");
    assert_eq!(known["split_best_total"], tree, "{known}");
    assert_eq!(known["best_total"], serde_json::Value::Null, "{known}");
    let said = ok("mmgen", &["status", "--dir", p]);
    let parent_heuristic = read(&parent)["heuristic"]["total"].as_u64().unwrap();
    assert!(
        said.contains(&format!(
            "tree known   {tree} guesses in total, first guess "
        )) && said.contains(&format!(
            "at least {least}, a tree of {tree} with its splits' (open)"
        )),
        "{said}"
    );
    if tree < parent_heuristic {
        assert_eq!(known["best_known_total"], tree, "{known}");
        assert!(
            said.contains(&format!("least total known, {tree} (first guess ")),
            "{said}"
        );
    }
    // Its items cost the class: they solve, and the best of its guesses is found.
    solve_as_tasks(&sub, 2);
    let after = status(&sub);
    assert_eq!(after["open_first_guesses"], 0, "{after}");
    assert!(
        after["best_total"].as_u64().unwrap() >= class * 2 - 1,
        "{after}"
    );
    let said = ok("mmgen", &["status", "--dir", s]);
    assert!(
        said.contains(&format!(
            "within       item 2 of another plan, its class of {class} secrets"
        )) && said.contains("mmgen merge --dir ")
            && said.contains(" --into PARENT"),
        "{said}"
    );
    // The parent sees how far its split is, leaves the item to it, and draws on
    // the least it has proven: the first guess that holds item 2 costs more by it.
    let seen = status(&parent);
    let splits = &seen["splits"][0];
    assert_eq!(splits["item"], 2, "{seen}");
    assert_eq!(splits["done"], after["jobs"], "{seen}");
    assert_eq!(splits["least_total"], after["best_total"], "{seen}");
    // Its time left is its own status's: a projection from its items done, or
    // none while too few of them took a second or more.
    assert_eq!(splits["seconds_left"], after["seconds_left"], "{seen}");
    let least = |s: &serde_json::Value| s["first_guesses"][0]["least_total"].as_u64().unwrap();
    assert!(least(&seen) > least(&before), "{before}\n{seen}");
    assert_eq!(before["first_guesses"][1], seen["first_guesses"][1]);
    // Once the split is done, its first guess is costed in full.
    let first = &seen["first_guesses"][0];
    assert_eq!(first["exact"], true, "{seen}");
    assert_eq!(seen["best_total"], first["least_total"], "{seen}");
    let todo = ok("mmgen", &["status", "--dir", p, "--todo"]);
    assert!(
        !todo.lines().any(|l| l == "2")
            && todo.lines().count() as u64 + 1 == seen["missing"].as_u64().unwrap(),
        "{todo}"
    );
    // What is left to solve is the items --todo lists, by the plan's sizes.
    let items = read(&parent)["items"].clone();
    let sizes: Vec<u64> = (todo.lines())
        .map(|l| {
            items[l.parse::<usize>().unwrap()]["secrets"]
                .as_u64()
                .unwrap()
        })
        .collect();
    assert_eq!(seen["to_solve"], sizes.len(), "{seen}");
    assert_eq!(
        seen["to_solve_secrets"],
        sizes.iter().sum::<u64>(),
        "{seen}"
    );
    assert_eq!(
        seen["to_solve_largest"],
        *sizes.iter().max().unwrap(),
        "{seen}"
    );
    let said = ok("mmgen", &["status", "--dir", p]);
    assert!(
        said.contains(&format!(
            "to solve     {} items (besides the items split a level deeper, whose lines are \
             below), {} secrets in all",
            sizes.len(),
            sizes.iter().sum::<u64>()
        )),
        "{said}"
    );
    assert!(
        said.contains(&format!(
            "split        item 2's class of {class} secrets, in {s}: "
        )) && said.contains(&format!("mmgen merge --dir {s} --into {p}"))
            && said.contains(
                "(proven by the items done, those of the splits below and the others' floors)"
            ),
        "{said}"
    );
    // The parent refuses to merge yet, naming its items to solve (what --todo
    // lists, the first 12 and how many) apart from the split, merged back first.
    let out = dir.join("early.mmt");
    let err = fails(
        "mmgen",
        &["merge", "--dir", p, "--out", out.to_str().unwrap()],
    );
    let mut missing: Vec<usize> = todo.lines().map(|l| l.parse().unwrap()).collect();
    missing.sort_unstable();
    let first: Vec<String> = missing.iter().take(12).map(usize::to_string).collect();
    let mut listed = first.join(" ");
    if sizes.len() > 12 {
        listed += &format!(" … ({} in all)", sizes.len());
    }
    assert!(
        err.contains(&format!(": missing {listed}; split a level deeper, each merged back first (mmgen merge --dir {p}/within-INDEX --into {p}): 2;"))
            && !out.exists(),
        "{err}"
    );
    // Each part checked where it was written, and let go.
    let ledger = dir.join("parts.txt");
    let l = ledger.to_str().unwrap();
    let check_parts = |run: &Path| {
        for entry in std::fs::read_dir(run.join("items")).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "mmc") {
                ok("mmcheck", &["--parts", l, path.to_str().unwrap()]);
                std::fs::remove_file(path).unwrap();
            }
        }
    };
    check_parts(&sub);
    // It is no whole tree, and goes only into the item of the plan it was made in.
    let t = dir.join("t.mmt");
    let err = fails(
        "mmgen",
        &["merge", "--dir", s, "--out", t.to_str().unwrap()],
    );
    assert!(err.contains("merge it into that item"), "{err}");
    let other = plan_exact_in(&dir, "other", &["--pegs", "4", "--colors", "6"]);
    let err = fails(
        "mmgen",
        &["merge", "--dir", s, "--into", other.to_str().unwrap()],
    );
    assert!(err.contains("holds another plan"), "{err}");
    let merged = ok("mmgen", &["merge", "--dir", s, "--into", p]);
    let total = after["best_total"].as_u64().unwrap();
    assert!(
        merged.contains(&format!(
            "item 2 of {p}: merged (total {total} for its class)"
        )),
        "{merged}"
    );
    let err = fails("mmgen", &["merge", "--dir", s, "--into", p]);
    assert!(
        err.contains("item 2 of") && err.contains("done already; not replaced"),
        "{err}"
    );
    // The item's part rests on its own parts' last facts, vouched for by the ledger.
    let part = parent.join("items/2.mmc");
    let said = ok("mmcheck", &["--parts", l, part.to_str().unwrap()]);
    assert!(
        said.contains("premises taken from the checks of its parts recorded in")
            && said.contains(&format!("at least {total} guesses for its {class} secrets")),
        "{said}"
    );
    std::fs::remove_file(&part).unwrap();
    solve_as_tasks(&parent, 2);
    check_parts(&parent);
    let (tree, cert) = (dir.join("merged.mmt"), dir.join("merged.mmc"));
    merge_certified(&parent, &tree, &cert);
    let [t, c] = [&tree, &cert].map(|p| p.to_str().unwrap());
    let checked = ok("mmcheck", &["--parts", l, t, c]);
    assert!(
        checked.starts_with("optimal: total 11228, proven"),
        "{checked}"
    );
    let single = ["--strategy", "optimal", "--pegs", "4", "--colors", "7"];
    let (single, _) = generate(&dir, "single.mmt", &single);
    assert!(std::fs::read(&tree).unwrap() == std::fs::read(&single).unwrap());
}

/// An exact plan's items in the order to solve them, read from its JSON: option
/// by option, each one's classes smallest first, then in plan order.
fn search_order(plan: &serde_json::Value) -> Vec<usize> {
    let secrets = |i: usize| plan["items"][i]["secrets"].as_u64().unwrap();
    let options = plan["top"]["cheapest"].as_array().unwrap();
    let by_size = |option: &serde_json::Value| {
        let children = option["children"].as_array().unwrap();
        let mut items: Vec<usize> = (children.iter())
            .filter_map(|child| Some(child[1]["item"].as_u64()? as usize))
            .collect();
        items.sort_by_key(|&i| (secrets(i), i));
        items
    };
    options.iter().flat_map(by_size).collect()
}

/// An exact plan of `board` in `dir/plan`, kept as the campaign `dir/campaigns/NAME`:
/// the campaign's folder and the plan's.
fn kept_campaign(dir: &Path, name: &str, board: &[&str]) -> (PathBuf, PathBuf) {
    let kept = dir.join("campaigns").join(name);
    let plan = plan_exact_in(dir, "plan", board);
    std::fs::create_dir_all(&kept).unwrap();
    std::fs::copy(plan.join("plan.json"), kept.join("plan.json")).unwrap();
    (kept, plan)
}

/// Runs `make campaign`'s script in `dir` (where `campaigns/NAME` is kept) with the
/// work folder `work` and `jobs` workers; what it prints.
fn campaign(dir: &Path, name: &str, work: &Path, jobs: usize, first: &str) -> String {
    finished(start_campaign(dir, name, work, jobs, first))
}

/// Starts `make campaign`'s script as [`campaign`] runs it, without waiting.
fn start_campaign(
    dir: &Path,
    name: &str,
    work: &Path,
    jobs: usize,
    first: &str,
) -> std::process::Child {
    campaign_command(dir, name, work, jobs, first)
        .spawn()
        .expect("the script starts")
}

/// The command [`start_campaign`] runs.
fn campaign_command(dir: &Path, name: &str, work: &Path, jobs: usize, first: &str) -> Command {
    let mut command = Command::new(root().join("scripts/campaign.sh"));
    command
        .args([name, work.to_str().unwrap(), &jobs.to_string(), "64"])
        .arg(bin("mmgen").parent().unwrap())
        .arg(first)
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

#[test]
fn a_campaign_copies_its_floors_back_as_they_are_worked_out() {
    // Floors take hours on a big plan, the campaign's first step: what is worked
    // out is copied back into campaigns/NAME (every FLOORS_EVERY seconds), so a
    // session cut off there leaves it to commit. 5x6's plan: 109 items, floors
    // for seconds; the campaign is cut off as soon as the copy is there.
    use std::os::unix::process::CommandExt;
    let dir = scratch("cluster_campaign_floors");
    let (kept, _) = kept_campaign(&dir, "c56", &["--pegs", "5", "--colors", "6"]);
    let mut child = campaign_command(&dir, "c56", &dir.join("work"), 2, "")
        .env("FLOORS_EVERY", "1")
        .process_group(0)
        .spawn()
        .expect("the script starts");
    let part = kept.join("floors.txt.part");
    let start = std::time::Instant::now();
    while !part.exists() && start.elapsed().as_secs() < 300 {
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let group = format!("-{}", child.id());
    let killed = Command::new("kill").args(["-9", "--", &group]).status();
    child.wait().unwrap();
    assert!(killed.unwrap().success());
    let text = std::fs::read_to_string(&part).expect("the floors copied back as they grew");
    assert!(
        !kept.join("floors.txt").exists(),
        "the floors were whole before the copy"
    );
    let plan = json(&std::fs::read_to_string(kept.join("plan.json")).unwrap());
    let items = plan["items"].as_array().unwrap().len();
    // Whole lines (a copy may end in the middle of one, which a reader skips).
    let lines: Vec<&str> = text
        .split_inclusive('\n')
        .filter(|l| l.ends_with('\n'))
        .collect();
    assert!(!lines.is_empty() && lines.len() < items, "{text}");
    for line in lines.iter().map(|l| l.trim_end()) {
        let fields: Vec<&str> = line.split(' ').collect();
        assert!(
            fields.len() == 3 && fields[0].parse::<usize>().unwrap() < items,
            "{line}"
        );
    }
}

/// What a campaign started by [`start_campaign`] printed, once it ended well.
fn finished(child: std::process::Child) -> String {
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{text}{err}");
    text
}

/// A campaign given AGAIN: an item of 3x8 kept shown dearer by its share alone,
/// its guess's other classes not done (so not in the search's order yet), is
/// solved again first, for all of its guess's gap, and kept with its new part
/// checked; the campaign then proves the single run's optimum, byte for byte.
#[test]
fn a_campaign_solves_the_items_in_again_again_first() {
    let dir = scratch("cluster_campaign_again");
    let board = ["--pegs", "3", "--colors", "8"];
    let (kept, plan) = kept_campaign(&dir, "c38", &board);
    let items = json(&std::fs::read_to_string(plan.join("plan.json")).unwrap());
    let items = items["items"].as_array().unwrap().clone();
    let index = solve_until_one_is_shown_dearer_by_its_share(&plan, &items);
    // Kept as a campaign keeps it: its part checked into the ledger, its item copied.
    let ledger = kept.join("parts.txt");
    let part = plan.join(format!("items/{index}.mmc"));
    ok(
        "mmcheck",
        &["--parts", ledger.to_str().unwrap(), part.to_str().unwrap()],
    );
    std::fs::create_dir_all(kept.join("items")).unwrap();
    let item = |d: &Path| d.join(format!("items/{index}.item"));
    std::fs::copy(item(&plan), item(&kept)).unwrap();
    let was = std::fs::read(item(&kept)).unwrap();
    let todo = ok(
        "mmgen",
        &["status", "--dir", kept.to_str().unwrap(), "--todo"],
    );
    assert!(!todo.lines().any(|l| l == index.to_string()), "{todo}");
    let said = finished(
        campaign_command(&dir, "c38", &dir.join("work"), 1, "")
            .env("AGAIN", index.to_string())
            .spawn()
            .expect("the script starts"),
    );
    let again = said
        .find(&format!("item {index}: solving again"))
        .unwrap_or_else(|| panic!("{said}"));
    let first = said
        .find(": solving from")
        .unwrap_or_else(|| panic!("{said}"));
    assert!(again < first, "{said}");
    assert!(
        said.contains(&format!("item {index}: done again and checked")),
        "{said}"
    );
    assert!(
        std::fs::read(item(&kept)).unwrap() != was,
        "item {index} kept as it was"
    );
    assert!(said.contains(", proven"), "{said}");
    let single = ["--strategy", "optimal", "--pegs", "3", "--colors", "8"];
    let (single, _) = generate(&dir, "single.mmt", &single);
    let tree = dir.join("work/c38/optimal-c38.mmt");
    assert!(std::fs::read(&tree).unwrap() == std::fs::read(&single).unwrap());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_campaign_goes_on_from_the_items_it_kept_on_a_machine_that_kept_nothing() {
    let dir = scratch("cluster_campaign");
    let (kept, plan) = kept_campaign(&dir, "c46", &["--pegs", "4", "--colors", "6"]);
    let first = campaign(&dir, "c46", &dir.join("work"), 2, "");
    assert!(first.contains("optimal: total 5625, proven"), "{first}");
    let items = |d: &Path| std::fs::read_dir(d.join("items")).unwrap().count();
    let jobs = items(&kept);
    assert!(jobs > 40, "{jobs}");
    let ledger = std::fs::read_to_string(kept.join("parts.txt")).unwrap();
    // This machine again, a session cut off before item 2 was kept (its part checked
    // and let go) and item 3 (its part not checked): both are kept, and not solved.
    std::fs::remove_file(kept.join("items/2.item")).unwrap();
    std::fs::remove_file(kept.join("items/3.item")).unwrap();
    std::fs::write(kept.join("parts.txt"), "").unwrap();
    // Solved as the campaign solves it: asked for its share of its guess's gap.
    ok(
        "mmgen",
        &[
            "solve-class",
            "--dir",
            plan.to_str().unwrap(),
            "--share",
            "3",
        ],
    );
    let part = dir.join("work/c46/items/3.mmc");
    std::fs::copy(plan.join("items/3.mmc"), &part).unwrap();
    std::fs::copy(plan.join("items/3.item"), dir.join("work/c46/items/3.item")).unwrap();
    // The first campaign recorded item 3's part in the work folder's ledger, so a
    // check there says it held without checking it again, naming it.
    let work_ledger = dir.join("work/c46/parts.txt");
    let (ledger_arg, part_arg) = (work_ledger.to_str().unwrap(), part.to_str().unwrap());
    let said = ok("mmcheck", &["--parts", ledger_arg, part_arg]);
    let named = said
        .split("(the same ")
        .nth(1)
        .and_then(|s| s.split_once(')'));
    let (bytes, crc) = (named.and_then(|(n, _)| n.split_once(" bytes, CRC-32 ")))
        .unwrap_or_else(|| panic!("{said}"));
    assert!(said.ends_with("not checked again\n"), "{said}");
    // Item 3's part was being checked when the session ended (so its line is not
    // in the ledger): the check goes on from the record it left (here, one that
    // got to the end).
    let line = format!("part {bytes} {crc} ");
    let recorded = std::fs::read_to_string(&work_ledger).unwrap();
    let without: String = (recorded.lines())
        .filter(|l| !l.starts_with(&line))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(without.lines().count() + 1, recorded.lines().count());
    std::fs::write(&work_ledger, without).unwrap();
    let record = dir.join("work/c46/items/3.checked");
    ok(
        "mmcheck",
        &["--resume", record.to_str().unwrap(), part.to_str().unwrap()],
    );
    // Item 2 is being kept by another campaign (it holds the item's lock): this
    // one leaves it to that one, and so does not merge.
    let lock = dir.join("work/c46/items/2.lock");
    let mut other = Command::new("bash")
        .arg("-c")
        .arg(r#"exec 9> "$0"; flock 9; echo held; exec sleep 600"#)
        .arg(&lock)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    // "held\n": the lock is held.
    std::io::Read::read_exact(other.stdout.as_mut().unwrap(), &mut [0u8; 5]).unwrap();
    let left = campaign(&dir, "c46", &dir.join("work"), 2, "");
    other.kill().unwrap();
    other.wait().unwrap();
    assert!(
        left.contains("item 3: done on this machine before, kept now"),
        "{left}"
    );
    assert!(left.contains("by an earlier check recorded in"), "{left}");
    assert!(
        left.contains("item 2: still being checked by another campaign, which merges"),
        "{left}"
    );
    assert!(!left.contains("optimal: total"), "{left}");
    assert!(!part.exists() && !record.exists() && !kept.join("items/2.item").exists());
    let again = campaign(&dir, "c46", &dir.join("work"), 2, "");
    assert!(
        again.contains("item 2: done on this machine before, kept now"),
        "{again}"
    );
    assert!(again.contains("optimal: total 5625, proven"), "{again}");
    assert!(!again.contains(": solving from"), "{again}");
    assert!(items(&kept) == jobs);
    // A part that does not check stops its worker, and the campaign with it: the
    // item is not kept, and nothing is merged; mended, it is kept.
    std::fs::remove_file(kept.join("items/4.item")).unwrap();
    ok(
        "mmgen",
        &["solve-class", "--dir", plan.to_str().unwrap(), "4"],
    );
    let part = dir.join("work/c46/items/4.mmc");
    let mut bytes = std::fs::read(plan.join("items/4.mmc")).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x10;
    std::fs::write(&part, &bytes).unwrap();
    std::fs::copy(plan.join("items/4.item"), dir.join("work/c46/items/4.item")).unwrap();
    let out = start_campaign(&dir, "c46", &dir.join("work"), 2, "")
        .wait_with_output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success()
            && err.contains("mmcheck: ")
            && err.contains("make campaign: a worker stopped on the error above"),
        "{said}{err}"
    );
    assert!(!said.contains("optimal: total") && !kept.join("items/4.item").exists());
    std::fs::copy(plan.join("items/4.mmc"), &part).unwrap();
    let mended = campaign(&dir, "c46", &dir.join("work"), 2, "");
    assert!(
        mended.contains("item 4: done on this machine before, kept now"),
        "{mended}"
    );
    assert!(mended.contains("optimal: total 5625, proven"), "{mended}");
    assert!(!part.exists() && items(&kept) == jobs);
    // The ledger kept lost no line (item 3's came back at its end).
    let now = std::fs::read_to_string(kept.join("parts.txt")).unwrap();
    assert!(ledger.lines().all(|l| now.lines().any(|m| m == l)), "{now}");
    // Another machine: the work folder gone, and some items not kept (a session
    // cut off before they were copied back). Only those are solved again, and the
    // tree is the single run's, proven from the kept ledger and the new lines.
    std::fs::remove_dir_all(dir.join("work")).unwrap();
    for index in [1, 5, 9] {
        std::fs::remove_file(kept.join("items").join(format!("{index}.item"))).unwrap();
    }
    // Nor were the items' floors whole: the part worked out, committed, is gone on
    // from. It holds 1122's items (its total, 5625, under the cap: their floors are
    // their whole looks), one at its size bound to tell it from a look.
    let (lowered, bound) = floors_cut_off(&kept, "1122");
    let plan = json(&std::fs::read_to_string(kept.join("plan.json")).unwrap());
    // An item begun first, then those asked for first, then in the search's order
    // (the guess it tries first, its classes smallest first, then the next
    // guess's). This machine kept the checkpoint folder of the last of the three
    // in that order, cut off there, and the first is asked for first.
    let order = search_order(&plan);
    let mut expected = vec![1, 5, 9];
    expected.sort_by_key(|i| order.iter().position(|o| o == i));
    expected.rotate_right(1);
    let begun = dir.join(format!("work/c46/items/{}.checkpoint", expected[0]));
    std::fs::create_dir_all(&begun).unwrap();
    let asked = expected[1].to_string();
    let again = campaign(&dir, "c46", &dir.join("work"), 1, &asked);
    assert!(!begun.exists());
    assert_eq!(solving(&again), expected, "{again}");
    assert!(again.contains("optimal: total 5625, proven"), "{again}");
    assert_eq!(items(&kept), jobs);
    let floors = std::fs::read_to_string(kept.join("floors.txt")).unwrap();
    assert!(
        floors.contains(&format!("\n{lowered} {bound}\n")),
        "{floors}"
    );
    assert!(!kept.join("floors.txt.part").exists());
    let tree = dir.join("work").join("c46").join("optimal-c46.mmt");
    assert!(
        std::fs::read(tree).unwrap()
            == std::fs::read(root().join("trees/optimal-4x6.mmt")).unwrap()
    );
    let now = std::fs::read_to_string(kept.join("parts.txt")).unwrap();
    assert!(ledger.lines().all(|l| now.lines().any(|m| m == l)), "{now}");
}

/// Replaces `kept`'s floors (4x6's) by the part a run cut off would leave: the
/// lines of `first`'s items, one of them at its size bound (below its look);
/// which item that is, and its bound.
fn floors_cut_off(kept: &Path, first: &str) -> (usize, u64) {
    let board = lookup::Board::new(4, 6, true).unwrap();
    let guess = board.index(board.parse(first).unwrap()).unwrap();
    let text = std::fs::read_to_string(kept.join("floors.txt")).unwrap();
    let head = text.lines().next().unwrap();
    let id = head.strip_prefix("mmtree-floors-two-ahead plan ").unwrap();
    let plan = json(&std::fs::read_to_string(kept.join("plan.json")).unwrap());
    let scores = Scores::of(&board);
    let mut part = String::new();
    let mut lowered = None;
    for (index, item) in plan["items"].as_array().unwrap().iter().enumerate() {
        if item["path"][0][0].as_u64() != Some(u64::from(guess)) {
            continue;
        }
        let line = text.lines().nth(index + 1).unwrap();
        let mut floor: u64 = line.split_once(' ').unwrap().1.parse().unwrap();
        let bound = scores.bound(item["secrets"].as_u64().unwrap() as usize);
        if lowered.is_none() && floor > bound {
            (lowered, floor) = (Some((index, bound)), bound);
        }
        let crc = lookup::checksum::crc32(format!("{id} {index} {floor}").as_bytes());
        part += &format!("{index} {floor} {crc:08x}\n");
    }
    std::fs::write(kept.join("floors.txt.part"), part).unwrap();
    std::fs::remove_file(kept.join("floors.txt")).unwrap();
    lowered.expect("an item of the guess above its size bound")
}

/// Items solved in what campaigns printed, in their order.
fn solving(said: &str) -> Vec<usize> {
    let items = |line: &str| -> Option<String> {
        let (named, _) = line.split_once(": solving from")?;
        match named.strip_prefix("item ") {
            Some(index) => Some(index.into()),
            None => Some(
                named
                    .split_once(" solved at once (")?
                    .1
                    .strip_suffix(')')?
                    .into(),
            ),
        }
    };
    (said.lines().filter_map(items))
        .flat_map(|indexes| {
            let indexes: Vec<usize> = indexes.split(' ').map(|i| i.parse().unwrap()).collect();
            indexes
        })
        .collect()
}

/// A campaign started beside one running (workers added) shares its items: each
/// is solved once, a mark left by a worker gone is cleared, and `--todo` lists
/// the items guess by guess, each guess's smallest first.
#[test]
fn two_campaigns_of_one_name_solve_each_item_once() {
    let dir = scratch("cluster_campaign_twice");
    let (_, plan) = kept_campaign(&dir, "c46", &["--pegs", "4", "--colors", "6"]);
    let p = plan.to_str().unwrap();
    let todo: Vec<usize> = (ok("mmgen", &["status", "--dir", p, "--todo"]).lines())
        .map(|l| l.parse().unwrap())
        .collect();
    let order = search_order(&json(
        &std::fs::read_to_string(plan.join("plan.json")).unwrap(),
    ));
    assert_eq!(todo, order);
    // Item 0 marked as taken by process 1, which is no campaign's worker.
    let work = dir.join("work");
    std::fs::create_dir_all(work.join("c46/taken")).unwrap();
    std::os::unix::fs::symlink("1", work.join("c46/taken/0")).unwrap();
    let two = [0, 1].map(|_| start_campaign(&dir, "c46", &work, 1, ""));
    let outs = two.map(finished);
    assert!(outs.iter().all(|o| !solving(o).is_empty()), "{outs:?}");
    let said = outs.join("\n");
    let mut solved = solving(&said);
    solved.sort();
    assert_eq!(solved, (0..order.len()).collect::<Vec<_>>(), "{said}");
    assert!(said.contains("optimal: total 5625, proven"), "{said}");
    // Items of first guesses settled on the way went to one solve-class together.
    assert!(said.contains(" items solved at once ("), "{said}");
    // The run's own folder given as WORK is refused, not worked in as WORK/NAME.
    let wrong = start_campaign(&dir, "c46", &work.join("c46"), 1, "");
    let out = wrong.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("holds a plan itself"),
        "{err}"
    );
    assert!(!work.join("c46/c46").exists());
    let tree = work.join("c46").join("optimal-c46.mmt");
    assert!(
        std::fs::read(tree).unwrap()
            == std::fs::read(root().join("trees/optimal-4x6.mmt")).unwrap()
    );
}

/// A mark names its worker by process number and start time: a mark whose
/// process lives on keeps its item from a campaign started beside it, whatever
/// that process's command (a campaign's script may be a copy under another
/// name), and a mark whose number a later process took is cleared.
#[test]
fn a_mark_keeps_its_item_while_its_process_lives() {
    let dir = scratch("cluster_campaign_marks");
    kept_campaign(&dir, "c46", &["--pegs", "4", "--colors", "6"]);
    let taken = dir.join("work/c46/taken");
    std::fs::create_dir_all(&taken).unwrap();
    // A process that is no campaign's, stopped by its pid when the test ends,
    // however it ends.
    struct Stopped(std::process::Child);
    impl Drop for Stopped {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
    let alive = Stopped(Command::new("sleep").arg("600").spawn().unwrap());
    let pid = alive.0.id();
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    // Field 22, counted after the command's name (which ends at the last ")").
    let start = stat
        .rsplit_once(") ")
        .unwrap()
        .1
        .split(' ')
        .nth(19)
        .unwrap();
    let start: u64 = start.parse().unwrap();
    let mark = |item: &str, started: u64| {
        let owner = format!("{pid}-{started}");
        std::os::unix::fs::symlink(owner, taken.join(item)).unwrap();
    };
    mark("0", start);
    mark("1", start + 1);
    let said = campaign(&dir, "c46", &dir.join("work"), 2, "");
    drop(alive);
    let solved = solving(&said);
    assert!(!solved.contains(&0) && solved.contains(&1), "{said}");
    assert!(!said.contains("optimal: total"), "{said}");
    assert!(taken.join("0").symlink_metadata().is_ok());
}

/// A campaign whose items are split a level deeper (`NAME/within-INDEX`): NAME's
/// campaign takes the splits' items and its own but those items, the splits in
/// the order the search takes their items, merges each split back into NAME's
/// item with its part checked from NAME's ledger, and proves the single run's
/// tree.
#[test]
fn a_campaign_s_split_item_is_merged_back_and_proven() {
    let dir = scratch("cluster_campaign_within");
    let (kept, _) = kept_campaign(&dir, "c47", &["--pegs", "4", "--colors", "7"]);
    // Items 0 and 10 of the first guess, of 81 and 60 secrets: the search takes
    // item 10 first, the folders' names sort the other way.
    let plan = json(&std::fs::read_to_string(kept.join("plan.json")).unwrap());
    let items = &plan["items"];
    assert_eq!([&items[0]["secrets"], &items[10]["secrets"]], [81, 60]);
    for index in ["0", "10"] {
        let split = kept.join(format!("within-{index}"));
        let [k, s] = [&kept, &split].map(|p| p.to_str().unwrap());
        ok(
            "mmgen",
            &["plan", "--within", k, "--item", index, "--dir", s],
        );
    }
    // A tree beside split 10 that plays its class (the least after the first
    // guess 1234, code 66): copied to the work folder, where the split's budgets
    // are drawn from its subtree there.
    assert_eq!(items[10]["path"][0][0], 66);
    let after = [
        "--strategy",
        "optimal",
        "--first",
        "1234",
        "--pegs",
        "4",
        "--colors",
        "7",
    ];
    let (after, _) = generate(&dir, "after-1234.mmt", &after);
    std::fs::copy(&after, kept.join("within-10/known.mmt")).unwrap();
    let work = dir.join("work");
    let all = campaign(&dir, "c47", &work, 2, "");
    let split = status(&work.join("c47/within-10"));
    let heuristic = split_heuristic(&kept.join("within-10"));
    assert!(
        split["known_tree_total"]
            .as_u64()
            .is_some_and(|t| t < heuristic),
        "{split}"
    );
    assert!(
        !all.contains("item 0: solving")
            && !all.contains("item 10: solving")
            && all.contains("item 1: solving from")
            && all.contains("item 0 of c47/within-0: solving from")
            && all.contains("item 0 of c47: merged from c47/within-0, checked and kept")
            && all.contains("item 10 of c47: merged from c47/within-10, checked and kept")
            && all.contains("optimal: total 11228, proven"),
        "{all}"
    );
    // The splits' items came first, in the search's order.
    let at = |said: &str| all.find(said).unwrap();
    assert!(
        at(" of c47/within-10: solving from") < at(" of c47/within-0: solving from")
            && at(" of c47/within-0: solving from") < at("item 1: solving from"),
        "{all}"
    );
    assert!(kept.join("items/0.item").is_file());
    // Each split's campaign again, within-10 with its known tree (a tree of the
    // whole board, read as it is, not filled with the split's items).
    for index in ["0", "10"] {
        let again = campaign(&dir, &format!("c47/within-{index}"), &work, 2, "");
        let said =
            format!("c47/within-{index}: merged into item {index} of c47 already; nothing to do");
        assert!(again.contains(&said), "{again}");
    }
    let single = ["--strategy", "optimal", "--pegs", "4", "--colors", "7"];
    let (single, _) = generate(&dir, "single.mmt", &single);
    let tree = work.join("c47").join("optimal-c47.mmt");
    assert!(std::fs::read(tree).unwrap() == std::fs::read(&single).unwrap());
}

/// The total of the heuristic tree of the plan in `dir`.
fn split_heuristic(dir: &Path) -> u64 {
    let plan = json(&std::fs::read_to_string(dir.join("plan.json")).unwrap());
    plan["heuristic"]["total"].as_u64().unwrap()
}

/// A split's campaign run alone on a machine that kept nothing: its cap, its
/// item's budget in the plan above, is read from that plan's work folder, where
/// the plan counts its other splits by their own standing; so the campaign fills
/// them all first (not only the plan above, to merge at the end), or the split
/// would prove more than the plan above needs. Here every search fails (LAUNCH),
/// so the campaign stops at its first item, its split read under the cap the
/// kept campaign gives it.
#[test]
fn a_split_s_campaign_alone_works_under_the_cap_of_the_plans_above() {
    let dir = scratch("cluster_campaign_split_alone");
    let (kept, _) = kept_campaign(&dir, "c47", &["--pegs", "4", "--colors", "7"]);
    // Items 47 to 49 of 1111, a first guess far from the best, split, 47 and 48
    // with their floors worked out (as a campaign keeps them): 49's class of 216
    // secrets matters below less than its split's heuristic tree costs.
    let plan = json(&std::fs::read_to_string(kept.join("plan.json")).unwrap());
    assert_eq!(plan["items"][49]["secrets"], 216);
    for index in ["47", "48", "49"] {
        let split = kept.join(format!("within-{index}"));
        let [k, s] = [&kept, &split].map(|p| p.to_str().unwrap());
        ok(
            "mmgen",
            &["plan", "--within", k, "--item", index, "--dir", s],
        );
        if index != "49" {
            ok("mmgen", &["status", "--dir", s, "--todo"]);
        }
    }
    let work = dir.join("work");
    let out = campaign_command(&dir, "c47/within-49", &work, 1, "")
        .env("LAUNCH", "false")
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && said.contains("its search failed"),
        "{said}"
    );
    let alone = status(&work.join("c47/within-49"));
    let [cap, best] = [&alone["cap"], &alone["best_known_total"]].map(|v| v.as_u64());
    assert!(
        cap.is_some_and(|cap| cap < best.unwrap()),
        "{cap:?} {best:?}"
    );
    assert_eq!(alone["cap"], status(&kept.join("within-49"))["cap"]);
    assert_eq!(alone["open_first_guesses"], 0, "{alone}");
    // The split's folder on its own: its status says the cap is not known there.
    let apart = dir.join("apart");
    std::fs::create_dir_all(&apart).unwrap();
    std::fs::copy(kept.join("within-49/plan.json"), apart.join("plan.json")).unwrap();
    let said = ok("mmgen", &["status", "--dir", apart.to_str().unwrap()]);
    assert!(
        said.contains("matters      not known here: the plan above is not in the folder")
            && said.contains("item 49's budget there"),
        "{said}"
    );
    assert!(status(&apart)["cap"].is_null());
}

#[test]
fn bulls_and_cows_as_an_exact_plan_is_the_single_run_s_optimum() {
    let dir = scratch("cluster_exact_bc");
    let board = ["--pegs", "4", "--colors", "10", "--no-repeat"];
    let after = exact_plan_matches_the_single_run(&dir, &board);
    assert_eq!(after["best_total"], 26274);
}

/// The tag of an item file's outcome (generator/src/plan/item.rs): 0 a leaf, 1 a
/// node, 2 an exact item shown too dear. It follows the magic, the plan and item
/// numbers, the seconds (24 bytes) and what names the certificate (0, or 1, its
/// size, its checksum and its last fact's head, length first).
fn outcome_tag(item: &[u8]) -> u8 {
    item[outcome_at(item)]
}

/// Where that tag is.
fn outcome_at(item: &[u8]) -> usize {
    match item[24] {
        0 => 25,
        _ => {
            let len = u32::from_le_bytes(item[37..41].try_into().unwrap()) as usize;
            41 + len
        }
    }
}

/// The least `n` secrets can cost with `branching` non-winning answers a guess, by
/// their number alone: 1 solved by the first guess, `branching` by the second...
fn size_bound(n: u64, branching: u64) -> u64 {
    let (mut total, mut left, mut here, mut level) = (0, n, 1, 1);
    while left > 0 {
        let placed = here.min(left);
        total += level * placed;
        left -= placed;
        here *= branching;
        level += 1;
    }
    total
}

/// Every pair of a board's codes scored the plain way, once: `answer[g][s]`.
struct Scores {
    answer: Vec<Vec<usize>>,
    win: usize,
    answers: usize,
}

impl Scores {
    fn of(board: &lookup::Board) -> Scores {
        let pegs = board.pegs();
        let codes: Vec<Code> = board.codes().collect();
        let answer = (codes.iter())
            .map(|&g| {
                (codes.iter())
                    .map(|&s| lookup::score::score(g, s, pegs).index(pegs))
                    .collect()
            })
            .collect();
        Scores {
            answer,
            win: lookup::score::Feedback::win(pegs).index(pegs),
            answers: lookup::score::answer_count(pegs),
        }
    }

    /// The secrets (code numbers) that item `path` leads to.
    fn class_of(&self, path: &[(u32, usize)]) -> Vec<usize> {
        (0..self.answer.len())
            .filter(|&s| path.iter().all(|&(g, a)| self.answer[g as usize][s] == a))
            .collect()
    }

    /// The least over the codes that tell `class` something (the win, or two
    /// classes or more) of its secrets plus `floor` of each class the code leaves
    /// but the win, given the code's row of answers.
    fn least(&self, class: &[usize], floor: impl Fn(&[usize], &[usize]) -> u64) -> u64 {
        (self.answer.iter())
            .filter_map(|row| {
                let mut sizes = vec![0; self.answers];
                class.iter().for_each(|&s| sizes[row[s]] += 1);
                let told = sizes[self.win] > 0 || sizes.iter().filter(|&&c| c > 0).count() > 1;
                told.then(|| class.len() as u64 + floor(row, &sizes))
            })
            .min()
            .unwrap()
    }

    /// The size bound of `n` secrets.
    fn bound(&self, n: usize) -> u64 {
        size_bound(n as u64, self.answers as u64 - 1)
    }

    /// The look one guess ahead at `class`: every code's classes at their size
    /// bounds (a class of at most two secrets is at its own).
    fn look_one(&self, class: &[usize]) -> u64 {
        match class.len() {
            0..=2 => self.bound(class.len()),
            _ => self.least(class, |_, sizes| {
                let others = sizes.iter().enumerate().filter(|&(a, _)| a != self.win);
                others.map(|(_, &n)| self.bound(n)).sum()
            }),
        }
    }

    /// The look two guesses ahead at `class`: every code's classes at their looks
    /// one guess ahead.
    fn look_two(&self, class: &[usize]) -> u64 {
        match class.len() {
            0..=2 => self.bound(class.len()),
            _ => self.least(class, |row, _| {
                let others = (0..self.answers).filter(|&a| a != self.win);
                let of =
                    |a| -> Vec<usize> { class.iter().copied().filter(|&s| row[s] == a).collect() };
                others.map(|a| self.look_one(&of(a))).sum()
            }),
        }
    }
}

#[test]
fn an_exact_plan_s_items_count_at_their_floors_two_guesses_ahead() {
    // Each item's floor, worked out once and kept beside the plan, is the look two
    // guesses ahead at its class (every code's classes at their looks one guess
    // ahead, those at the size bounds of every code's), which the plain scoring of
    // every code finds too, as far as its first guess can stay under the plan's
    // heuristic total plus one: a first guess whose items' looks put it past
    // that is put past it by their floors (each between its bound and its look).
    let dir = scratch("cluster_floors_45");
    let board = ["--pegs", "4", "--colors", "5"];
    let run = plan_exact(&dir, &board);
    // `mmgen status` only reads: the floors are worked out where items are taken
    // (`--todo`, as a campaign asks) or solved, and until then count at the size
    // bounds, which it says.
    let before = status(&run);
    let jobs = before["jobs"].as_u64().unwrap() as usize;
    let kept = run.join("floors.txt");
    assert!(!kept.exists() && before["floors_left"] == jobs, "{before}");
    let said = ok("mmgen", &["status", "--dir", run.to_str().unwrap()]);
    assert!(
        said.contains(&format!(
            "floors       {jobs} of the {jobs} items have no floor worked out yet"
        )),
        "{said}"
    );
    status_items(&run);
    let after = status(&run);
    assert_eq!(after["floors_left"], 0, "{after}");
    assert!(
        after["lower_bound"].as_u64() > before["lower_bound"].as_u64(),
        "the floors raise the plan's lower bound: {before} {after}"
    );
    let text = std::fs::read_to_string(&kept).unwrap();
    let floors: Vec<u64> = (text.lines().skip(1).take(jobs))
        .map(|line| line.split_once(' ').unwrap().1.parse().unwrap())
        .collect();
    assert_eq!(text.lines().count(), jobs + 2, "{text}");
    let plan = json(&std::fs::read_to_string(run.join("plan.json")).unwrap());
    let cap = plan["heuristic"]["total"].as_u64().unwrap() + 1;
    let scores = Scores::of(&lookup::Board::new(4, 5, true).unwrap());
    let (mut above_bound, mut above_one) = (0, 0);
    // Each first guess: its total by its items' looks, and by their floors.
    let mut firsts: BTreeMap<u32, (u64, u64)> = BTreeMap::new();
    for (index, item) in plan["items"].as_array().unwrap().iter().enumerate() {
        let path: Vec<(u32, usize)> = (item["path"].as_array().unwrap().iter())
            .map(|step| {
                (
                    step[0].as_u64().unwrap() as u32,
                    step[1].as_u64().unwrap() as usize,
                )
            })
            .collect();
        let class = scores.class_of(&path);
        let two = scores.look_two(&class);
        let bound = scores.bound(class.len());
        assert!(
            (bound..=two).contains(&floors[index]),
            "item {index}: {} outside {bound} to {two}",
            floors[index]
        );
        let first = firsts.entry(path[0].0).or_insert_with(|| {
            let whole = scores.class_of(&[]);
            let leaves = (0..scores.answers)
                .filter(|&a| a != scores.win)
                .map(|a| scores.class_of(&[(path[0].0, a)]).len())
                .filter(|&n| n == 1)
                .count() as u64;
            let at = whole.len() as u64 + leaves;
            (at, at)
        });
        *first = (first.0 + two, first.1 + floors[index]);
        above_bound += usize::from(two > bound);
        above_one += usize::from(two > scores.look_one(&class));
    }
    for (guess, &(looks, floors_total)) in &firsts {
        match looks < cap {
            true => assert_eq!(floors_total, looks, "first guess {guess}"),
            false => assert!(floors_total >= cap, "first guess {guess}: {floors_total}"),
        }
    }
    let under = firsts.values().filter(|&&(looks, _)| looks < cap).count();
    for (index, item) in plan["items"].as_array().unwrap().iter().enumerate() {
        let guess = item["path"][0][0].as_u64().unwrap() as u32;
        if firsts[&guess].0 < cap {
            let path = [(guess, item["path"][0][1].as_u64().unwrap() as usize)];
            assert_eq!(
                floors[index],
                scores.look_two(&scores.class_of(&path)),
                "item {index}"
            );
        }
    }
    assert!(
        above_bound > jobs / 2 && above_one > 0 && under > 0,
        "of {jobs} items, {above_bound} above their size bounds, {above_one} above their looks one guess ahead; {under} first guesses under {cap}"
    );
    // A damaged file, or one of looks one guess ahead, is worked out again.
    let damaged = text.replacen(&format!("\n0 {}\n", floors[0]), "\n0 1\n", 1);
    let one_ahead = text.replacen("mmtree-floors-two-ahead plan", "mmtree-floors plan", 1);
    for other in [damaged, one_ahead] {
        assert_ne!(other, text);
        std::fs::write(&kept, other).unwrap();
        status_items(&run);
        assert_eq!(std::fs::read_to_string(&kept).unwrap(), text);
    }

    // An item whose budget is below its floor is shown to cost its floor, by a
    // fact of its own that the merged certificate's check takes.
    solve_two_at_a_time(&run, &(0..jobs).collect::<Vec<_>>());
    let mut at_floor = 0;
    for (index, &floor) in floors.iter().enumerate() {
        let item = std::fs::read(run.join(format!("items/{index}.item"))).unwrap();
        if outcome_tag(&item) == 2 {
            let at = item.len() - 4 - 8;
            let least = u64::from_le_bytes(item[at..at + 8].try_into().unwrap());
            assert!(least >= floor, "item {index}: {least} below {floor}");
            at_floor += usize::from(least == floor);
        }
    }
    assert!(at_floor > 0, "no item was recorded at its floor");
    let report = merges_into_the_single_run(&dir, &run, &board);
    assert_eq!(report["total_guesses"], 2463);
}

#[test]
fn a_split_of_a_class_too_dear_to_matter_merges_back_as_its_floor() {
    // Every item of 4x7 but the largest classes of its third and fourth first
    // guesses done: those two classes, split a level deeper, need only be shown
    // to cost what their guesses' totals cannot spare. Their splits' items are
    // budgeted by that (the parent's budget for the class), not by the split's
    // own best, so none is costed in full; each merges back as the least its class
    // costs, and the whole merges into the single run's bytes and proof.
    let dir = scratch("cluster_too_dear");
    let board = ["--pegs", "4", "--colors", "7"];
    let (run, items) = plan_items(&dir, &board);
    let firsts: Vec<serde_json::Value> = (0..items.len()).map(|i| first_guess(&items, i)).collect();
    let mut guesses = firsts.clone();
    guesses.dedup();
    let split = [2, 3].map(|g| largest_item(&items, &guesses[g]));
    let rest: Vec<usize> = (0..items.len()).filter(|i| !split.contains(i)).collect();
    solve_two_at_a_time(&run, &rest);
    let parent = run.to_str().unwrap();
    for index in split {
        let sub = run.join(format!("within-{index}"));
        let sub = sub.to_str().unwrap();
        let at = index.to_string();
        ok(
            "mmgen",
            &["plan", "--within", parent, "--item", &at, "--dir", sub],
        );
        let own = status(Path::new(sub));
        let solved = ok(
            "mmgen",
            &["solve-class", "--dir", sub, "--task", "0", "--tasks", "1"],
        );
        // No second guess of the class was searched to its cost: every item was
        // shown dearer within a few positions.
        let positions: u64 = (solved.lines())
            .filter_map(|line| {
                line.split(", ")
                    .nth(1)?
                    .split(' ')
                    .next()?
                    .parse::<u64>()
                    .ok()
            })
            .sum();
        assert!(positions < 2000, "{positions} positions: {solved}");
        let after = status(Path::new(sub));
        assert_eq!(after["missing"], 0);
        assert_eq!(after["best_total"], serde_json::Value::Null, "{after}");
        let floor = after["lower_bound"].as_u64().unwrap();
        assert!(floor >= own["lower_bound"].as_u64().unwrap(), "{after}");
        // What the class must cost less than to matter, said by its status, and
        // reached by every guess: none open.
        let cap = own["cap"].as_u64().unwrap();
        assert!(floor >= cap && after["open_first_guesses"] == 0, "{after}");
        let said = ok("mmgen", &["status", "--dir", sub]);
        assert!(
            said.contains(&format!(
                "matters      below {cap} guesses for its class (item {index}'s budget"
            )),
            "{said}"
        );
        // The plan above sees the split done, with its time left as the split's
        // own status gives it: not projected from its items read uncapped, where
        // those its cap stopped look open.
        let seen = status(&run);
        let line = (seen["splits"].as_array().unwrap().iter())
            .find(|s| s["item"] == index)
            .unwrap();
        assert_eq!(line["seconds_left"], after["seconds_left"], "{seen}");
        let said = ok("mmgen", &["status", "--dir", parent]);
        assert!(
            said.contains(&format!(
                "within-{index}: {jobs} of {jobs} items done, its class at least {floor}; \
                 all done, only the merge is left: mmgen merge --dir {sub} --into {parent}",
                jobs = after["jobs"]
            )),
            "{said}"
        );
        let merged = ok("mmgen", &["merge", "--dir", sub, "--into", parent]);
        assert!(
            merged.contains(&format!(
                "item {index} of {parent}: merged (its class costs at least {floor}, too dear to matter there)"
            )),
            "{merged}"
        );
    }
    let after = status(&run);
    assert_eq!(
        (
            after["missing"].as_u64(),
            after["open_first_guesses"].as_u64()
        ),
        (Some(0), Some(0))
    );
    let report = merges_into_the_single_run(&dir, &run, &board);
    assert_eq!(report["total_guesses"], 11228);
}

#[test]
fn an_exact_plan_shows_first_guesses_too_dear_and_unmeetable_depths() {
    // Items of first guesses that cannot beat the best are recorded as too dear,
    // and the status bound never passes the optimum.
    let dir = scratch("cluster_exact_47");
    let run = plan_exact(&dir, &["--pegs", "4", "--colors", "7"]);
    let jobs = status(&run)["jobs"].as_u64().unwrap() as usize;
    let mut floors = Vec::new();
    for pair in (0..jobs).collect::<Vec<_>>().chunks(8) {
        solve_two_at_a_time(&run, pair);
        let now = status(&run);
        floors.push(now["lower_bound"].as_u64().unwrap());
    }
    assert!(floors.iter().all(|&f| f <= 11228), "{floors:?}");
    assert_eq!(floors.last(), Some(&11228));
    let dear = std::fs::read_dir(run.join("items"))
        .unwrap()
        .map(|f| f.unwrap().path())
        .filter(|f| f.extension().is_some_and(|e| e == "item"))
        .filter(|f| outcome_tag(&std::fs::read(f).unwrap()) == 2)
        .count();
    assert!(dear > 0, "no item was cut short by the budget");

    // 4x5 within 4 guesses passes the bounds, but the items prove it impossible.
    let dir = scratch("cluster_exact_unmet");
    let run = plan_exact(&dir, &["--pegs", "4", "--colors", "5", "--max-depth", "4"]);
    let run_text = run.to_str().unwrap();
    let jobs = status(&run)["jobs"].as_u64().unwrap() as usize;
    solve_two_at_a_time(&run, &(0..jobs).collect::<Vec<_>>());
    let out = dir.join("none.mmt");
    let cert = dir.join("none.mmc");
    let merged = common::run(
        "mmgen",
        &[
            "merge",
            "--dir",
            run_text,
            "--out",
            out.to_str().unwrap(),
            "--certificate",
            cert.to_str().unwrap(),
        ],
    );
    let err = String::from_utf8_lossy(&merged.stderr);
    assert_eq!(merged.status.code(), Some(1), "{err}");
    assert!(
        err.contains("mmgen: certificate of that proof: ")
            && err.contains("no strategy solves every secret within 4 guesses"),
        "{err}"
    );
    assert!(!out.exists());
    // What the items proved is certified all the same.
    let checked = ok("mmcheck", &[cert.to_str().unwrap()]);
    assert!(
        checked.contains("no strategy solves every secret within 4 guesses: proven"),
        "{checked}"
    );
}

#[test]
fn plans_refuse_what_they_cannot_build() {
    let dir = scratch("cluster_refused");
    let run = dir.join("run");
    let plan = |extra: &[&str]| {
        let base = ["plan", "--dir", run.to_str().unwrap(), "--pegs", "4"];
        fails("mmgen", &[&base[..], extra].concat())
    };
    let err = plan(&["--strategy", "knuth", "--tasks", "1001"]);
    assert!(err.contains("1 to 1000 tasks"), "{err}");
    let err = plan(&["--strategy", "optimal", "--depth", "2"]);
    assert!(err.contains("an exact plan has depth 1"), "{err}");
    let err = plan(&["--strategy", "knuth", "--max-depth", "5"]);
    assert!(
        err.contains("--max-depth applies to --strategy optimal only"),
        "{err}"
    );
    let err = usage_error(
        "mmgen",
        &[
            "plan",
            "--dir",
            run.to_str().unwrap(),
            "--strategy",
            "knuth",
            "--certificate",
        ],
    );
    assert!(
        err.contains("--certificate applies only to --strategy optimal"),
        "{err}"
    );
    let err = plan(&["--strategy", "optimal", "--max-depth", "4"]);
    assert!(err.contains("proven by the bounds"), "{err}");
    assert!(!run.join("plan.json").exists());
    let err = fails(
        "mmgen",
        &["status", "--dir", dir.join("nothing").to_str().unwrap()],
    );
    assert!(err.contains("plan.json"), "{err}");
}

/// The positions `mmgen solve-class` printed it searched, summed over its items.
fn positions_searched(said: &str) -> u64 {
    (said.lines())
        .filter_map(|l| l.split_once(" s, ")?.1.split_once(" positions searched"))
        .map(|(n, _)| n.parse::<u64>().unwrap())
        .sum()
}

#[test]
fn a_known_tree_beside_a_plan_settles_rival_first_guesses_sooner_and_changes_no_tree() {
    let dir = scratch("cluster_known");
    let board = ["--pegs", "4", "--colors", "6"];
    let plan = |name: &str| {
        let run = dir.join(name);
        let r = run.to_str().unwrap().to_string();
        ok(
            "mmgen",
            &[&["plan", "--dir", &r, "--strategy", "optimal"][..], &board].concat(),
        );
        run
    };
    let (bare, known) = (plan("bare"), plan("known"));
    let optimal = root().join("trees/optimal-4x6.mmt");
    std::fs::copy(&optimal, known.join("known.mmt")).unwrap();
    let status = |run: &Path| {
        json(&ok(
            "mmgen",
            &["status", "--dir", run.to_str().unwrap(), "--json"],
        ))
    };
    // Their floors worked out, as a campaign's workers ask for them.
    status_items(&bare);
    status_items(&known);
    let (before, with) = (status(&bare), status(&known));
    // The plan's heuristic (most parts, 5668) against the known tree's 5625: 1234,
    // at least 5656 by its floors, is open without it and settled with it.
    assert_eq!(before["best_known_total"], 5668);
    assert_eq!(before["known_tree_total"], serde_json::Value::Null);
    assert_eq!(
        (
            with["best_known_total"].as_u64(),
            with["known_tree_total"].as_u64()
        ),
        (Some(5625), Some(5625))
    );
    assert_eq!(
        (
            before["open_first_guesses"].as_u64(),
            with["open_first_guesses"].as_u64()
        ),
        (Some(2), Some(1))
    );
    let text = ok("mmgen", &["status", "--dir", known.to_str().unwrap()]);
    assert!(
        text.contains("to the least total known, 5625 (the tree in "),
        "{text}"
    );
    assert!(text.contains("known.mmt)"), "{text}");
    // Its items' floors were looked at only as far as a first guess could come in
    // under 5626: none above the bare plan's, some below (1234's, past it).
    let floors = |run: &Path| -> Vec<u64> {
        let text = std::fs::read_to_string(run.join("floors.txt")).unwrap();
        let lines = text.lines().skip(1).take_while(|l| !l.starts_with("crc "));
        lines
            .map(|l| l.split_once(' ').unwrap().1.parse().unwrap())
            .collect()
    };
    let (floors_bare, floors_known) = (floors(&bare), floors(&known));
    assert_eq!(floors_bare.len(), floors_known.len());
    let pairs = || floors_known.iter().zip(&floors_bare);
    assert!(pairs().all(|(k, b)| k <= b) && pairs().any(|(k, b)| k < b));
    // So are a split's, of 1123's biggest class, as far as what the known tree
    // plays that class in, plus one (its item's budget is never more).
    let game = lookup::Board::new(4, 6, true).unwrap();
    let opening = game.index(game.parse("1123").unwrap()).unwrap();
    let plan = json(&std::fs::read_to_string(bare.join("plan.json")).unwrap());
    let items = plan["items"].as_array().unwrap().iter().enumerate();
    let (biggest, _) = (items.filter(|(_, item)| item["path"][0][0] == opening))
        .max_by_key(|(_, item)| item["secrets"].as_u64())
        .unwrap();
    let split = |run: &Path| {
        let within = run.join(format!("within-{biggest}"));
        let (r, w) = (run.to_str().unwrap(), within.to_str().unwrap());
        let item = biggest.to_string();
        ok(
            "mmgen",
            &["plan", "--within", r, "--item", &item, "--dir", w],
        );
        status_items(&within);
        let floors = floors(&within);
        std::fs::remove_dir_all(&within).unwrap();
        floors
    };
    let (floors_bare, floors_known) = (split(&bare), split(&known));
    let pairs = || floors_known.iter().zip(&floors_bare);
    assert!(pairs().all(|(k, b)| k <= b) && pairs().any(|(k, b)| k < b));

    // 1234's classes, solved before 1123 is costed in full (as a worker beside its
    // last items takes them): each under the budget its first guess leaves, which
    // the known tree makes its floor (274 positions without it, 75 with it).
    let game = lookup::Board::new(4, 6, true).unwrap();
    let rival = game.index(game.parse("1234").unwrap()).unwrap();
    let items = json(&std::fs::read_to_string(bare.join("plan.json")).unwrap())["items"].clone();
    let of = |guess: u32| -> Vec<String> {
        (items.as_array().unwrap().iter().enumerate())
            .filter(|(_, item)| item["path"][0][0] == guess)
            .map(|(index, _)| index.to_string())
            .collect()
    };
    let solve = |run: &Path, which: &[String]| {
        let args = [
            &["solve-class", "--dir", run.to_str().unwrap()][..],
            &which.iter().map(String::as_str).collect::<Vec<_>>(),
        ]
        .concat();
        ok("mmgen", &args)
    };
    let searched_bare = positions_searched(&solve(&bare, &of(rival)));
    let searched_known = positions_searched(&solve(&known, &of(rival)));
    assert!(
        searched_known < searched_bare,
        "{searched_known} positions with the known tree, {searched_bare} without"
    );

    // The rest, in the search's order: the same tree, the board's optimum.
    for run in [&bare, &known] {
        let todo = ok(
            "mmgen",
            &["status", "--dir", run.to_str().unwrap(), "--todo"],
        );
        let todo: Vec<String> = todo.split_whitespace().map(String::from).collect();
        solve(run, &todo);
    }
    let merged = |run: &Path| {
        let out = run.join("merged.mmt");
        ok(
            "mmgen",
            &[
                "merge",
                "--dir",
                run.to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
            ],
        );
        std::fs::read(out).unwrap()
    };
    let tree = merged(&bare);
    assert!(tree == merged(&known));
    let audit = json(&ok(
        "mmlookup",
        &[
            "audit",
            "--tree",
            bare.join("merged.mmt").to_str().unwrap(),
            "--json",
        ],
    ));
    assert_eq!(audit["total_guesses"], 5625);

    // A known tree that does not check, or of another board: a one-line error
    // naming it, from the status and from a search; nothing is solved.
    let path = known.join("known.mmt");
    let mut bytes = std::fs::read(&optimal).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    std::fs::remove_file(known.join("items/0.item")).unwrap();
    let k = known.to_str().unwrap();
    for args in [
        &["status", "--dir", k][..],
        &["solve-class", "--dir", k, "0"],
    ] {
        let err = fails("mmgen", args);
        assert!(err.contains("known.mmt"), "{err}");
    }
    assert!(!known.join("items/0.item").exists());
    std::fs::copy(root().join("trees/knuth-5x8.mmt"), &path).unwrap();
    let err = fails("mmgen", &["status", "--dir", k]);
    assert!(err.contains("known.mmt") && err.contains("5x8"), "{err}");
}

#[test]
fn a_campaign_with_a_fill_tree_keeps_its_best_tree_known_as_items_are_kept() {
    let dir = scratch("cluster_campaign_known");
    kept_campaign(&dir, "c46", &["--pegs", "4", "--colors", "6"]);
    let work = dir.join("work");
    let run = |fill: Option<&Path>| {
        let mut campaign = Command::new(root().join("scripts/campaign.sh"));
        campaign
            .args(["c46", work.to_str().unwrap(), "2", "64"])
            .arg(bin("mmgen").parent().unwrap())
            .env_remove("FILL")
            .current_dir(&dir);
        if let Some(fill) = fill {
            campaign.env("FILL", fill);
        }
        campaign.output().unwrap()
    };
    // A tree of another board makes no known tree: the campaign stops at once.
    let out = run(Some(&root().join("trees/knuth-5x8.mmt")));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("make campaign: FILL"),
        "{err}"
    );
    assert!(!work.join("c46/known.mmt").exists());
    // Without FILL, the tree kept beside the campaign's plan, if any, fills.
    let kept = dir.join("campaigns/c46/known.mmt");
    std::fs::copy(root().join("trees/expected-size-4x6.mmt"), kept).unwrap();
    let out = run(None);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Made at the start from the other tree alone, then again as items are kept.
    let known: Vec<&str> = said
        .lines()
        .filter(|l| l.starts_with("known.mmt: "))
        .collect();
    assert!(known[0].starts_with("known.mmt: 5696 guesses"), "{said}");
    assert!(known.len() > 10, "{said}");
    assert!(
        known.last().unwrap().starts_with("known.mmt: 5625 guesses"),
        "{said}"
    );
    assert!(said.contains("optimal: total 5625, proven"), "{said}");
    let tree = work.join("c46/optimal-c46.mmt");
    assert!(
        std::fs::read(tree).unwrap()
            == std::fs::read(root().join("trees/optimal-4x6.mmt")).unwrap()
    );
}

#[test]
fn a_merge_before_every_item_is_done_fills_the_rest_from_another_tree() {
    let dir = scratch("cluster_fill");
    let run = dir.join("run");
    let r = run.to_str().unwrap();
    let board = ["--pegs", "4", "--colors", "6"];
    ok(
        "mmgen",
        &[&["plan", "--dir", r, "--strategy", "optimal"][..], &board].concat(),
    );
    let plan = json(&std::fs::read_to_string(run.join("plan.json")).unwrap());
    let game = lookup::Board::new(4, 6, true).unwrap();
    let opens = game.index(game.parse("1123").unwrap()).unwrap();
    let under: Vec<usize> = (plan["items"].as_array().unwrap().iter().enumerate())
        .filter(|(_, item)| item["path"][0][0] == opens)
        .map(|(index, _)| index)
        .collect();
    assert!(under.len() > 4, "{under:?}");
    // The search's first option, searched with no budget (a rival first guess's
    // classes may be shown only too dear, and are filled then).
    let knuth = root().join("trees/expected-size-4x6.mmt");
    let fill = |out: &Path| {
        let (k, o) = (knuth.to_str().unwrap(), out.to_str().unwrap());
        json(&ok(
            "mmgen",
            &["merge", "--dir", r, "--fill", k, "--out", o, "--json"],
        ))
    };
    let audited = |out: &Path| {
        json(&ok(
            "mmlookup",
            &["audit", "--tree", out.to_str().unwrap(), "--json"],
        ))
    };

    // Nothing done: the other tree, its header naming it imported from it.
    let none = fill(&dir.join("none.mmt"));
    assert_eq!(none["total_guesses"], 5696);
    assert_eq!(none["items_searched"], serde_json::json!([]));
    assert_eq!(none["items_filled"].as_array().unwrap().len(), under.len());
    let info = ok(
        "mmlookup",
        &["info", "--tree", dir.join("none.mmt").to_str().unwrap()],
    );
    assert!(
        info.contains("strategy     imported")
            && info.contains("source = expected-size-4x6.mmt")
            && info.contains("source strategy = expected-size"),
        "{info}"
    );

    // Half of 1123's classes searched: those in their places, the rest the other's.
    let half = &under[..under.len() / 2];
    solve_two_at_a_time(&run, half);
    let some_tree = dir.join("some.mmt");
    let some = fill(&some_tree);
    assert_eq!(some["items_searched"], serde_json::json!(half));
    let [total, searched, there] =
        ["total_guesses", "searched_total", "fill_total_there"].map(|k| some[k].as_u64().unwrap());
    assert!(
        searched < there,
        "the items beat Knuth's tree somewhere: {some}"
    );
    assert_eq!(total, 5696 - there + searched);
    assert_eq!(audited(&some_tree)["total_guesses"], total);
    let again = dir.join("again.mmt");
    fill(&again);
    assert!(std::fs::read(&again).unwrap() == std::fs::read(&some_tree).unwrap());
    let said = ok(
        "mmgen",
        &[
            "merge",
            "--dir",
            r,
            "--fill",
            knuth.to_str().unwrap(),
            "--out",
            again.to_str().unwrap(),
        ],
    );
    assert!(
        said.contains(&format!(
            "{} of {} after 1123 searched: {searched} guesses where expected-size-4x6.mmt takes {there}",
            half.len(),
            under.len()
        )),
        "{said}"
    );

    // Every class searched: the board's optimum, 1123's (Koyama and Lai's 5625).
    solve_two_at_a_time(&run, &under[under.len() / 2..]);
    let all = fill(&dir.join("all.mmt"));
    assert_eq!(all["total_guesses"], 5625);
    assert_eq!(all["items_filled"], serde_json::json!([]));

    // A tree of another board, or damaged, fills nothing; nothing is written.
    let out = dir.join("bad.mmt");
    let o = out.to_str().unwrap();
    let other = root().join("trees/knuth-5x8.mmt");
    let err = fails(
        "mmgen",
        &[
            "merge",
            "--dir",
            r,
            "--fill",
            other.to_str().unwrap(),
            "--out",
            o,
        ],
    );
    assert!(
        err.contains("the tree is of the 5x8 board, not of 4x6"),
        "{err}"
    );
    let mut bytes = std::fs::read(&knuth).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 1;
    let damaged = dir.join("damaged.mmt");
    std::fs::write(&damaged, bytes).unwrap();
    let err = fails(
        "mmgen",
        &[
            "merge",
            "--dir",
            r,
            "--fill",
            damaged.to_str().unwrap(),
            "--out",
            o,
        ],
    );
    assert!(
        err.contains("damaged.mmt: ") && err.contains("checksum"),
        "{err}"
    );
    assert!(!out.exists());
    // A file that is not a tree is not replaced, and a filled tree proves nothing.
    std::fs::write(&out, "notes").unwrap();
    let k = knuth.to_str().unwrap();
    let err = fails("mmgen", &["merge", "--dir", r, "--fill", k, "--out", o]);
    assert!(err.contains("not a tree file"), "{err}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "notes");
    let err = usage_error(
        "mmgen",
        &[
            "merge",
            "--dir",
            r,
            "--fill",
            k,
            "--out",
            o,
            "--certificate",
            "x.mmc",
        ],
    );
    assert!(err.contains("cannot be used with"), "{err}");
}

/// Runs `git` in `dir`; what it prints.
fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("git runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "git {args:?}: {text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

#[test]
fn make_keep_commits_items_unless_they_better_a_shipped_tree() {
    // A checkout in small: make keep's script, a Makefile shipping a tree merged
    // from the campaign c46 (4x6) and filled from expected-size's tree, trees/'s
    // README (its table is rewritten), and the campaign's plan, committed.
    let repo = scratch("cluster_keep");
    std::fs::create_dir_all(repo.join("scripts")).unwrap();
    std::fs::create_dir_all(repo.join("trees")).unwrap();
    std::fs::copy(
        root().join("scripts/keep-campaign.sh"),
        repo.join("scripts/keep-campaign.sh"),
    )
    .unwrap();
    std::fs::write(
        repo.join("Makefile"),
        "TREES := best-c46.mmt:merge:--dir=campaigns/c46:--fill=trees/expected-size-4x6.mmt\n",
    )
    .unwrap();
    for file in ["expected-size-4x6.mmt", "README.md"] {
        std::fs::copy(
            root().join("trees").join(file),
            repo.join("trees").join(file),
        )
        .unwrap();
    }
    let kept = repo.join("campaigns/c46");
    let k = kept.to_str().unwrap();
    let planned = ok(
        "mmgen",
        &[
            "plan",
            "--dir",
            k,
            "--strategy",
            "optimal",
            "--pegs",
            "4",
            "--colors",
            "6",
        ],
    );
    assert!(planned.starts_with("planned "), "{planned}");
    let shipped = repo.join("trees/best-c46.mmt");
    let fill = repo.join("trees/expected-size-4x6.mmt");
    let merge_args = |out: &Path| {
        [
            "merge",
            "--dir",
            k,
            "--fill",
            fill.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]
        .map(String::from)
    };
    let args = merge_args(&shipped);
    ok("mmgen", &args.each_ref().map(String::as_str));
    git(&repo, &["init", "-q"]);
    git(&repo, &["config", "user.name", "mmtree tests"]);
    git(&repo, &["config", "user.email", "tests@mmtree.invalid"]);
    git(&repo, &["add", "."]);
    git(&repo, &["commit", "-q", "-m", "a campaign begun"]);
    let keep = || {
        Command::new(repo.join("scripts/keep-campaign.sh"))
            .args(["c46", bin("mmgen").parent().unwrap().to_str().unwrap()])
            .current_dir(&repo)
            .output()
            .unwrap()
    };
    let head = || git(&repo, &["rev-parse", "HEAD"]);
    let begun = head();

    // Nothing new: nothing committed.
    let out = keep();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("nothing new"));
    assert_eq!(head(), begun);

    // An item done that plays its class better than the fill tree: the tree is
    // rebuilt from what is staged, trees/README.md's table with it, and nothing is
    // committed, for a person to bring the figures quoted elsewhere up to date.
    let first = status_items(&kept)[0];
    ok("mmgen", &["solve-class", "--dir", k, &first.to_string()]);
    let out = keep();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(
        err.contains("keep: trees/best-c46.mmt rebuilt from these items"),
        "{err}"
    );
    assert_eq!(head(), begun);
    let fresh = repo.join("fresh.mmt");
    let args = merge_args(&fresh);
    ok("mmgen", &args.each_ref().map(String::as_str));
    assert!(std::fs::read(&fresh).unwrap() == std::fs::read(&shipped).unwrap());
    std::fs::remove_file(&fresh).unwrap();
    let staged = git(&repo, &["diff", "--cached", "--name-only"]);
    for file in [
        "trees/best-c46.mmt",
        "trees/README.md",
        &format!("campaigns/c46/items/{first}.item"),
    ] {
        assert!(staged.lines().any(|l| l == file), "{file} not in {staged}");
    }
    let table = std::fs::read_to_string(repo.join("trees/README.md")).unwrap();
    assert!(
        table.contains("| best-c46.mmt | 4x6 | imported |"),
        "{table}"
    );
    // Other changes staged: the script touches nothing.
    let out = keep();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("other changes are staged"));
    git(
        &repo,
        &["commit", "-q", "-m", "the figures brought up to date"],
    );
    let bettered = head();

    // What the campaign copies back that leaves the tree as it is (a ledger's
    // line) is committed at once.
    let ledger = kept.join("parts.txt");
    let mut lines = std::fs::read_to_string(&ledger).unwrap_or_default();
    lines.push_str("part 1 00000000 a line as a check writes it\n");
    std::fs::write(&ledger, lines).unwrap();
    let out = keep();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_ne!(head(), bettered);
    let message = git(&repo, &["log", "-1", "--format=%s"]);
    assert!(message.starts_with("c46: items kept to "), "{message}");
    assert_eq!(git(&repo, &["status", "--porcelain"]), "");
}

/// The items of the plan in `dir` not done, in the order a campaign takes them.
fn status_items(dir: &Path) -> Vec<usize> {
    status_list(dir, "--todo")
}

/// The items `mmgen status --dir DIR FLAG` lists (`--todo`, `--at-once`, ...).
fn status_list(dir: &Path, flag: &str) -> Vec<usize> {
    let listed = ok("mmgen", &["status", "--dir", dir.to_str().unwrap(), flag]);
    listed
        .split_whitespace()
        .map(|i| i.parse().unwrap())
        .collect()
}
