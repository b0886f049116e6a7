//! What users must be able to rely on: no file is destroyed by writing a tree, no
//! answer comes from damaged bytes, and no claim is printed that does not hold.

mod common;
use common::*;
use std::os::unix::fs::FileTypeExt;
use std::path::Path;
use std::process::Command;

/// The exact search on the classic board.
const CLASSIC_OPTIMAL: [&str; 6] = ["--pegs", "4", "--colors", "6", "--strategy", "optimal"];

/// A small board: quick to build, and a real tree.
const SMALL: [&str; 6] = ["--pegs", "3", "--colors", "3", "--strategy", "knuth"];

fn mmgen_out(out: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = SMALL.to_vec();
    args.extend(["--out", out.to_str().unwrap()]);
    args.extend(extra);
    run("mmgen", &args)
}

/// The bytes a plain run writes for [`SMALL`].
fn small_tree_bytes(dir: &Path) -> Vec<u8> {
    let plain = dir.join("plain.mmt");
    assert!(mmgen_out(&plain, &[]).status.success());
    std::fs::read(plain).unwrap()
}

/// Makes a character device node like /dev/null (1,3) or /dev/full (1,7). CI runs as
/// root; where that is not allowed the test fails and says why, never skips.
fn mknod(path: &Path, minor: &str) {
    let made = Command::new("mknod")
        .args([path.to_str().unwrap(), "c", "1", minor])
        .output()
        .expect("mknod runs");
    assert!(
        made.status.success(),
        "this test needs to create a device node (run as root): mknod said {}",
        String::from_utf8_lossy(&made.stderr)
    );
}

#[test]
fn an_unrelated_file_is_kept_unless_forced() {
    let dir = scratch("trust_unrelated");
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, "my notes").unwrap();
    let err = fails(
        "mmgen",
        &[&SMALL[..], &["--out", notes.to_str().unwrap()]].concat(),
    );
    assert!(
        err.contains("exists and is not a tree file; not replaced (pass --force"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "my notes");
    // Refused before any work: no temporary file is left either.
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
    assert!(mmgen_out(&notes, &["--force"]).status.success());
    assert_eq!(std::fs::read(&notes).unwrap(), small_tree_bytes(&dir));
    // A tree file is replaced without --force: regenerating is the normal case.
    assert!(mmgen_out(&notes, &[]).status.success());
    // mmgen import follows the same rule.
    let json = dir.join("tree.json");
    let export = ok(
        "mmlookup",
        &["export", "--format", "json", notes.to_str().unwrap()],
    );
    std::fs::write(&json, export).unwrap();
    let kept = dir.join("kept.txt");
    std::fs::write(&kept, "keep me").unwrap();
    let err = fails(
        "mmgen",
        &[
            "import",
            json.to_str().unwrap(),
            "--out",
            kept.to_str().unwrap(),
        ],
    );
    assert!(err.contains("not replaced"), "{err}");
    assert_eq!(std::fs::read_to_string(&kept).unwrap(), "keep me");
}

#[test]
fn a_directory_is_refused_even_with_force() {
    let dir = scratch("trust_directory");
    let sub = dir.join("sub");
    std::fs::create_dir(&sub).unwrap();
    let err = fails(
        "mmgen",
        &[&SMALL[..], &["--out", sub.to_str().unwrap(), "--force"]].concat(),
    );
    assert!(err.contains("is a directory"), "{err}");
    assert!(sub.is_dir());
}

#[test]
fn a_symlink_keeps_its_place_and_its_target_gets_the_tree() {
    let dir = scratch("trust_symlink");
    let target = dir.join("real.mmt");
    let link = dir.join("link.mmt");
    std::os::unix::fs::symlink("real.mmt", &link).unwrap();
    // A dangling link: its target is created.
    assert!(mmgen_out(&link, &[]).status.success());
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    let expected = small_tree_bytes(&dir);
    assert_eq!(std::fs::read(&target).unwrap(), expected);
    // And replaced when it exists.
    std::fs::write(&target, b"\x89MMT\r\n\x1a\nold").unwrap();
    assert!(mmgen_out(&link, &[]).status.success());
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(std::fs::read(&target).unwrap(), expected);
}

#[test]
fn a_device_node_is_written_in_place_and_never_replaced() {
    let dir = scratch("trust_device");
    let null = dir.join("null");
    mknod(&null, "3");
    let report = mmgen_out(&null, &[]);
    assert!(
        report.status.success(),
        "{}",
        String::from_utf8_lossy(&report.stderr)
    );
    assert!(std::fs::metadata(&null)
        .unwrap()
        .file_type()
        .is_char_device());
    // A full device: the write fails, said in one line, and the node stays.
    let full = dir.join("full");
    mknod(&full, "7");
    let err = fails(
        "mmgen",
        &[&SMALL[..], &["--out", full.to_str().unwrap()]].concat(),
    );
    assert!(err.contains("No space left on device"), "{err}");
    assert!(std::fs::metadata(&full)
        .unwrap()
        .file_type()
        .is_char_device());
    // No temporary file beside them.
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 2);
}

#[test]
fn a_fifo_gets_the_bytes_and_stays_a_fifo() {
    let dir = scratch("trust_fifo");
    let fifo = dir.join("pipe");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success(), "mkfifo");
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read(fifo).unwrap())
    };
    let report = mmgen_out(&fifo, &[]);
    assert!(report.status.success());
    let received = reader.join().unwrap();
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
    assert_eq!(received, small_tree_bytes(&dir));
}

/// Every mmlookup command that reads a tree, on `tree`.
fn every_command(tree: &str) -> Vec<Vec<&str>> {
    [
        &["next", "--tree", tree][..],
        &["next", "--tree", tree, "1122:2,2", "1213:3,0"],
        &["solve", "--tree", tree, "3632"],
        &["solve", "--all", "--tree", tree],
        &["audit", tree],
        &["info", tree],
        &["explain", "--tree", tree, "1122:1,0"],
        &["export", tree],
        &["export", "--format", "json", tree],
        &["export", "--format", "dot", tree],
        &["export", "--format", "rust", tree],
        &["export", "--format", "c", tree],
        &["score", "--tree", tree, "1122", "1234"],
        &["play", "--tree", tree],
        &["guess-mine", "--tree", tree],
        &["challenge", "--tree", tree],
    ]
    .iter()
    .map(|a| a.to_vec())
    .collect()
}

#[test]
fn a_damaged_tree_is_refused_by_every_command_with_nothing_on_stdout() {
    let dir = scratch("trust_damaged");
    let shipped = std::fs::read(root().join("trees/knuth-4x6.mmt")).unwrap();
    let path = dir.join("damaged.mmt");
    let path_text = path.to_str().unwrap();
    // The reported case: one edge value changed made `next 1122:2,2 1213:3,0`
    // answer 1211 with exit 0. Edges start after the prefix, metadata and records.
    let tree = lookup::Tree::open(&shipped[..]).unwrap();
    let edges_at = tree.layout().edges_offset() as usize;
    for at in [edges_at + 40, 9, 40, shipped.len() / 2, shipped.len() - 1] {
        let mut bytes = shipped.clone();
        bytes[at] ^= 0x01;
        std::fs::write(&path, &bytes).unwrap();
        for command in every_command(path_text) {
            let err = fails("mmlookup", &command);
            assert!(
                err.contains("corrupt") || err.contains("version"),
                "byte {at}, {command:?}: {err}"
            );
        }
        let audit = run("mmlookup", &["audit", "--json", path_text]);
        assert_eq!(audit.status.code(), Some(1));
        assert_eq!(json(&String::from_utf8_lossy(&audit.stdout))["ok"], false);
    }
}

#[test]
fn a_depth_no_strategy_meets_is_refused_with_the_least_one_proven() {
    let dir = scratch("trust_depth");
    let out = dir.join("x.mmt");
    let out = out.to_str().unwrap();
    for depth in ["4", "3"] {
        let err = fails(
            "mmgen",
            &[&CLASSIC_OPTIMAL[..], &["--max-depth", depth, "--out", out]].concat(),
        );
        // Knuth 1977: the classic board needs 5 guesses in the worst case.
        assert!(
            err.contains(&format!(
                "no strategy solves every secret within {depth} guesses"
            )) && err.contains("the least worst case is 5; no file written"),
            "{err}"
        );
    }
    // With a forced first guess the claim is about strategies that start with it.
    let err = fails(
        "mmgen",
        &[
            "--pegs",
            "3",
            "--colors",
            "4",
            "--strategy",
            "optimal",
            "--first",
            "111",
            "--max-depth",
            "3",
            "--out",
            out,
        ],
    );
    assert!(
        err.contains("no strategy that starts with 111 solves every secret within 3 guesses"),
        "{err}"
    );
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0, "no file");
}

#[test]
fn a_time_limited_run_says_it_is_not_proven_and_what_is_known() {
    let dir = scratch("trust_time_limit");
    let out = dir.join("t.mmt");
    let args = [
        &CLASSIC_OPTIMAL[..],
        &["--time-limit", "0", "--out", out.to_str().unwrap()],
    ]
    .concat();
    let terminal = ok("mmgen", &args);
    let line = terminal
        .lines()
        .find(|l| l.starts_with("proven"))
        .unwrap_or_else(|| panic!("a proven line: {terminal}"));
    assert!(
        line.contains("no: the time limit ran out; best total found"),
        "{line}"
    );
    let report = json(&ok("mmgen", &[&args[..], &["--json"]].concat()));
    assert_eq!(report["proven"], false);
    let total = report["total_guesses"].as_u64().unwrap();
    let floor = report["proven_lower_bound"].as_u64().unwrap();
    // The bound is a proof: it cannot exceed the true optimum (5625, Koyama and Lai
    // 1993), which cannot exceed this tree's total.
    assert!(floor <= 5625 && 5625 <= total, "{floor} {total}");
    let info = ok("mmlookup", &["info", out.to_str().unwrap()]);
    assert!(
        info.contains(&format!("proven lower bound {floor}")),
        "{info}"
    );
    let info = json(&ok("mmlookup", &["info", "--json", out.to_str().unwrap()]));
    assert_eq!(info["proven_lower_bound"], floor);
}

#[test]
fn proven_means_optimal_under_every_recorded_constraint() {
    let dir = scratch("trust_proven");
    // Guessing only still-possible codes, the classic optimum is 5660 (reference
    // values, shared/reference/mastermind.md): the exact search must not use the
    // other codes while the header says it did not.
    let (path, report) = generate(
        &dir,
        "consistent.mmt",
        &[&CLASSIC_OPTIMAL[..], &["--consistent-only"]].concat(),
    );
    assert_eq!(report["total_guesses"], 5660);
    assert_eq!(report["proven"], true);
    assert!(report["proof"]
        .as_str()
        .unwrap()
        .contains("guessing only still-possible codes has a total below 5660"));
    let info = ok("mmlookup", &["info", path.to_str().unwrap()]);
    assert!(
        info.contains("proven       yes: no strategy guessing only"),
        "{info}"
    );
    // Every guess of the tree was still possible where it was played.
    let games = ok(
        "mmlookup",
        &["solve", "--all", "--tree", path.to_str().unwrap()],
    );
    let board_codes: Vec<&str> = games.lines().collect();
    assert_eq!(board_codes.len(), 1296);
}

#[test]
fn options_that_do_not_apply_are_refused() {
    let out = scratch("trust_options").join("x.mmt");
    let out = out.to_str().unwrap();
    for (extra, expected) in [
        (
            &["--strategy", "knuth", "--max-depth", "5"][..],
            "--max-depth applies only to --strategy optimal",
        ),
        (
            &["--strategy", "entropy", "--time-limit", "5"],
            "--time-limit applies only to --strategy optimal",
        ),
        (
            &["--strategy", "most-parts", "--objective", "worst"],
            "--objective applies only to --strategy optimal",
        ),
        (
            &[
                "--strategy",
                "optimal",
                "--objective",
                "worst",
                "--max-depth",
                "5",
            ],
            "do not go together",
        ),
    ] {
        // A usage error: exit 2, one line, naming the help to read.
        let err = usage_error("mmgen", &[extra, &["--out", out]].concat());
        assert!(err.contains(expected), "{extra:?}: {err}");
    }
}

#[test]
fn too_many_threads_are_refused_at_once() {
    let out = run(
        "mmgen",
        &[
            "--pegs",
            "3",
            "--colors",
            "3",
            "--threads",
            "100000",
            "--out",
            "/dev/null",
        ],
    );
    // A usage error: clap's exit status 2, with the bound in the message.
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("give 0 (one per core) to 256 threads"),
        "{err}"
    );
}

#[test]
fn the_makefile_asks_cargo_where_the_binaries_are() {
    let elsewhere = scratch("trust_target_dir").join("target");
    let plan = Command::new("make")
        .args(["-n", "demo", "trees", "man"])
        .current_dir(root())
        .env("CARGO_TARGET_DIR", &elsewhere)
        .output()
        .expect("make runs");
    let plan = String::from_utf8_lossy(&plan.stdout);
    let release = format!("{}/release", elsewhere.display());
    assert!(
        plan.contains(&format!("scripts/demo.sh {release} 3632")),
        "{plan}"
    );
    assert!(
        plan.contains(&format!("{release}/mmtree-report trees")),
        "{plan}"
    );
    assert!(!plan.contains(" target/release"), "{plan}");
}

#[test]
fn completions_and_manual_pages_come_from_the_programs_themselves() {
    let bash = ok("mmlookup", &["completions", "bash"]);
    assert!(
        bash.contains("_mmlookup()") && bash.contains("guess-mine"),
        "{bash}"
    );
    let zsh = ok("mmgen", &["completions", "zsh"]);
    assert!(zsh.contains("#compdef mmgen") && zsh.contains("--max-depth"));
    let page = ok("mmgen", &["man"]);
    assert!(
        page.contains(".TH mmgen 1") && page.contains("max\\-depth"),
        "{page}"
    );
    let next = ok("mmlookup", &["man", "next"]);
    assert!(next.contains(".TH mmlookup-next 1"), "{next}");
    let list = ok("mmlookup", &["man", "--list"]);
    assert!(list.lines().any(|l| l == "explain"), "{list}");
    let err = fails("mmlookup", &["man", "nonsense"]);
    assert!(err.contains("no subcommand nonsense"), "{err}");
}

#[test]
fn score_needs_no_tree() {
    assert_eq!(ok("mmlookup", &["score", "1122", "3632"]), "1,0\n");
    assert_eq!(
        ok(
            "mmlookup",
            &["score", "--pegs", "5", "--colors", "8", "11223", "32118"]
        ),
        "0,4\n"
    );
    assert_eq!(
        ok(
            "mmlookup",
            &["score", "--colors", "10", "--no-repeat", "0123", "3210"]
        ),
        "0,4\n"
    );
    let err = fails(
        "mmlookup",
        &["score", "--colors", "10", "--no-repeat", "0113", "3210"],
    );
    assert!(err.contains("colour '1' is repeated"), "{err}");
}

#[test]
fn a_directory_or_a_device_given_as_a_tree_is_named_for_what_it_is() {
    let dir = scratch("trust_not_a_tree");
    let err = fails("mmlookup", &["info", dir.to_str().unwrap()]);
    assert!(err.contains("is a directory; give a tree file"), "{err}");
    let err = fails("mmlookup", &["next", "--tree", "/dev/null"]);
    assert!(err.contains("is not a regular file"), "{err}");
}
